// The per-iteration kernel lists of the two BiCGSTAB routes, as the code runs them: the merged
// route from Solver::run_bicgstab and the fused kernels (gpusolver/cuda/cuda_vector_kernels.cu),
// the library route from baseline_bicgstab (bench/cuda/baseline.cu).
#include "planarmom/bench/traffic.hpp"

#include <stdexcept>

namespace pmom::bench {
namespace {

std::vector<KernelTraffic> merged(bool jacobi) {
  // Without a preconditioner p̂ and ŝ are p and s: no D⁻¹ read, no copies written.
  const std::string phat = jacobi ? "phat" : "p", shat = jacobi ? "shat" : "s";
  KernelTraffic directions{"bicgstab_directions: p = r + beta(p - omega v)", {"r", "p", "v"},
                           {"p"}};
  KernelTraffic half_step{"bicgstab_half_step: s = r - alpha v", {"r", "v"}, {"s"}};
  KernelTraffic update{"bicgstab_update: x += alpha " + phat + " + omega " + shat +
                           ", r = s - omega t, rhat^H r, r^H r",
                       {"x", "s", "t", "rhat", phat}, {"x", "r"}};
  if (jacobi) {
    directions.kernel += ", phat = D p";
    directions.reads.push_back("d");
    directions.writes.push_back("phat");
    half_step.kernel += ", shat = D s";
    half_step.reads.push_back("d");
    half_step.writes.push_back("shat");
    update.reads.push_back("shat");  // without Jacobi it is s, read already
  }
  return {directions,
          {"SpMV v = A " + phat, {phat}, {"v"}, true},
          {"dot rhat^H v", {"rhat", "v"}, {}},
          half_step,
          {"SpMV t = A " + shat, {shat}, {"t"}, true},
          {"bicgstab_omega_dots: t^H s, t^H t", {"t", "s"}, {}},
          update};
}

std::vector<KernelTraffic> library() {
  return {
      {"cublas axpy p -= omega v", {"v", "p"}, {"p"}},
      {"cublas scal p *= beta", {"p"}, {"p"}},
      {"cublas axpy p += r", {"r", "p"}, {"p"}},
      {"cublas dgmm phat = D p", {"d", "p"}, {"phat"}},
      {"cusparse SpMV v = A phat", {"phat"}, {"v"}, true},
      {"cublas dot rhat^H v", {"rhat", "v"}, {}, false, true},
      {"cublas copy s = r", {"r"}, {"s"}},
      {"cublas axpy s -= alpha v", {"v", "s"}, {"s"}},
      {"cublas dgmm shat = D s", {"d", "s"}, {"shat"}},
      {"cusparse SpMV t = A shat", {"shat"}, {"t"}, true},
      {"cublas dot t^H s", {"t", "s"}, {}, false, true},
      {"cublas nrm2 t", {"t"}, {}, false, true},
      {"cublas axpy x += alpha phat", {"phat", "x"}, {"x"}},
      {"cublas axpy x += omega shat", {"shat", "x"}, {"x"}},
      {"cublas copy r = s", {"s"}, {"r"}},
      {"cublas axpy r -= omega t", {"t", "r"}, {"r"}},
      {"cublas dot rhat^H r", {"rhat", "r"}, {}, false, true},
      {"cublas nrm2 r", {"r"}, {}, false, true},
  };
}

}  // namespace

std::vector<KernelTraffic> bicgstab_iteration(Route route, bool jacobi) {
  switch (route) {
    case Route::merged: return merged(jacobi);
    case Route::library: return library();
  }
  throw std::invalid_argument("bicgstab_iteration: unknown route");
}

IterationSummary summarize(const std::vector<KernelTraffic>& kernels) {
  IterationSummary s;
  for (const KernelTraffic& k : kernels) {
    ++s.launches;
    s.host_syncs += k.host_sync ? 1 : 0;
    if (k.spmv) {
      ++s.spmvs;
      s.spmv_vector_passes += k.vector_passes();
    } else {
      s.vector_passes += k.vector_passes();
    }
  }
  return s;
}

double csr_matrix_bytes(index_t n, std::size_t nnz, std::size_t value_bytes,
                        std::size_t index_bytes) {
  return static_cast<double>(nnz) * static_cast<double>(value_bytes + index_bytes) +
         (static_cast<double>(n) + 1) * static_cast<double>(index_bytes);
}

double csr_spmv_bytes(index_t n, std::size_t nnz, std::size_t value_bytes,
                      std::size_t index_bytes) {
  return csr_matrix_bytes(n, nnz, value_bytes, index_bytes) +
         2.0 * static_cast<double>(n) * static_cast<double>(value_bytes);
}

double iteration_bytes(const IterationSummary& s, index_t n, std::size_t nnz,
                       std::size_t value_bytes, std::size_t index_bytes) {
  return s.spmvs * csr_matrix_bytes(n, nnz, value_bytes, index_bytes) +
         (s.vector_passes + s.spmv_vector_passes) * static_cast<double>(n) *
             static_cast<double>(value_bytes);
}

}  // namespace pmom::bench
