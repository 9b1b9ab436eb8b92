// The CUDA backend's private declarations: device matrices, the reduction scratch, and the
// kernel launchers that cuda_spmv.cu and cuda_vector_kernels.cu implement.
#pragma once

#include <cuda_runtime.h>

#include <limits>
#include <optional>
#include <vector>

#include "device_types.cuh"
#include "planarmom/gpusolver/backend.hpp"

namespace pmom::cuda {

// A matrix on the device. CSR: row_ptr/col/val. HYB: column-major ELL (ell_col, ell_val,
// padding -1) plus COO overflow (coo_row/coo_col/coo_val). ELLPACK-R: ell_col/ell_val with
// row_length. SELL-P: col/val in slices of slice_rows, slice_ptr, row_of, threads_per_row = t.
// DIA: val holds the diagonals one after another, offset their offsets.
template <class T> struct DeviceMatrix {
  Format format = Format::csr;
  index_t rows = 0, cols = 0;
  std::size_t nnz = 0;
  Block<index_t> row_ptr, col;  // CSR
  Block<T> val;
  // CSR: lanes per row from the mean row length, 2 to 32; 128 (four warps) for rows of 256
  // entries and more.
  int threads_per_row = 2;
  // CSR with threads_per_row <= 32: rows longer than long_row (listed in long_rows) go to
  // four warps each, so that a few rows of thousands of entries among short ones do not
  // hold a small lane group for thousands of rounds.
  index_t long_row = std::numeric_limits<index_t>::max();
  Block<index_t> long_rows;
  index_t ell_width = 0;    // HYB
  Block<index_t> ell_col, coo_row, coo_col;
  Block<T> ell_val, coo_val;
  std::size_t coo_nnz = 0;
  Block<index_t> row_length;  // ELLPACK-R
  index_t slice_rows = 0;     // SELL-P
  Block<index_t> slice_ptr, row_of;
  index_t diagonals = 0;      // DIA
  bool periodic = false;
  Block<index_t> offset;
};

// A device copy of a host array, as one column.
template <class U, class T> Block<U> to_device_block(Backend<T>& be, const std::vector<U>& host) {
  Block<U> b = be.template allocate<U>(static_cast<index_t>(host.size()), 1);
  be.template upload<U>(host, b);
  return b;
}

// m.format's arrays (ELLPACK-R, SELL-P or DIA; CSR and HYB are the backend's own) built from a.
template <class T>
void upload_format(Backend<T>& be, const Csr<T>& a, const OperatorOptions& options,
                   DeviceMatrix<T>& m);

template <class T> class CudaOperator final : public Operator<T> {
 public:
  DeviceMatrix<T> a;
  std::optional<DeviceMatrix<T>> adjoint;  // stored Aᴴ (AdjointMode::stored)
  AdjointMode mode = AdjointMode::stored;
  bool has_adjoint = false;

  [[nodiscard]] index_t rows() const override { return a.rows; }
  [[nodiscard]] index_t cols() const override { return a.cols; }
  [[nodiscard]] std::size_t nnz() const override { return a.nnz; }
  [[nodiscard]] Format format() const override { return a.format; }
};

// Partial sums of the two-stage reductions: every block writes its partials, the last block
// to finish (found with an atomic ticket) adds them in block order, so results do not depend
// on scheduling, and resets the ticket for the next launch (graph replays included).
struct ReduceScratch {
  // Room per partial: a compensated sum of doubles (summation.hpp), the largest accumulator.
  static constexpr std::size_t max_accumulator_bytes = 2 * sizeof(double);
  void* partials = nullptr;  // accumulators [column][block][value]
  unsigned* tickets = nullptr;  // [column]
  int max_blocks = 0;
  int max_values = 0;
  int max_columns = 0;
};

// Launch geometry shared by the vector kernels: a grid-stride loop over rows with at most
// max_blocks blocks in x, one grid row (y) per right-hand side.
inline constexpr int vector_block = 256;

template <class T> struct SpmvArgs {
  const DeviceMatrix<T>* m;
  const T* x;
  T* y;
  index_t k;
  T alpha, beta;
};
template <class T> void launch_spmv(const SpmvArgs<T>& args, cudaStream_t stream);
// out = 1/diag of a CSR matrix (Backend::inverse_diagonal).
template <class T> void launch_inverse_diagonal(const DeviceMatrix<T>& m, T* out, cudaStream_t stream);
template <class T>
void launch_gather(const T* values, const std::int64_t* positions, long long count, T* out,
                   cudaStream_t stream);
// What invert_blocks keeps between calls (cuda_block_inverse.cu): cuBLAS's handle on the
// backend's stream, and the buffers of the last layout of blocks, which the sweep repeats
// every frequency.
template <class T> struct BlockInverse {
  std::shared_ptr<void> handle;  // cublasHandle_t
  std::vector<index_t> sizes;
  int padded = 0;                // the largest block: every block is inverted at this size
  Block<long long> first;        // where each block starts in the packed entries
  Block<index_t> block_sizes;
  Block<T> a, c;                 // the padded blocks, column-major, and their inverses
  Block<int> pivots, info;
  std::shared_ptr<void> pointers;  // a's matrices, then c's: cuBLAS's arrays of pointers
};
template <class T>
long long launch_invert_blocks(Backend<T>& be, BlockInverse<T>& w, T* blocks,
                               std::span<const index_t> sizes, cudaStream_t stream);
// Backend<T>::make_dense_inverse (cuda_dense_inverse.cu).
template <class T>
std::shared_ptr<const Operator<T>> launch_dense_inverse(Backend<T>& be, Block<T> a,
                                                        cudaStream_t stream);
// Backend<T>::solve_dense (cuda_dense_inverse.cu).
template <class T>
void launch_dense_solve(Backend<T>& be, Block<T> a, Block<T>& b, cudaStream_t stream);
// Backend<T>::fold_dense (cuda_dense_inverse.cu): a n x n, out k x k.
template <class T>
void launch_fold_dense(const T* a, index_t n, const index_t* kept, const index_t* partner,
                       const real_t<T>* weight, index_t k, T* out, cudaStream_t stream);
// Backend<T>::combine_rows (cuda_dense_inverse.cu): out rows x columns.
template <class T>
void launch_combine_rows(const T* x, index_t x_rows, const index_t* i1, const real_t<T>* c1,
                         const index_t* i2, const real_t<T>* c2, T* out, index_t rows,
                         index_t columns, T alpha, T beta, cudaStream_t stream);
template <class T> void launch_spmv_transposed(const SpmvArgs<T>& args, cudaStream_t stream);
// The same for ELLPACK-R, SELL-P and DIA; the transposed one adds into a y already scaled by beta.
template <class T> void launch_format_spmv(const SpmvArgs<T>& args, cudaStream_t stream);
template <class T> void launch_format_spmv_transposed(const SpmvArgs<T>& args, cudaStream_t stream);

template <class T>
void launch_dot(const Block<T>& x, const Block<T>& y, Block<T>& out, bool conjugated,
                Summation summation, const ReduceScratch& s, cudaStream_t stream);
template <class T>
void launch_norm2(const Block<T>& x, Block<real_t<T>>& out, Summation summation,
                  const ReduceScratch& s, cudaStream_t stream);
template <class T> void launch_bicg_reduce(BicgVectors<T>& v, const ReduceScratch& s, cudaStream_t stream);
template <class T> void launch_bicg_directions(BicgVectors<T>& v, const ReduceScratch& s, cudaStream_t stream);
template <class T> void launch_bicg_update(BicgVectors<T>& v, const ReduceScratch& s, cudaStream_t stream);
template <class T> void launch_bicgstab_directions(BicgstabVectors<T>& v, const ReduceScratch& s, cudaStream_t stream);
template <class T> void launch_bicgstab_half_step(BicgstabVectors<T>& v, const ReduceScratch& s, cudaStream_t stream);
template <class T> void launch_bicgstab_omega_dots(BicgstabVectors<T>& v, const ReduceScratch& s, cudaStream_t stream);
template <class T> void launch_bicgstab_update(BicgstabVectors<T>& v, const ReduceScratch& s, cudaStream_t stream);

}  // namespace pmom::cuda
