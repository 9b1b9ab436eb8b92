// Relaxation kernels on the device: a multicolour SOR sweep as one launch per colour (the rows
// of a colour do not couple, so they update in parallel, a group of lanes per row as in the
// CSR SpMV), and the Jacobi update x += d ∘ r. Columns not running are left alone.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <algorithm>

#include "cuda_error.hpp"
#include "cuda_relaxation.hpp"
#include "lanes.cuh"

namespace pmom::cuda {
namespace {

namespace cg = cooperative_groups;

constexpr int relax_block = 256;

template <class Tile, class R> __device__ R tile_sum(const Tile& tile, R v) {
  return cg::reduce(tile, v, cg::plus<R>());
}
template <class Tile, class R> __device__ cplx<R> tile_sum(const Tile& tile, cplx<R> v) {
  return {tile_sum(tile, v.x), tile_sum(tile, v.y)};
}

// Rows [first, last) of one colour, TPR lanes per row, column blockIdx.y:
// x_i += ω d_i (b_i − Σ_j a_ij x_j). FromZero: x_i taken as zero and only j < i summed (the
// earlier colours, swept already). x is read with plain loads: this launch writes it.
template <class D, int TPR, bool FromZero>
__global__ void __launch_bounds__(relax_block)
sor_sweep_kernel(index_t first, index_t last, index_t n, const index_t* __restrict__ row_ptr,
                 const index_t* __restrict__ col, const D* __restrict__ val,
                 const D* __restrict__ inv_diag, D omega, const D* __restrict__ b, D* x,
                 const int* __restrict__ status) {
  const index_t k = blockIdx.y;
  if (status[k] != rhs_running) return;  // the whole block: blockIdx.y is shared
  const auto tile = cg::tiled_partition<TPR>(cg::this_thread_block());
  const long long thread = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const index_t row = first + static_cast<index_t>(thread / TPR);
  const bool valid = row < last;
  const std::size_t off = static_cast<std::size_t>(k) * n;
  D sum = zero<D>();
  if (valid) {
    const index_t end = load_ro(row_ptr + row + 1);
    for (index_t e = load_ro(row_ptr + row) + static_cast<index_t>(tile.thread_rank()); e < end;
         e += TPR) {
      const index_t j = load_ro(col + e);
      if (FromZero && j >= row) break;  // columns are sorted
      sum = sum + load_ro(val + e) * x[off + j];
    }
  }
  sum = tile_sum(tile, sum);  // every lane takes part, rows past the end with zero
  if (!valid || tile.thread_rank() != 0) return;
  const D update = (omega * load_ro(inv_diag + row)) * (load_ro(b + off + row) - sum);
  x[off + row] = FromZero ? update : x[off + row] + update;
}

template <class D>
__global__ void __launch_bounds__(relax_block)
diagonal_update_kernel(index_t n, const D* __restrict__ d, const D* __restrict__ r, D* x,
                       const int* __restrict__ status) {
  const index_t k = blockIdx.y;
  if (status[k] != rhs_running) return;
  const std::size_t off = static_cast<std::size_t>(k) * n;
  for (index_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += static_cast<index_t>(gridDim.x * blockDim.x))
    x[off + i] = x[off + i] + load_ro(d + i) * load_ro(r + off + i);
}

template <class U>
void require(const Block<U>& b, const char* kernel, const char* what, index_t rows, index_t cols) {
  if (b.rows() != rows || b.cols() != cols)
    throw std::invalid_argument(std::string("CUDA ") + kernel + ": block " + what + " is " +
                                std::to_string(b.rows()) + " x " + std::to_string(b.cols()) +
                                ", expected " + std::to_string(rows) + " x " +
                                std::to_string(cols));
}

unsigned blocks_for(long long threads) {
  return static_cast<unsigned>(std::max(1LL, (threads + relax_block - 1) / relax_block));
}

}  // namespace

template <class T>
void launch_sor_sweep(const CudaSweeper<T>& s, SweepDirection direction, bool from_zero, T omega,
                      const Block<T>& b, Block<T>& x, const Block<int>& status,
                      cudaStream_t stream) {
  const char* kernel = "sor_sweep";
  const index_t n = s.a.rows, k = status.cols();
  require(status, kernel, "status", 1, k);
  require(b, kernel, "b", n, k);
  require(x, kernel, "x", n, k);
  if (from_zero && direction == SweepDirection::backward)
    throw std::invalid_argument("CUDA sor_sweep: a sweep from zero must go forward");
  if (k == 0) return;
  const auto colours = static_cast<index_t>(s.colour_ptr.size()) - 1;
  const bool forward = direction == SweepDirection::forward;
  for (index_t step = 0; step < colours; ++step) {
    const index_t colour = forward ? step : colours - 1 - step;
    const index_t first = s.colour_ptr[colour], last = s.colour_ptr[colour + 1];
    if (first == last) continue;
    // A sweep row is summed by lanes of one warp: the SpMV's four-warp groups for very long
    // rows (threads_per_row 128) become one warp here, with_tpr's default.
    with_tpr(s.a.threads_per_row, [&](auto tpr) {
      constexpr int TPR = decltype(tpr)::value;
      const dim3 grid(blocks_for(static_cast<long long>(last - first) * TPR),
                      static_cast<unsigned>(k));
      const auto launch = [&](auto from_zero_c) {
        sor_sweep_kernel<device_t<T>, TPR, decltype(from_zero_c)::value>
            <<<grid, relax_block, 0, stream>>>(first, last, n, s.a.row_ptr.data(), s.a.col.data(),
                                              dev(s.a.val.data()), dev(s.inv_diag.data()),
                                              to_device(omega), dev(b.data()), dev(x.data()),
                                              status.data());
      };
      if (from_zero) launch(std::true_type{});
      else launch(std::false_type{});
    });
    PMOM_CUDA_LAUNCHED("sor_sweep_kernel");
  }
}

template <class T>
void launch_diagonal_update(const Block<T>& d, const Block<T>& r, Block<T>& x,
                            const Block<int>& status, cudaStream_t stream) {
  const char* kernel = "diagonal_update";
  const index_t n = x.rows(), k = status.cols();
  require(status, kernel, "status", 1, k);
  require(x, kernel, "x", n, k);
  require(r, kernel, "r", n, k);
  require(d, kernel, "d", n, 1);
  if (k == 0 || n == 0) return;
  // A grid-stride loop: a few waves of blocks cover any n.
  const dim3 grid(std::min(blocks_for(n), 4096u), static_cast<unsigned>(k));
  diagonal_update_kernel<<<grid, relax_block, 0, stream>>>(n, dev(d.data()), dev(r.data()),
                                                           dev(x.data()), status.data());
  PMOM_CUDA_LAUNCHED("diagonal_update_kernel");
}

#define PMOM_INSTANTIATE(T)                                                                     \
  template void launch_sor_sweep(const CudaSweeper<T>&, SweepDirection, bool, T,                \
                                 const Block<T>&, Block<T>&, const Block<int>&, cudaStream_t);  \
  template void launch_diagonal_update(const Block<T>&, const Block<T>&, Block<T>&,            \
                                       const Block<int>&, cudaStream_t);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

}  // namespace pmom::cuda
