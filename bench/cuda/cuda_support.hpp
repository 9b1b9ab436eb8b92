// CUDA runtime helpers shared by the baseline, the bandwidth probe and the GPU benchmarks:
// checked calls that throw naming the call, owning handles, the libraries' element types, and
// device arrays whose allocation failure says how much was asked for and how much was free.
#pragma once

#include <cuComplex.h>
#include <cuda_runtime.h>
#include <cusparse.h>

#include <complex>
#include <cstddef>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace pmom::bench::gpu {

[[noreturn]] inline void fail(const char* call, const std::string& what) {
  throw std::runtime_error(std::string(call) + ": " + what);
}

inline void check(cudaError_t status, const char* call) {
  if (status != cudaSuccess)
    fail(call, std::string(cudaGetErrorName(status)) + " (" + cudaGetErrorString(status) + ")");
}

// PMOM_CHECKED(fn, args...) calls fn(args...) and throws "fn: STATUS (description)" on failure; the
// check overloads for other libraries' status types live next to their users.
inline void check(cusparseStatus_t status, const char* call) {
  if (status != CUSPARSE_STATUS_SUCCESS)
    fail(call, std::string(cusparseGetErrorName(status)) + " (" +
                   cusparseGetErrorString(status) + ")");
}

#define PMOM_CHECKED(fn, ...) ::pmom::bench::gpu::check(fn(__VA_ARGS__), #fn)

// Owns a CUDA or library handle (a pointer type) and releases it with Destroy; release errors
// are ignored, as a destructor cannot report them.
template <auto Destroy> struct Destroyer {
  template <class P> void operator()(P p) const { static_cast<void>(Destroy(p)); }
};
template <class Handle, auto Destroy>
using Owned = std::unique_ptr<std::remove_pointer_t<Handle>, Destroyer<Destroy>>;

using Event = Owned<cudaEvent_t, cudaEventDestroy>;

// The libraries' element type for a host value type (same layout) and its cudaDataType.
template <class T> struct Lib;
template <> struct Lib<double> {
  using type = double;
  static constexpr cudaDataType data_type = CUDA_R_64F;
};
template <> struct Lib<std::complex<double>> {
  using type = cuDoubleComplex;
  static constexpr cudaDataType data_type = CUDA_C_64F;
};
template <class T> using lib_t = typename Lib<T>::type;

// Host scalars are converted by value, not reinterpreted: cuDoubleComplex is 16-byte aligned
// and std::complex<double> only 8, so a cast pointer could be misaligned for the library.
inline double to_lib(double v) { return v; }
inline cuDoubleComplex to_lib(std::complex<double> v) {
  return make_cuDoubleComplex(v.real(), v.imag());
}
inline double from_lib(double v) { return v; }
inline std::complex<double> from_lib(cuDoubleComplex v) { return {cuCreal(v), cuCimag(v)}; }

inline Event make_event() {
  cudaEvent_t e = nullptr;
  PMOM_CHECKED(cudaEventCreate, &e);
  return Event(e);
}

// Out-of-memory is the error a user can act on (smaller matrix, other device), so it names the
// request and the free memory.
inline void* device_allocate(std::size_t bytes) {
  void* p = nullptr;
  const cudaError_t status = cudaMalloc(&p, bytes);
  if (status == cudaErrorMemoryAllocation) {
    static_cast<void>(cudaGetLastError());  // not sticky; clear it so later checks start clean
    std::size_t free = 0, total = 0;
    PMOM_CHECKED(cudaMemGetInfo, &free, &total);
    fail("cudaMalloc", "out of memory asking for " + std::to_string(bytes) + " bytes (" +
                           std::to_string(free) + " bytes free of " + std::to_string(total) + ")");
  }
  check(status, "cudaMalloc");
  return p;
}

// A device array of D, the library's view of the host type it is uploaded from (H below must
// have D's layout: std::complex<double> for cuDoubleComplex, or D itself).
template <class D> class DeviceArray {
 public:
  DeviceArray() = default;
  // Zero-filled: a product with β = 0 may still read its output, and 0 · garbage can be NaN.
  explicit DeviceArray(std::size_t count) : DeviceArray(Uninitialized{}, count) { zero(); }
  template <class H>
  explicit DeviceArray(std::span<const H> host) : DeviceArray(Uninitialized{}, host.size()) {
    static_assert(sizeof(H) == sizeof(D) && std::is_trivially_copyable_v<D>);
    if (!host.empty())
      PMOM_CHECKED(cudaMemcpy, data_.get(), host.data(), host.size_bytes(), cudaMemcpyHostToDevice);
  }

  template <class H> void download(std::span<H> host) const {
    static_assert(sizeof(H) == sizeof(D));
    if (!host.empty())
      PMOM_CHECKED(cudaMemcpy, host.data(), data_.get(), host.size_bytes(), cudaMemcpyDeviceToHost);
  }

  void zero() {
    if (size_ > 0) PMOM_CHECKED(cudaMemset, data_.get(), 0, size_ * sizeof(D));
  }

  [[nodiscard]] D* get() const { return data_.get(); }
  [[nodiscard]] std::size_t size() const { return size_; }

 private:
  struct Uninitialized {};
  DeviceArray(Uninitialized, std::size_t count) : size_(count) {
    if (count > 0) data_.reset(static_cast<D*>(device_allocate(count * sizeof(D))));
  }
  struct Free {
    void operator()(D* p) const { static_cast<void>(cudaFree(p)); }
  };
  std::unique_ptr<D, Free> data_;
  std::size_t size_ = 0;
};

}  // namespace pmom::bench::gpu
