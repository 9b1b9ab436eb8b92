// Device memory for the MoM's CUDA code (device_fill.cu, device_convolution.cu): a typed array
// that frees itself, and CUDA errors as exceptions naming what failed.
#pragma once

#include <cuda_runtime.h>

#include <cuda/std/complex>
#include <complex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace pmom::mom {

using dc = cuda::std::complex<double>;
static_assert(sizeof(dc) == sizeof(std::complex<double>));

inline void cuda_check(cudaError_t status, const char* unit, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string(unit) + ": " + what + ": " + cudaGetErrorString(status));
}

// A device array; `size` is its capacity (upload grows it, never shrinks it).
template <class T> struct DeviceArray {
  T* data = nullptr;
  std::size_t size = 0;
  DeviceArray() = default;
  explicit DeviceArray(std::size_t n) : size(n) {
    cuda_check(cudaMalloc(&data, sizeof(T) * (n == 0 ? 1 : n)), "device memory", "cudaMalloc");
  }
  template <class U> DeviceArray(const std::vector<U>& host, cudaStream_t stream)
      : DeviceArray(host.size()) {
    static_assert(sizeof(T) == sizeof(U));
    upload(host.data(), host.size(), stream);
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  DeviceArray(DeviceArray&& o) noexcept : data(o.data), size(o.size) { o.data = nullptr; }
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    std::swap(data, o.data);
    std::swap(size, o.size);
    return *this;
  }
  ~DeviceArray() { cudaFree(data); }
  // From pageable host memory: the call returns once the data is staged.
  template <class U> void upload(const U* host, std::size_t n, cudaStream_t stream) {
    if (n > size) *this = DeviceArray(n);
    cuda_check(cudaMemcpyAsync(data, host, sizeof(T) * n, cudaMemcpyHostToDevice, stream),
               "device memory", "cudaMemcpyAsync");
  }
};

}  // namespace pmom::mom
