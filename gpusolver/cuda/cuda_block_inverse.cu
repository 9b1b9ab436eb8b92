// Backend<T>::invert_blocks on the device: the blocks padded to one size with the identity,
// inverted by cuBLAS's batched LU (getrf, then getri out of place) and copied back.
#include <cublas_v2.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_backend.hpp"
#include "cuda_error.hpp"
#include "cuda_library_error.hpp"

namespace pmom::cuda {
namespace {

// cuBLAS's routines for each device value type.
cublasStatus_t getrf(cublasHandle_t h, int n, float* const a[], int* p, int* info, int count) {
  return cublasSgetrfBatched(h, n, a, n, p, info, count);
}
cublasStatus_t getrf(cublasHandle_t h, int n, double* const a[], int* p, int* info, int count) {
  return cublasDgetrfBatched(h, n, a, n, p, info, count);
}
cublasStatus_t getrf(cublasHandle_t h, int n, fcomplex* const a[], int* p, int* info,
                     int count) {
  return cublasCgetrfBatched(h, n, reinterpret_cast<cuComplex* const*>(a), n, p, info, count);
}
cublasStatus_t getrf(cublasHandle_t h, int n, dcomplex* const a[], int* p, int* info,
                     int count) {
  return cublasZgetrfBatched(h, n, reinterpret_cast<cuDoubleComplex* const*>(a), n, p, info,
                             count);
}
cublasStatus_t getri(cublasHandle_t h, int n, float* const a[], const int* p, float* const c[],
                     int* info, int count) {
  return cublasSgetriBatched(h, n, a, n, p, c, n, info, count);
}
cublasStatus_t getri(cublasHandle_t h, int n, double* const a[], const int* p,
                     double* const c[], int* info, int count) {
  return cublasDgetriBatched(h, n, a, n, p, c, n, info, count);
}
cublasStatus_t getri(cublasHandle_t h, int n, fcomplex* const a[], const int* p,
                     fcomplex* const c[], int* info, int count) {
  return cublasCgetriBatched(h, n, reinterpret_cast<const cuComplex* const*>(a), n, p,
                             reinterpret_cast<cuComplex* const*>(c), n, info, count);
}
cublasStatus_t getri(cublasHandle_t h, int n, dcomplex* const a[], const int* p,
                     dcomplex* const c[], int* info, int count) {
  return cublasZgetriBatched(h, n, reinterpret_cast<const cuDoubleComplex* const*>(a), n, p,
                             reinterpret_cast<cuDoubleComplex* const*>(c), n, info, count);
}

// One thread per entry of the padded matrices: (block b, row r, column c) of m x m
// column-major matrices, and where that entry sits in the packed row-major block (−1 outside).
struct PaddedEntry {
  long long b, at;
  int r, c;
};
__device__ inline PaddedEntry padded_entry(long long k, int m, const long long* first,
                                           const index_t* sizes) {
  const long long mm = static_cast<long long>(m) * m;
  PaddedEntry e;
  e.b = k / mm;
  const auto rest = static_cast<int>(k - e.b * mm);
  e.c = rest / m;
  e.r = rest - e.c * m;
  const index_t s = sizes[e.b];
  e.at = e.r < s && e.c < s ? first[e.b] + static_cast<long long>(e.r) * s + e.c : -1;
  return e;
}

// The blocks into the padded matrices, the identity outside each block, so that a padded
// matrix is singular only where its block is.
template <class D>
__global__ void pad_kernel(const D* blocks, const long long* first, const index_t* sizes, int m,
                           long long total, D* padded) {
  const long long k = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= total) return;
  const PaddedEntry e = padded_entry(k, m, first, sizes);
  padded[k] = e.at >= 0 ? blocks[e.at] : e.r == e.c ? from_real<D>(1) : zero<D>();
}

template <class D>
__global__ void unpad_kernel(const D* padded, const long long* first, const index_t* sizes,
                             int m, long long total, D* blocks) {
  const long long k = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= total) return;
  const PaddedEntry e = padded_entry(k, m, first, sizes);
  if (e.at >= 0) blocks[e.at] = padded[k];
}

template <class T>
void set_up(Backend<T>& be, BlockInverse<T>& w, std::span<const index_t> sizes,
            cudaStream_t stream) {
  using D = device_t<T>;
  if (!w.handle) {
    cublasHandle_t h = nullptr;
    check_cublas(cublasCreate(&h), "cublasCreate");
    w.handle = std::shared_ptr<void>(h, [](void* p) { cublasDestroy(static_cast<cublasHandle_t>(p)); });
    check_cublas(cublasSetStream(h, stream), "cublasSetStream");
  }
  const auto count = static_cast<index_t>(sizes.size());
  w.sizes.assign(sizes.begin(), sizes.end());
  w.padded = *std::max_element(sizes.begin(), sizes.end());
  std::vector<long long> first(sizes.size(), 0);
  for (std::size_t b = 1; b < sizes.size(); ++b)
    first[b] = first[b - 1] + static_cast<long long>(sizes[b - 1]) * sizes[b - 1];
  w.first = to_device_block(be, first);
  w.block_sizes = to_device_block(be, w.sizes);
  const index_t mm = w.padded * w.padded;
  w.a = be.template allocate<T>(mm, count);
  w.c = be.template allocate<T>(mm, count);
  w.pivots = be.template allocate<int>(w.padded, count);
  w.info = be.template allocate<int>(count, 1);
  std::vector<D*> pointers(2 * sizes.size());
  for (index_t b = 0; b < count; ++b) {
    pointers[b] = dev(w.a.data()) + static_cast<std::size_t>(b) * mm;
    pointers[count + b] = dev(w.c.data()) + static_cast<std::size_t>(b) * mm;
  }
  w.pointers = be.allocate_bytes(pointers.size() * sizeof(D*));
  be.copy_bytes(w.pointers.get(), pointers.data(), pointers.size() * sizeof(D*),
                CopyKind::to_backend);
}

// The first block cuBLAS found singular (info > 0), −1 when none.
template <class T> long long first_singular(Backend<T>& be, const BlockInverse<T>& w, const char* call) {
  const std::vector<int> info = be.download(w.info);
  for (std::size_t b = 0; b < info.size(); ++b) {
    if (info[b] < 0)
      throw std::logic_error(std::string(call) + ": argument " + std::to_string(-info[b]) +
                             " is invalid");
    if (info[b] > 0) return static_cast<long long>(b);
  }
  return -1;
}

}  // namespace

template <class T>
long long launch_invert_blocks(Backend<T>& be, BlockInverse<T>& w, T* blocks,
                               std::span<const index_t> sizes, cudaStream_t stream) {
  using D = device_t<T>;
  if (sizes.empty()) return -1;
  if (!std::equal(sizes.begin(), sizes.end(), w.sizes.begin(), w.sizes.end()))
    set_up(be, w, sizes, stream);
  const int m = w.padded;
  const int count = static_cast<int>(sizes.size());
  const long long total = static_cast<long long>(m) * m * count;
  constexpr int threads = 256;
  const auto grid = static_cast<unsigned>((total + threads - 1) / threads);
  pad_kernel<D><<<grid, threads, 0, stream>>>(dev(blocks), w.first.data(), w.block_sizes.data(), m,
                                              total, dev(w.a.data()));
  PMOM_CUDA_LAUNCHED("pad_kernel");
  auto* const* a = static_cast<D* const*>(w.pointers.get());
  auto* h = static_cast<cublasHandle_t>(w.handle.get());
  check_cublas(getrf(h, m, a, w.pivots.data(), w.info.data(), count), "getrfBatched");
  if (const long long b = first_singular(be, w, "getrfBatched"); b >= 0) return b;
  check_cublas(getri(h, m, a, w.pivots.data(), a + count, w.info.data(), count), "getriBatched");
  if (const long long b = first_singular(be, w, "getriBatched"); b >= 0) return b;
  unpad_kernel<D><<<grid, threads, 0, stream>>>(dev(w.c.data()), w.first.data(),
                                                w.block_sizes.data(), m, total, dev(blocks));
  PMOM_CUDA_LAUNCHED("unpad_kernel");
  return -1;
}

#define PMOM_INSTANTIATE(T)                                                                   \
  template long long launch_invert_blocks(Backend<T>&, BlockInverse<T>&, T*,                \
                                          std::span<const index_t>, cudaStream_t);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

}  // namespace pmom::cuda
