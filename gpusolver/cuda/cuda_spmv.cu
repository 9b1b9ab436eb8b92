// Sparse products on the device: CSR with a group of 2-32 lanes per row (the group size from
// the mean row length), HYB as a one-thread-per-row ELL pass plus a COO pass, and Aᴴ either
// from a stored conjugate transpose or by scattering A's rows with atomics. Multi-RHS blocks
// are done up to four columns per pass, so each matrix entry is read once for four vectors.
// ELLPACK-R, SELL-P and DIA have their kernels in cuda_spmv_formats.cu.
#include <algorithm>

#include "cuda_backend.hpp"
#include "cuda_error.hpp"
#include "spmv_common.cuh"

namespace pmom::cuda {
namespace {

// Contiguous lane groups of TPR lanes inside a warp: shuffle-reduce within the group.
template <int TPR, class R> __device__ R group_sum(R v) {
#pragma unroll
  for (int off = TPR / 2; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off, TPR);
  return v;
}
template <int TPR, class R> __device__ cplx<R> group_sum(cplx<R> v) {
  return {group_sum<TPR>(v.x), group_sum<TPR>(v.y)};
}

// acc[c] = Σ a_ij x_c[j] over the entries first, first + STRIDE, ... before end, for KC
// columns of x. Four entries per round: their index, value and x loads are all in flight
// together, instead of one index-then-gather latency chain per entry.
template <int KC, int STRIDE, class D>
__device__ void row_products(index_t first, index_t end, const index_t* __restrict__ col,
                             const D* __restrict__ val, const D* __restrict__ x,
                             index_t x_stride, D (&acc)[KC]) {
#pragma unroll
  for (int c = 0; c < KC; ++c) acc[c] = zero<D>();
  constexpr int U = 4;
  for (index_t j0 = first; j0 < end; j0 += U * STRIDE) {
    index_t cj[U];
    D a[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const index_t j = j0 + u * STRIDE;
      cj[u] = j < end ? load_ro(col + j) : 0;
      a[u] = j < end ? load_ro(val + j) : zero<D>();
    }
#pragma unroll
    for (int u = 0; u < U; ++u)
#pragma unroll
      for (int c = 0; c < KC; ++c)
        acc[c] = acc[c] + a[u] * load_ro(x + static_cast<std::size_t>(c) * x_stride + cj[u]);
  }
}

// One group of TPR lanes per row; rows past the end still take part in the shuffles. Rows
// longer than long_row are left to csr_long_rows_kernel (DeviceMatrix::long_rows).
template <class D, int TPR, int KC>
__global__ void __launch_bounds__(spmv_block)
csr_kernel(index_t rows, const index_t* __restrict__ row_ptr, const index_t* __restrict__ col,
           const D* __restrict__ val, const D* __restrict__ x, index_t x_stride, D* y,
           index_t y_stride, D alpha, D beta, bool beta_zero, index_t long_row) {
  const long long thread = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const index_t row = static_cast<index_t>(thread / TPR);
  const int lane = static_cast<int>(thread % TPR);
  index_t begin = row < rows ? load_ro(row_ptr + row) : 0;
  index_t end = row < rows ? load_ro(row_ptr + row + 1) : 0;
  const bool valid = row < rows && end - begin <= long_row;
  if (!valid) begin = end;
  D acc[KC];
  row_products<KC, TPR>(begin + lane, end, col, val, x, x_stride, acc);
#pragma unroll
  for (int c = 0; c < KC; ++c) acc[c] = group_sum<TPR>(acc[c]);
  if (valid && lane == 0)
#pragma unroll
    for (int c = 0; c < KC; ++c) {
      D* yc = y + static_cast<std::size_t>(c) * y_stride + row;
      *yc = combine(acc[c], alpha, beta, beta_zero, yc);
    }
}

// ELL: a block is 32 consecutive rows times G slot groups. Thread (row r, group g) takes the
// slots g, g + G, ...: a warp reads one slot of 32 consecutive rows (coalesced in the
// column-major layout), and G warps share a row's slots, so wide ELL parts (long MoM rows)
// still give the GPU enough threads. Partial sums meet in shared memory.
constexpr int ell_rows = 32;

// Rows of hundreds of entries (dense MoM rows): WARPS warps per row, partial sums meeting in
// shared memory. A warp per row would leave too few warps in flight when the rows are long
// but few (N = 10 000 rows fill the GPU barely more than once), and the last wave idles.
// With row_list, only the listed rows (count of them): the few long rows of an otherwise
// short-rowed matrix, which csr_kernel leaves out.
template <class D, int KC, int WARPS>
__global__ void __launch_bounds__(spmv_block)
csr_long_rows_kernel(index_t count, const index_t* __restrict__ row_list,
                     const index_t* __restrict__ row_ptr,
                     const index_t* __restrict__ col, const D* __restrict__ val,
                     const D* __restrict__ x, index_t x_stride, D* y, index_t y_stride,
                     D alpha, D beta, bool beta_zero) {
  constexpr int rows_per_block = spmv_block / (32 * WARPS);
  __shared__ D partial[rows_per_block][WARPS][KC];
  const int lane = threadIdx.x & 31, warp = (threadIdx.x >> 5) % WARPS;
  const int local = threadIdx.x / (32 * WARPS);
  const index_t item = static_cast<index_t>(blockIdx.x) * rows_per_block + local;
  const bool valid = item < count;
  const index_t row = valid && row_list ? load_ro(row_list + item) : item;
  const index_t begin = valid ? load_ro(row_ptr + row) : 0;
  const index_t end = valid ? load_ro(row_ptr + row + 1) : 0;
  D acc[KC];
  row_products<KC, 32 * WARPS>(begin + warp * 32 + lane, end, col, val, x, x_stride, acc);
#pragma unroll
  for (int c = 0; c < KC; ++c) {
    acc[c] = group_sum<32>(acc[c]);
    if (lane == 0) partial[local][warp][c] = acc[c];
  }
  __syncthreads();
  if (!valid || warp != 0 || lane != 0) return;
#pragma unroll
  for (int c = 0; c < KC; ++c) {
    D sum = zero<D>();
#pragma unroll
    for (int w = 0; w < WARPS; ++w) sum = sum + partial[local][w][c];
    D* yc = y + static_cast<std::size_t>(c) * y_stride + row;
    *yc = combine(sum, alpha, beta, beta_zero, yc);
  }
}

template <class D, int KC>
__global__ void __launch_bounds__(spmv_block)
ell_kernel(index_t rows, index_t width, int groups, const index_t* __restrict__ ell_col,
           const D* __restrict__ ell_val, const D* __restrict__ x, index_t x_stride, D* y,
           index_t y_stride, D alpha, D beta, bool beta_zero) {
  __shared__ D partial[spmv_block / ell_rows][ell_rows][KC];
  const int r = threadIdx.x % ell_rows, g = threadIdx.x / ell_rows;
  const index_t row = static_cast<index_t>(blockIdx.x) * ell_rows + r;
  D acc[KC];
#pragma unroll
  for (int c = 0; c < KC; ++c) acc[c] = zero<D>();
  if (row < rows && g < groups)
    for (index_t w = g; w < width; w += groups) {
      const std::size_t slot = static_cast<std::size_t>(w) * rows + row;
      const index_t cj = load_ro(ell_col + slot);
      if (cj < 0) break;  // a row fills its slots from the first, padding only follows
      const D a = load_ro(ell_val + slot);
#pragma unroll
      for (int c = 0; c < KC; ++c)
        acc[c] = acc[c] + a * load_ro(x + static_cast<std::size_t>(c) * x_stride + cj);
    }
#pragma unroll
  for (int c = 0; c < KC; ++c) partial[g][r][c] = acc[c];
  __syncthreads();
  if (g != 0 || row >= rows) return;
#pragma unroll
  for (int c = 0; c < KC; ++c) {
    D sum = zero<D>();
    for (int h = 0; h < groups; ++h) sum = sum + partial[h][r][c];
    D* yc = y + static_cast<std::size_t>(c) * y_stride + row;
    *yc = combine(sum, alpha, beta, beta_zero, yc);
  }
}

// y[row] += alpha a x[col] for COO entries, or, transposed, y[col] += alpha conj(a) x[row].
template <class D, bool ConjTrans>
__global__ void __launch_bounds__(spmv_block)
coo_kernel(std::size_t nnz, const index_t* __restrict__ row_idx, const index_t* __restrict__ col_idx,
           const D* __restrict__ val, const D* __restrict__ x, index_t x_stride, D* y,
           index_t y_stride, index_t k, D alpha) {
  const std::size_t e = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= nnz) return;
  const index_t from = ConjTrans ? load_ro(row_idx + e) : load_ro(col_idx + e);
  const index_t to = ConjTrans ? load_ro(col_idx + e) : load_ro(row_idx + e);
  const D a = alpha * (ConjTrans ? conj(load_ro(val + e)) : load_ro(val + e));
  for (index_t c = 0; c < k; ++c)
    atomic_add(y + static_cast<std::size_t>(c) * y_stride + to,
               a * load_ro(x + static_cast<std::size_t>(c) * x_stride + from));
}

// Aᴴx by scattering each row of A: y[j] += alpha conj(a_ij) x_i, TPR lanes per row.
template <class D, int TPR>
__global__ void __launch_bounds__(spmv_block)
csr_conj_trans_kernel(index_t rows, const index_t* __restrict__ row_ptr,
                      const index_t* __restrict__ col, const D* __restrict__ val,
                      const D* __restrict__ x, index_t x_stride, D* y, index_t y_stride,
                      index_t k, D alpha) {
  const long long thread = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const index_t row = static_cast<index_t>(thread / TPR);
  if (row >= rows) return;
  const int lane = static_cast<int>(thread % TPR);
  for (index_t j = load_ro(row_ptr + row) + lane; j < load_ro(row_ptr + row + 1); j += TPR) {
    const D a = alpha * conj(load_ro(val + j));
    const index_t cj = load_ro(col + j);
    for (index_t c = 0; c < k; ++c)
      atomic_add(y + static_cast<std::size_t>(c) * y_stride + cj,
                 a * load_ro(x + static_cast<std::size_t>(c) * x_stride + row));
  }
}

template <class D>
__global__ void __launch_bounds__(spmv_block)
ell_conj_trans_kernel(index_t rows, index_t width, const index_t* __restrict__ ell_col,
                      const D* __restrict__ ell_val, const D* __restrict__ x, index_t x_stride,
                      D* y, index_t y_stride, index_t k, D alpha) {
  const index_t row = static_cast<index_t>(blockIdx.x * blockDim.x + threadIdx.x);
  if (row >= rows) return;
  for (index_t w = 0; w < width; ++w) {
    const std::size_t slot = static_cast<std::size_t>(w) * rows + row;
    const index_t cj = load_ro(ell_col + slot);
    if (cj < 0) break;
    const D a = alpha * conj(load_ro(ell_val + slot));
    for (index_t c = 0; c < k; ++c)
      atomic_add(y + static_cast<std::size_t>(c) * y_stride + cj,
                 a * load_ro(x + static_cast<std::size_t>(c) * x_stride + row));
  }
}

template <class D>
__global__ void __launch_bounds__(spmv_block)
scale_kernel(std::size_t size, D* y, D beta) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < size) y[i] = beta * y[i];
}

template <class T> using D = device_t<T>;

}  // namespace

// out_i = 1/a_ii (1 where a_ii is 0 or not stored); one thread per row, sorted or not.
template <class D>
__global__ void csr_inverse_diagonal_kernel(index_t rows, const index_t* __restrict__ row_ptr,
                                            const index_t* __restrict__ col,
                                            const D* __restrict__ val, D* __restrict__ out) {
  const index_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  D d = zero<D>();
  for (index_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k)
    if (col[k] == i) d = val[k];
  out[i] = d == zero<D>() ? from_real<D>(1) : from_real<D>(1) / d;
}

template <class T> void launch_spmv(const SpmvArgs<T>& args, cudaStream_t stream) {
  const DeviceMatrix<T>& m = *args.m;
  if (m.format != Format::csr && m.format != Format::hyb) return launch_format_spmv(args, stream);
  const D<T> alpha = to_device(args.alpha), beta = to_device(args.beta);
  const bool beta_zero = args.beta == T(0);
  const D<T>* x = dev(args.x);
  D<T>* y = dev(args.y);
  with_column_tiles(args.k, [&](auto kc_const, index_t c0) {
    constexpr int KC = decltype(kc_const)::value;
    const D<T>* xc = x + static_cast<std::size_t>(c0) * m.cols;
    D<T>* yc = y + static_cast<std::size_t>(c0) * m.rows;
    constexpr int W = 4;
    // All rows (threads_per_row > 32), or the listed long ones.
    const auto long_rows = [&](index_t count, const index_t* list) {
      csr_long_rows_kernel<D<T>, KC, W>
          <<<blocks_for(static_cast<long long>(count) * 32 * W), spmv_block, 0, stream>>>(
              count, list, m.row_ptr.data(), m.col.data(), dev(m.val.data()), xc, m.cols, yc,
              m.rows, alpha, beta, beta_zero);
      PMOM_CUDA_LAUNCHED("csr_long_rows_kernel");
    };
    if (m.format == Format::csr && m.threads_per_row > 32) {
      long_rows(m.rows, nullptr);
    } else if (m.format == Format::csr) {
      with_tpr(m.threads_per_row, [&](auto tpr_const) {
        constexpr int TPR = decltype(tpr_const)::value;
        csr_kernel<D<T>, TPR, KC><<<blocks_for(static_cast<long long>(m.rows) * TPR), spmv_block, 0, stream>>>(
            m.rows, m.row_ptr.data(), m.col.data(), dev(m.val.data()), xc, m.cols, yc, m.rows,
            alpha, beta, beta_zero, m.long_row);
      });
      PMOM_CUDA_LAUNCHED("csr_kernel");
      if (m.long_rows.size() > 0) long_rows(m.long_rows.rows(), m.long_rows.data());
    } else {
      // Slot groups: enough that each thread walks about 16 slots, at most a block's worth.
      const int groups =
          std::clamp<int>(static_cast<int>(m.ell_width / 16), 1, spmv_block / ell_rows);
      const auto blocks = static_cast<unsigned>((m.rows + ell_rows - 1) / ell_rows);
      ell_kernel<D<T>, KC><<<std::max(1u, blocks), spmv_block, 0, stream>>>(
          m.rows, m.ell_width, groups, m.ell_col.data(), dev(m.ell_val.data()), xc, m.cols,
          yc, m.rows, alpha, beta, beta_zero);
      PMOM_CUDA_LAUNCHED("ell_kernel");
    }
  });
  if (m.format == Format::hyb && m.coo_nnz > 0) {
    coo_kernel<D<T>, false><<<blocks_for(static_cast<long long>(m.coo_nnz)), spmv_block, 0, stream>>>(
        m.coo_nnz, m.coo_row.data(), m.coo_col.data(), dev(m.coo_val.data()), x, m.cols, y,
        m.rows, args.k, alpha);
    PMOM_CUDA_LAUNCHED("coo_kernel");
  }
}

template <class T> void launch_spmv_transposed(const SpmvArgs<T>& args, cudaStream_t stream) {
  const DeviceMatrix<T>& m = *args.m;
  const std::size_t out = static_cast<std::size_t>(m.cols) * args.k;
  if (args.beta == T(0)) {
    PMOM_CUDA(cudaMemsetAsync(args.y, 0, out * sizeof(T), stream));
  } else if (args.beta != T(1)) {
    scale_kernel<<<blocks_for(static_cast<long long>(out)), spmv_block, 0, stream>>>(
        out, dev(args.y), to_device(args.beta));
    PMOM_CUDA_LAUNCHED("scale_kernel");
  }
  if (m.format != Format::csr && m.format != Format::hyb)
    return launch_format_spmv_transposed(args, stream);
  const D<T> alpha = to_device(args.alpha);
  const D<T>* x = dev(args.x);
  D<T>* y = dev(args.y);
  if (m.format == Format::csr) {
    with_tpr(m.threads_per_row, [&](auto tpr_const) {
      constexpr int TPR = decltype(tpr_const)::value;
      csr_conj_trans_kernel<D<T>, TPR><<<blocks_for(static_cast<long long>(m.rows) * TPR), spmv_block, 0, stream>>>(
          m.rows, m.row_ptr.data(), m.col.data(), dev(m.val.data()), x, m.rows, y, m.cols,
          args.k, alpha);
    });
    PMOM_CUDA_LAUNCHED("csr_conj_trans_kernel");
    return;
  }
  ell_conj_trans_kernel<<<blocks_for(m.rows), spmv_block, 0, stream>>>(
      m.rows, m.ell_width, m.ell_col.data(), dev(m.ell_val.data()), x, m.rows, y, m.cols, args.k,
      alpha);
  PMOM_CUDA_LAUNCHED("ell_conj_trans_kernel");
  if (m.coo_nnz > 0) {
    coo_kernel<D<T>, true><<<blocks_for(static_cast<long long>(m.coo_nnz)), spmv_block, 0, stream>>>(
        m.coo_nnz, m.coo_row.data(), m.coo_col.data(), dev(m.coo_val.data()), x, m.rows, y,
        m.cols, args.k, alpha);
    PMOM_CUDA_LAUNCHED("coo_kernel");
  }
}

template <class T>
void launch_inverse_diagonal(const DeviceMatrix<T>& m, T* out, cudaStream_t stream) {
  using D = device_t<T>;
  if (m.rows == 0) return;
  constexpr int block = 256;
  csr_inverse_diagonal_kernel<D><<<(m.rows + block - 1) / block, block, 0, stream>>>(
      m.rows, m.row_ptr.data(), m.col.data(), reinterpret_cast<const D*>(m.val.data()),
      reinterpret_cast<D*>(out));
  PMOM_CUDA(cudaGetLastError());
}

template <class D>
__global__ void gather_kernel(const D* values, const std::int64_t* positions, long long count,
                              D* out) {
  const long long k = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < count) out[k] = positions[k] < 0 ? D(0) : values[positions[k]];
}

template <class T>
void launch_gather(const T* values, const std::int64_t* positions, long long count, T* out,
                   cudaStream_t stream) {
  using D = device_t<T>;
  if (count == 0) return;
  constexpr int block = 256;
  gather_kernel<D><<<static_cast<unsigned>((count + block - 1) / block), block, 0, stream>>>(
      reinterpret_cast<const D*>(values), positions, count, reinterpret_cast<D*>(out));
  PMOM_CUDA(cudaGetLastError());
}

#define PMOM_INSTANTIATE(T) template void launch_spmv(const SpmvArgs<T>&, cudaStream_t); \
 template void launch_gather(const T*, const std::int64_t*, long long, T*, cudaStream_t); \
 template void launch_spmv_transposed(const SpmvArgs<T>&, cudaStream_t); \
 template void launch_inverse_diagonal(const DeviceMatrix<T>&, T*, cudaStream_t);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

}  // namespace pmom::cuda
