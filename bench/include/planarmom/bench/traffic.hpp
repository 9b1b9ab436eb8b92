// Memory traffic of one BiCGSTAB iteration, kernel by kernel, for the two routes the BiCGSTAB
// paper compares (DESIGN §8): the project's merged kernels and the library route (cuSPARSE +
// cuBLAS, bench/cuda/baseline.cu). This is the model behind the floors of the GPU tables and the
// kernel list of docs/PERFORMANCE.md.
//
// A kernel moves at least every n-vector it reads and every one it writes, once each: one
// "vector pass" is n values, n·sizeof(T) bytes. An SpMV adds its matrix arrays. The 1 x k
// scalars and the reductions' partial sums are left out.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "planarmom/gpusolver/csr.hpp"

namespace pmom::bench {

enum class Route { merged, library };

struct KernelTraffic {
  std::string kernel;                      // the launch, or the library call
  std::vector<std::string> reads, writes;  // n-vectors: x, r, rhat, p, phat, v, s, shat, t, d (D⁻¹)
  bool spmv = false;       // also reads the matrix; its input and output are in reads/writes
  bool host_sync = false;  // a scalar comes back to the host, which waits for it

  [[nodiscard]] int vector_passes() const {
    return static_cast<int>(reads.size() + writes.size());
  }
};

// One iteration, in launch order. `jacobi` chooses the merged route's form (with it, p̂ = D⁻¹p
// and ŝ = D⁻¹s are vectors of their own; without, they are p and s). The library route applies
// D⁻¹ either way (ones without Jacobi), as the project's library BiCG does.
std::vector<KernelTraffic> bicgstab_iteration(Route route, bool jacobi);

struct IterationSummary {
  int launches = 0;            // kernels or library calls
  int spmvs = 0;
  int host_syncs = 0;          // per iteration (the merged route's one per check is not in it)
  int vector_passes = 0;       // outside the SpMVs: the figure the paper bounds by 18
  int spmv_vector_passes = 0;  // the SpMVs' own inputs and outputs
};
IterationSummary summarize(const std::vector<KernelTraffic>& kernels);

// The BiCGSTAB paper's lower bound on the vector passes of one unpreconditioned iteration with
// merged kernels: p-update 4, r̂ᴴv 2, s-update 3, tᴴs and tᴴt 2, x- and r-update with r̂ᴴr and
// ‖r‖² 7. Right-preconditioning with D⁻¹ adds 5: D⁻¹ read twice, p̂ and ŝ written once and ŝ
// read once more.
inline constexpr int paper_vector_bound = 18;
inline constexpr int jacobi_vector_passes = 5;

// The CSR arrays once: nnz values and column indices, n + 1 row pointers. The floors count
// this for every format: padding (ELL, SELL-P) is a format's cost, not a minimum.
double csr_matrix_bytes(index_t n, std::size_t nnz, std::size_t value_bytes,
                        std::size_t index_bytes = sizeof(index_t));
// One SpMV y = Ax: the matrix, x read and y written once.
double csr_spmv_bytes(index_t n, std::size_t nnz, std::size_t value_bytes,
                      std::size_t index_bytes = sizeof(index_t));
// One iteration: its SpMVs' matrices plus every vector pass.
double iteration_bytes(const IterationSummary& s, index_t n, std::size_t nnz,
                       std::size_t value_bytes, std::size_t index_bytes = sizeof(index_t));

}  // namespace pmom::bench
