// Device-side value types and arithmetic: double, float, and complex numbers aligned to their
// size (16 bytes for double, 8 for float) whose loads through the read-only path are single
// vector instructions (the modern form of the EM BiCG paper's complex texture fetches). Host
// std::complex<R> arrays are bit-compatible.
#pragma once

#include <cuda_runtime.h>

#include <complex>
#include <type_traits>

#include "planarmom/gpusolver/scalar.hpp"

namespace pmom::cuda {

template <class R> struct alignas(2 * sizeof(R)) cplx {
  R x, y;
};
using dcomplex = cplx<double>;
using fcomplex = cplx<float>;

template <class R> __host__ __device__ inline cplx<R> operator+(cplx<R> a, cplx<R> b) {
  return {a.x + b.x, a.y + b.y};
}
template <class R> __host__ __device__ inline cplx<R> operator-(cplx<R> a, cplx<R> b) {
  return {a.x - b.x, a.y - b.y};
}
template <class R> __host__ __device__ inline cplx<R> operator*(cplx<R> a, cplx<R> b) {
  return {a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x};
}
template <class R> __host__ __device__ inline cplx<R> operator*(R a, cplx<R> b) {
  return {a * b.x, a * b.y};
}
template <class R> __host__ __device__ inline cplx<R> operator/(cplx<R> a, cplx<R> b) {
  // Smith's algorithm: no overflow for large |b|, as std::complex division guarantees.
  if (fabs(b.x) >= fabs(b.y)) {
    const R r = b.y / b.x, den = b.x + b.y * r;
    return {(a.x + a.y * r) / den, (a.y - a.x * r) / den};
  }
  const R r = b.x / b.y, den = b.x * r + b.y;
  return {(a.x * r + a.y) / den, (a.y * r - a.x) / den};
}
template <class R> __host__ __device__ inline bool operator==(cplx<R> a, cplx<R> b) {
  return a.x == b.x && a.y == b.y;
}
template <class R> __host__ __device__ inline cplx<R> conj(cplx<R> a) { return {a.x, -a.y}; }
__host__ __device__ inline double conj(double a) { return a; }
__host__ __device__ inline float conj(float a) { return a; }
template <class R> __host__ __device__ inline R abs2(cplx<R> a) { return a.x * a.x + a.y * a.y; }
__host__ __device__ inline double abs2(double a) { return a * a; }
__host__ __device__ inline float abs2(float a) { return a * a; }

// The device type behind a host value type.
template <class T> struct device_of { using type = T; };
template <class R> struct device_of<std::complex<R>> { using type = cplx<R>; };
template <class T> using device_t = typename device_of<T>::type;

// The real type behind a device value type: what reductions of it are summed in.
template <class D> struct real_of { using type = D; };
template <class R> struct real_of<cplx<R>> { using type = R; };
template <class D> using real_of_t = typename real_of<D>::type;

// Number of reals in a value: a reduction of complex sums carries two.
template <class D> inline constexpr int parts_v = 1;
template <class R> inline constexpr int parts_v<cplx<R>> = 2;

template <class D> __host__ __device__ inline D zero() { return D{}; }

template <class D> __host__ __device__ inline D from_real(real_of_t<D> v) {
  if constexpr (std::is_same_v<D, real_of_t<D>>) return v;
  else return {v, real_of_t<D>(0)};
}

// The value's reals in order (real, imaginary), and a value from them.
template <class D> __device__ inline real_of_t<D> part(D v, int i) {
  if constexpr (std::is_same_v<D, real_of_t<D>>) return v;
  else return i == 0 ? v.x : v.y;
}
template <class D> __device__ inline D from_parts(const real_of_t<D>* p) {
  if constexpr (std::is_same_v<D, real_of_t<D>>) return p[0];
  else return {p[0], p[1]};
}

// Read-only (non-coherent) loads: one instruction per value.
__device__ inline double load_ro(const double* p) { return __ldg(p); }
__device__ inline float load_ro(const float* p) { return __ldg(p); }
__device__ inline dcomplex load_ro(const dcomplex* p) {
  const double2 v = __ldg(reinterpret_cast<const double2*>(p));
  return {v.x, v.y};
}
__device__ inline fcomplex load_ro(const fcomplex* p) {
  const float2 v = __ldg(reinterpret_cast<const float2*>(p));
  return {v.x, v.y};
}
__device__ inline int load_ro(const int* p) { return __ldg(p); }

template <class T> inline device_t<T>* dev(T* p) { return reinterpret_cast<device_t<T>*>(p); }
template <class T> inline const device_t<T>* dev(const T* p) {
  return reinterpret_cast<const device_t<T>*>(p);
}
template <class T> inline device_t<T> to_device(T v) {
  if constexpr (is_complex_v<T>) return {v.real(), v.imag()};
  else return v;
}

}  // namespace pmom::cuda
