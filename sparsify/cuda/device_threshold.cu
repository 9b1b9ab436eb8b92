// DeviceThreshold (device_threshold.hpp): pair magnitudes of the upper triangle, a descending
// radix sort for the k-th largest, per-row counts, a scan, and an ordered warp compaction.
#include <cuda_runtime.h>

#include <cub/cub.cuh>
#include <cuda/std/complex>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "planarmom/sparsify/device_threshold.hpp"

namespace pmom::sparsify {
namespace {

using dc = cuda::std::complex<double>;

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string("device threshold: ") + what + ": " +
                             cudaGetErrorString(status));
}

template <class T> T* device_alloc(std::size_t n) {
  T* p = nullptr;
  check(cudaMalloc(&p, sizeof(T) * std::max<std::size_t>(n, 1)), "cudaMalloc");
  return p;
}

// sparsify::magnitude, without the fused multiply-add the device would otherwise contract
// re² + im² into, so that it rounds as the host does.
__device__ double magnitude(dc z) {
  const double re = z.real(), im = z.imag();
  const double square = __dadd_rn(__dmul_rn(re, re), __dmul_rn(im, im));
  if (square > 1e-290 && square < 1e290) return __dsqrt_rn(square);
  return hypot(re, im);
}

// Pairs i < j packed row by row: row i starts at i·n − i(i+1)/2.
__device__ long long pair_at(index_t n, index_t i, index_t j) {
  const long long row = static_cast<long long>(i) * n - static_cast<long long>(i) * (i + 1) / 2;
  return row + (j - i - 1);
}

__global__ void pair_magnitudes(const dc* z, index_t n, double* out) {
  const index_t i = blockIdx.y;
  for (index_t j = i + 1 + blockIdx.x * blockDim.x + threadIdx.x; j < n;
       j += gridDim.x * blockDim.x) {
    const double a = magnitude(z[static_cast<long long>(i) * n + j]);
    const double b = magnitude(z[static_cast<long long>(j) * n + i]);
    out[pair_at(n, i, j)] = a > b ? a : b;
  }
}

__device__ bool kept(const double* pairs, index_t n, index_t i, index_t j, double t) {
  if (i == j) return true;
  return pairs[i < j ? pair_at(n, i, j) : pair_at(n, j, i)] >= t;
}

// One warp per row.
__global__ void row_counts(const double* pairs, index_t n, double t, index_t* counts) {
  const index_t i = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (i >= n) return;
  index_t count = 0;
  for (index_t j = lane; j < n; j += 32) count += kept(pairs, n, i, j, t) ? 1 : 0;
  for (int off = 16; off > 0; off /= 2) count += __shfl_down_sync(0xffffffffu, count, off);
  if (lane == 0) counts[i] = count;
}

// One warp per row, 32 columns a round, the kept ones written in column order.
__global__ void write_rows(const double* pairs, const dc* z, index_t n, double t,
                           const index_t* row_ptr, index_t* col_idx, dc* values) {
  const index_t i = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (i >= n) return;
  index_t at = row_ptr[i];
  for (index_t j0 = 0; j0 < n; j0 += 32) {
    const index_t j = j0 + lane;
    const bool keep = j < n && kept(pairs, n, i, j, t);
    const unsigned mask = __ballot_sync(0xffffffffu, keep);
    if (keep) {
      const index_t k = at + __popc(mask & ((1u << lane) - 1u));
      col_idx[k] = j;
      values[k] = z[static_cast<long long>(i) * n + j];
    }
    at += __popc(mask);
  }
}

}  // namespace

struct DeviceThreshold::Impl {
  const dc* z = nullptr;
  index_t n = 0;
  double t = std::numeric_limits<double>::infinity();
  double* pairs = nullptr;
  index_t* counts = nullptr;
  index_t nnz = 0;
  cudaStream_t stream = nullptr;
  ~Impl() {
    cudaFree(pairs);
    cudaFree(counts);
    if (stream) cudaStreamDestroy(stream);
  }
};

DeviceThreshold::DeviceThreshold(const std::complex<double>* z, index_t n, double density)
    : impl_(std::make_unique<Impl>()) {
  if (n <= 0) throw std::invalid_argument("device threshold: n must be positive");
  if (!(density > 0 && density <= 1))
    throw std::invalid_argument("device threshold: the target density must be in (0, 1]");
  Impl& d = *impl_;
  d.z = reinterpret_cast<const dc*>(z);
  d.n = n;
  check(cudaStreamCreateWithFlags(&d.stream, cudaStreamNonBlocking), "cudaStreamCreate");
  const long long pairs = static_cast<long long>(n) * (n - 1) / 2;
  const auto nn = static_cast<double>(n);
  // As the host's density_threshold: each kept pair adds two entries to the n diagonal ones.
  const long long k =
      std::clamp<long long>(std::llround((density * nn * nn - nn) / 2), 0, pairs);
  d.pairs = device_alloc<double>(static_cast<std::size_t>(pairs));
  if (pairs > 0) {
    const dim3 grid(static_cast<unsigned>(std::min<index_t>((n + 255) / 256, 64)),
                    static_cast<unsigned>(n));
    pair_magnitudes<<<grid, 256, 0, d.stream>>>(d.z, n, d.pairs);
    check(cudaGetLastError(), "pair magnitudes");
  }
  if (k > 0) {
    double* sorted = device_alloc<double>(static_cast<std::size_t>(pairs));
    std::size_t bytes = 0;
    cub::DeviceRadixSort::SortKeysDescending(nullptr, bytes, d.pairs, sorted, pairs, 0, 64,
                                             d.stream);
    void* scratch = device_alloc<char>(bytes);
    cub::DeviceRadixSort::SortKeysDescending(scratch, bytes, d.pairs, sorted, pairs, 0, 64,
                                             d.stream);
    check(cudaMemcpyAsync(&d.t, sorted + (k - 1), sizeof(double), cudaMemcpyDeviceToHost,
                          d.stream),
          "threshold copy");
    check(cudaStreamSynchronize(d.stream), "sort");
    cudaFree(scratch);
    cudaFree(sorted);
  }
  d.counts = device_alloc<index_t>(static_cast<std::size_t>(n) + 1);
  const unsigned warps_blocks = static_cast<unsigned>((static_cast<long long>(n) * 32 + 255) / 256);
  row_counts<<<warps_blocks, 256, 0, d.stream>>>(d.pairs, n, d.t, d.counts);
  check(cudaGetLastError(), "row counts");
  std::vector<index_t> counts(static_cast<std::size_t>(n));
  check(cudaMemcpyAsync(counts.data(), d.counts, sizeof(index_t) * counts.size(),
                        cudaMemcpyDeviceToHost, d.stream),
        "counts copy");
  check(cudaStreamSynchronize(d.stream), "counts");
  long long total = 0;
  for (const index_t c : counts) total += c;
  if (total > std::numeric_limits<index_t>::max())
    throw std::length_error("device threshold: " + std::to_string(total) +
                            " kept entries overflow 32-bit indices");
  d.nnz = static_cast<index_t>(total);
}

DeviceThreshold::~DeviceThreshold() = default;

index_t DeviceThreshold::nnz() const { return impl_->nnz; }
double DeviceThreshold::threshold() const { return impl_->t; }

void DeviceThreshold::write(index_t* row_ptr, index_t* col_idx,
                            std::complex<double>* values) const {
  const Impl& d = *impl_;
  std::size_t bytes = 0;
  cub::DeviceScan::ExclusiveSum(nullptr, bytes, d.counts, row_ptr, d.n + 1, d.stream);
  void* scratch = device_alloc<char>(bytes);
  // counts[n] is the scan's last input: zero, so row_ptr[n] = nnz.
  check(cudaMemsetAsync(d.counts + d.n, 0, sizeof(index_t), d.stream), "cudaMemset");
  cub::DeviceScan::ExclusiveSum(scratch, bytes, d.counts, row_ptr, d.n + 1, d.stream);
  const unsigned blocks = static_cast<unsigned>((static_cast<long long>(d.n) * 32 + 255) / 256);
  write_rows<<<blocks, 256, 0, d.stream>>>(d.pairs, d.z, d.n, d.t, row_ptr, col_idx,
                                           reinterpret_cast<dc*>(values));
  check(cudaGetLastError(), "write rows");
  check(cudaStreamSynchronize(d.stream), "write");
  cudaFree(scratch);
}

}  // namespace pmom::sparsify
