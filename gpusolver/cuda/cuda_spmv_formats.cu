// Sparse products on the device for ELLPACK-R (a thread per row, up to its row length),
// SELL-P (t threads per row of a slice, their partial sums meeting in shared memory) and DIA
// (a thread per row, one pass per diagonal), with their uploads. Aᴴ: ELLPACK-R and SELL-P
// scatter A's rows with atomics, DIA gathers along the diagonals (no atomics). Multi-RHS
// blocks go up to four columns per pass, so each matrix entry is read once for four vectors.
#include <stdexcept>

#include "cuda_backend.hpp"
#include "cuda_error.hpp"
#include "planarmom/gpusolver/dia.hpp"
#include "planarmom/gpusolver/ellr.hpp"
#include "planarmom/gpusolver/sellp.hpp"
#include "spmv_common.cuh"

namespace pmom::cuda {
namespace {

// acc[c] += a x_c[j] over the `count` slots first, first + stride, ...; a padding slot
// (negative column) adds nothing. Four slots per round, so their index, value and x loads
// are in flight together rather than one index-then-gather latency chain per slot.
template <int KC, class D>
__device__ void add_slots(std::size_t first, index_t count, std::size_t stride,
                          const index_t* __restrict__ col, const D* __restrict__ val,
                          const D* __restrict__ x, index_t x_stride, D (&acc)[KC]) {
  constexpr int U = 4;
  for (index_t k0 = 0; k0 < count; k0 += U) {
    index_t cj[U];
    D a[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const std::size_t at = first + static_cast<std::size_t>(k0 + u) * stride;
      const bool in = k0 + u < count;
      cj[u] = in ? load_ro(col + at) : -1;
      a[u] = in ? load_ro(val + at) : zero<D>();
    }
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (cj[u] >= 0)
#pragma unroll
        for (int c = 0; c < KC; ++c)
          acc[c] = acc[c] + a[u] * load_ro(x + static_cast<std::size_t>(c) * x_stride + cj[u]);
  }
}

template <int KC, class D>
__device__ void store_row(const D (&acc)[KC], D* y, index_t y_stride, index_t row, D alpha,
                          D beta, bool beta_zero) {
#pragma unroll
  for (int c = 0; c < KC; ++c) {
    D* yc = y + static_cast<std::size_t>(c) * y_stride + row;
    *yc = combine(acc[c], alpha, beta, beta_zero, yc);
  }
}

template <class D, int KC>
__global__ void __launch_bounds__(spmv_block)
ellr_kernel(index_t rows, const index_t* __restrict__ row_length,
            const index_t* __restrict__ col, const D* __restrict__ val, const D* __restrict__ x,
            index_t x_stride, D* y, index_t y_stride, D alpha, D beta, bool beta_zero) {
  const long long row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  D acc[KC];
#pragma unroll
  for (int c = 0; c < KC; ++c) acc[c] = zero<D>();
  // Slot k of the row at k * rows + row: a warp reads 32 consecutive values per slot.
  add_slots<KC>(static_cast<std::size_t>(row), load_ro(row_length + row),
                static_cast<std::size_t>(rows), col, val, x, x_stride, acc);
  store_row(acc, y, y_stride, static_cast<index_t>(row), alpha, beta, beta_zero);
}

// Aᴴx by scattering row i of A: y[j] += alpha conj(a_ij) x_i, all k columns per entry read.
template <class D>
__global__ void __launch_bounds__(spmv_block)
ellr_conj_trans_kernel(index_t rows, const index_t* __restrict__ row_length,
                       const index_t* __restrict__ col, const D* __restrict__ val,
                       const D* __restrict__ x, index_t x_stride, D* y, index_t y_stride,
                       index_t k, D alpha) {
  const long long row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const index_t length = load_ro(row_length + row);
  for (index_t w = 0; w < length; ++w) {
    const std::size_t at = static_cast<std::size_t>(w) * rows + row;
    const D a = alpha * conj(load_ro(val + at));
    const index_t cj = load_ro(col + at);
    for (index_t c = 0; c < k; ++c)
      atomic_add(y + static_cast<std::size_t>(c) * y_stride + cj,
                 a * load_ro(x + static_cast<std::size_t>(c) * x_stride + row));
  }
}

// SELL-P thread geometry: a block holds whole slices of b rows x t lanes, the row index the
// fastest, so a warp reads one slot column of (up to) 32 consecutive rows, coalesced.
struct SliceThread {
  index_t slice;  // may be past the last slice in the last block
  index_t r;      // local row
  index_t lane;   // 0 .. t - 1
  __device__ SliceThread(index_t b, index_t t) {
    const index_t per_slice = b * t;
    const index_t local = static_cast<index_t>(threadIdx.x) % per_slice;
    slice = static_cast<index_t>(blockIdx.x) * static_cast<index_t>(blockDim.x / per_slice) +
            static_cast<index_t>(threadIdx.x) / per_slice;
    r = local % b;
    lane = local / b;
  }
};

// Lane l of a row takes the slots l, l + t, ...: slot k of local row r at begin + k * b + r.
// The slice width is a multiple of t, so every lane walks width / t slots.
template <class D, int KC>
__global__ void __launch_bounds__(1024)
sellp_kernel(index_t rows, index_t slices, index_t b, index_t t,
             const index_t* __restrict__ slice_ptr, const index_t* __restrict__ row_of,
             const index_t* __restrict__ col, const D* __restrict__ val, const D* __restrict__ x,
             index_t x_stride, D* y, index_t y_stride, D alpha, D beta, bool beta_zero) {
  extern __shared__ __align__(16) unsigned char sellp_shared[];
  D* partial = reinterpret_cast<D*>(sellp_shared);  // one value per thread
  const SliceThread th(b, t);
  const bool valid = th.slice < slices;
  D acc[KC];
#pragma unroll
  for (int c = 0; c < KC; ++c) acc[c] = zero<D>();
  if (valid) {
    const index_t begin = load_ro(slice_ptr + th.slice);
    const index_t width = (load_ro(slice_ptr + th.slice + 1) - begin) / b;
    add_slots<KC>(static_cast<std::size_t>(begin) + static_cast<std::size_t>(th.lane) * b + th.r,
                  width / t, static_cast<std::size_t>(t) * b, col, val, x, x_stride, acc);
  }
  const long long p = static_cast<long long>(th.slice) * b + th.r;  // stored row
  const bool writes = valid && th.lane == 0 && p < rows;
  const index_t row = writes ? load_ro(row_of + p) : 0;
#pragma unroll
  for (int c = 0; c < KC; ++c) {
    partial[threadIdx.x] = acc[c];
    __syncthreads();
    if (writes) {
      // Lane 0 adds the row's lanes in order (they sit b threads apart): deterministic sums.
      D sum = partial[threadIdx.x];
      for (index_t l = 1; l < t; ++l) sum = sum + partial[threadIdx.x + l * b];
      D* yc = y + static_cast<std::size_t>(c) * y_stride + row;
      *yc = combine(sum, alpha, beta, beta_zero, yc);
    }
    __syncthreads();
  }
}

template <class D>
__global__ void __launch_bounds__(1024)
sellp_conj_trans_kernel(index_t rows, index_t slices, index_t b, index_t t,
                        const index_t* __restrict__ slice_ptr, const index_t* __restrict__ row_of,
                        const index_t* __restrict__ col, const D* __restrict__ val,
                        const D* __restrict__ x, index_t x_stride, D* y, index_t y_stride,
                        index_t k, D alpha) {
  const SliceThread th(b, t);
  if (th.slice >= slices) return;
  const long long p = static_cast<long long>(th.slice) * b + th.r;
  if (p >= rows) return;
  const index_t row = load_ro(row_of + p);
  const index_t end = load_ro(slice_ptr + th.slice + 1);
  for (long long at = load_ro(slice_ptr + th.slice) + th.lane * b + th.r; at < end; at += t * b) {
    const index_t cj = load_ro(col + at);
    if (cj < 0) break;  // a row fills its slots from the first, padding only follows
    const D a = alpha * conj(load_ro(val + at));
    // One column at a time: unrolled, the complex-float instance needed more than the 32
    // registers a thread has when two 1024-thread blocks share an SM, and ptxas spilled.
#pragma unroll 1
    for (index_t c = 0; c < k; ++c)
      atomic_add(y + static_cast<std::size_t>(c) * y_stride + cj,
                 a * load_ro(x + static_cast<std::size_t>(c) * x_stride + row));
  }
}

// v mod cols for v in (-cols, 2 cols), which is all periodic offsets (|offset| <= cols / 2)
// produce from an index below cols; a 64-bit division would be a slow subroutine call.
__device__ inline long long wrap(long long v, index_t cols) {
  return v < 0 ? v + cols : v >= cols ? v - cols : v;
}

// The device form of Dia::column: the column of row i on a diagonal, -1 outside the matrix.
__device__ inline long long dia_column(index_t i, index_t offset, index_t cols, bool periodic) {
  if (periodic) return wrap(static_cast<long long>(i % cols) + offset, cols);
  const long long j = static_cast<long long>(i) + offset;
  return j >= 0 && j < cols ? j : -1;
}

// Diagonal d of row i at values[d * rows + i]: a warp reads 32 consecutive values and x
// entries per diagonal.
template <class D, int KC>
__global__ void __launch_bounds__(spmv_block)
dia_kernel(index_t rows, index_t cols, index_t diagonals, bool periodic,
           const index_t* __restrict__ offset, const D* __restrict__ val, const D* __restrict__ x,
           index_t x_stride, D* y, index_t y_stride, D alpha, D beta, bool beta_zero) {
  const long long row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  D acc[KC];
#pragma unroll
  for (int c = 0; c < KC; ++c) acc[c] = zero<D>();
  for (index_t d = 0; d < diagonals; ++d) {
    const long long j = dia_column(static_cast<index_t>(row), load_ro(offset + d), cols, periodic);
    if (j < 0) continue;
    const D a = load_ro(val + static_cast<std::size_t>(d) * rows + row);
#pragma unroll
    for (int c = 0; c < KC; ++c)
      acc[c] = acc[c] + a * load_ro(x + static_cast<std::size_t>(c) * x_stride + j);
  }
  store_row(acc, y, y_stride, static_cast<index_t>(row), alpha, beta, beta_zero);
}

// Aᴴx gathered by output: y[j] += alpha Σ conj(a_ij) x_i over the rows i that meet column j on
// each diagonal: i = j - offset, or with periodic offsets every i ≡ j - offset (mod cols).
template <class D, int KC>
__global__ void __launch_bounds__(spmv_block)
dia_conj_trans_kernel(index_t rows, index_t cols, index_t diagonals, bool periodic,
                      const index_t* __restrict__ offset, const D* __restrict__ val,
                      const D* __restrict__ x, index_t x_stride, D* y, index_t y_stride,
                      D alpha) {
  const long long j = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= cols) return;
  D acc[KC];
#pragma unroll
  for (int c = 0; c < KC; ++c) acc[c] = zero<D>();
  for (index_t d = 0; d < diagonals; ++d) {
    long long i = j - load_ro(offset + d);
    if (periodic) i = wrap(i, cols);
    // Without wrap-around only one candidate row: the step then leaves [0, rows) at once.
    const long long step = periodic ? cols : rows;
    for (; i >= 0 && i < rows; i += step) {
      const D a = conj(load_ro(val + static_cast<std::size_t>(d) * rows + i));
#pragma unroll
      for (int c = 0; c < KC; ++c)
        acc[c] = acc[c] + a * load_ro(x + static_cast<std::size_t>(c) * x_stride + i);
    }
  }
#pragma unroll
  for (int c = 0; c < KC; ++c) {
    D* yc = y + static_cast<std::size_t>(c) * y_stride + j;
    *yc = *yc + alpha * acc[c];
  }
}

// Threads of a SELL-P block: whole slices, about spmv_block threads (b * t when that is more).
struct SliceLaunch {
  unsigned blocks;
  unsigned threads;
  std::size_t shared_bytes;
};
template <class D> SliceLaunch slice_launch(index_t slices, index_t b, index_t t) {
  const index_t per_slice = b * t;
  const index_t per_block = std::max<index_t>(1, spmv_block / per_slice);
  const auto blocks = static_cast<unsigned>(std::max<index_t>(1, (slices + per_block - 1) / per_block));
  const auto threads = static_cast<unsigned>(per_block * per_slice);
  return {blocks, threads, threads * sizeof(D)};
}

template <class T> using D = device_t<T>;

}  // namespace

template <class T>
void upload_format(Backend<T>& be, const Csr<T>& a, const OperatorOptions& options,
                   DeviceMatrix<T>& m) {
  switch (m.format) {
    case Format::ellr: {
      const Ellr<T> e = to_ellr(a);
      m.ell_width = e.width;
      m.ell_col = to_device_block(be, e.col);
      m.ell_val = to_device_block(be, e.values);
      m.row_length = to_device_block(be, e.row_length);
      return;
    }
    case Format::sellp: {
      const Sellp<T> s = to_sellp(a, options.sellp);
      m.slice_rows = s.slice_rows;
      m.threads_per_row = s.threads_per_row;
      m.slice_ptr = to_device_block(be, s.slice_ptr);
      m.row_of = to_device_block(be, s.row_of);
      m.col = to_device_block(be, s.col);
      m.val = to_device_block(be, s.values);
      return;
    }
    case Format::dia: {
      const Dia<T> d = to_dia(a, options.dia);
      m.diagonals = d.diagonals();
      m.periodic = d.periodic;
      m.offset = to_device_block(be, d.offset);
      m.val = to_device_block(be, d.values);
      return;
    }
    case Format::csr:
    case Format::hyb: break;
    case Format::function:
      throw std::invalid_argument("make_operator: a matrix-free operator is not made from a "
                                  "CSR (FunctionOperator)");
  }
  throw std::logic_error("upload_format: CSR and HYB are uploaded by the backend itself");
}

template <class T> void launch_format_spmv(const SpmvArgs<T>& args, cudaStream_t stream) {
  const DeviceMatrix<T>& m = *args.m;
  const D<T> alpha = to_device(args.alpha), beta = to_device(args.beta);
  const bool beta_zero = args.beta == T(0);
  with_column_tiles(args.k, [&](auto kc_const, index_t c0) {
    constexpr int KC = decltype(kc_const)::value;
    const D<T>* x = dev(args.x) + static_cast<std::size_t>(c0) * m.cols;
    D<T>* y = dev(args.y) + static_cast<std::size_t>(c0) * m.rows;
    if (m.format == Format::ellr) {
      ellr_kernel<D<T>, KC><<<blocks_for(m.rows), spmv_block, 0, stream>>>(
          m.rows, m.row_length.data(), m.ell_col.data(), dev(m.ell_val.data()), x, m.cols, y,
          m.rows, alpha, beta, beta_zero);
      PMOM_CUDA_LAUNCHED("ellr_kernel");
    } else if (m.format == Format::sellp) {
      const index_t slices = m.slice_ptr.rows() - 1;
      const SliceLaunch l = slice_launch<D<T>>(slices, m.slice_rows, m.threads_per_row);
      sellp_kernel<D<T>, KC><<<l.blocks, l.threads, l.shared_bytes, stream>>>(
          m.rows, slices, m.slice_rows, m.threads_per_row, m.slice_ptr.data(), m.row_of.data(),
          m.col.data(), dev(m.val.data()), x, m.cols, y, m.rows, alpha, beta, beta_zero);
      PMOM_CUDA_LAUNCHED("sellp_kernel");
    } else {
      dia_kernel<D<T>, KC><<<blocks_for(m.rows), spmv_block, 0, stream>>>(
          m.rows, m.cols, m.diagonals, m.periodic, m.offset.data(), dev(m.val.data()), x, m.cols,
          y, m.rows, alpha, beta, beta_zero);
      PMOM_CUDA_LAUNCHED("dia_kernel");
    }
  });
}

template <class T> void launch_format_spmv_transposed(const SpmvArgs<T>& args, cudaStream_t stream) {
  const DeviceMatrix<T>& m = *args.m;
  const D<T> alpha = to_device(args.alpha);
  const D<T>* x = dev(args.x);
  D<T>* y = dev(args.y);
  if (m.format == Format::ellr) {
    ellr_conj_trans_kernel<<<blocks_for(m.rows), spmv_block, 0, stream>>>(
        m.rows, m.row_length.data(), m.ell_col.data(), dev(m.ell_val.data()), x, m.rows, y,
        m.cols, args.k, alpha);
    PMOM_CUDA_LAUNCHED("ellr_conj_trans_kernel");
  } else if (m.format == Format::sellp) {
    const index_t slices = m.slice_ptr.rows() - 1;
    const SliceLaunch l = slice_launch<D<T>>(slices, m.slice_rows, m.threads_per_row);
    sellp_conj_trans_kernel<<<l.blocks, l.threads, 0, stream>>>(
        m.rows, slices, m.slice_rows, m.threads_per_row, m.slice_ptr.data(), m.row_of.data(),
        m.col.data(), dev(m.val.data()), x, m.rows, y, m.cols, args.k, alpha);
    PMOM_CUDA_LAUNCHED("sellp_conj_trans_kernel");
  } else {
    with_column_tiles(args.k, [&](auto kc_const, index_t c0) {
      constexpr int KC = decltype(kc_const)::value;
      dia_conj_trans_kernel<D<T>, KC><<<blocks_for(m.cols), spmv_block, 0, stream>>>(
          m.rows, m.cols, m.diagonals, m.periodic, m.offset.data(), dev(m.val.data()),
          x + static_cast<std::size_t>(c0) * m.rows, m.rows,
          y + static_cast<std::size_t>(c0) * m.cols, m.cols, alpha);
      PMOM_CUDA_LAUNCHED("dia_conj_trans_kernel");
    });
  }
}

#define PMOM_INSTANTIATE(T)                                                                     \
  template void upload_format(Backend<T>&, const Csr<T>&, const OperatorOptions&,              \
                              DeviceMatrix<T>&);                                                \
  template void launch_format_spmv(const SpmvArgs<T>&, cudaStream_t);                          \
  template void launch_format_spmv_transposed(const SpmvArgs<T>&, cudaStream_t);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

}  // namespace pmom::cuda
