// Device-side value types and arithmetic: double and a 16-byte-aligned complex<double> whose
// loads through the read-only path are single 128-bit instructions (the modern form of the EM
// BiCG paper's complex texture fetches). Host std::complex<double> arrays are bit-compatible.
#pragma once

#include <cuda_runtime.h>

#include <complex>

namespace pmom::cuda {

struct alignas(16) dcomplex {
  double x, y;
};

__host__ __device__ inline dcomplex operator+(dcomplex a, dcomplex b) { return {a.x + b.x, a.y + b.y}; }
__host__ __device__ inline dcomplex operator-(dcomplex a, dcomplex b) { return {a.x - b.x, a.y - b.y}; }
__host__ __device__ inline dcomplex operator*(dcomplex a, dcomplex b) {
  return {a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x};
}
__host__ __device__ inline dcomplex operator/(dcomplex a, dcomplex b) {
  // Smith's algorithm: no overflow for large |b|, as std::complex division guarantees.
  if (fabs(b.x) >= fabs(b.y)) {
    const double r = b.y / b.x, den = b.x + b.y * r;
    return {(a.x + a.y * r) / den, (a.y - a.x * r) / den};
  }
  const double r = b.x / b.y, den = b.x * r + b.y;
  return {(a.x * r + a.y) / den, (a.y * r - a.x) / den};
}
__host__ __device__ inline bool operator==(dcomplex a, dcomplex b) { return a.x == b.x && a.y == b.y; }
__host__ __device__ inline dcomplex conj(dcomplex a) { return {a.x, -a.y}; }
__host__ __device__ inline double conj(double a) { return a; }
__host__ __device__ inline double abs2(dcomplex a) { return a.x * a.x + a.y * a.y; }
__host__ __device__ inline double abs2(double a) { return a * a; }

// The device type behind a host value type.
template <class T> struct device_of { using type = T; };
template <> struct device_of<std::complex<double>> { using type = dcomplex; };
template <class T> using device_t = typename device_of<T>::type;

// Number of doubles in a value: a reduction of complex sums carries two.
template <class D> inline constexpr int parts_v = 1;
template <> inline constexpr int parts_v<dcomplex> = 2;

template <class D> __host__ __device__ inline D zero() { return D{}; }

template <class D> __host__ __device__ inline D from_real(double v);
template <> __host__ __device__ inline double from_real<double>(double v) { return v; }
template <> __host__ __device__ inline dcomplex from_real<dcomplex>(double v) { return {v, 0.0}; }
__host__ __device__ inline dcomplex operator*(double a, dcomplex b) { return {a * b.x, a * b.y}; }

// Adds v into acc[at...] (one or two doubles) and reads it back.
__device__ inline void add_parts(double* acc, double v) { acc[0] += v; }
__device__ inline void add_parts(double* acc, dcomplex v) {
  acc[0] += v.x;
  acc[1] += v.y;
}
template <class D> __device__ inline D from_parts(const double* p);
template <> __device__ inline double from_parts<double>(const double* p) { return p[0]; }
template <> __device__ inline dcomplex from_parts<dcomplex>(const double* p) { return {p[0], p[1]}; }

// Read-only (non-coherent) loads: 8 bytes for double, 16 for complex.
__device__ inline double load_ro(const double* p) { return __ldg(p); }
__device__ inline dcomplex load_ro(const dcomplex* p) {
  const double2 v = __ldg(reinterpret_cast<const double2*>(p));
  return {v.x, v.y};
}
__device__ inline int load_ro(const int* p) { return __ldg(p); }

template <class T> inline device_t<T>* dev(T* p) { return reinterpret_cast<device_t<T>*>(p); }
template <class T> inline const device_t<T>* dev(const T* p) {
  return reinterpret_cast<const device_t<T>*>(p);
}
template <class T> inline device_t<T> to_device(T v) {
  if constexpr (std::is_same_v<T, std::complex<double>>) return {v.real(), v.imag()};
  else return v;
}

}  // namespace pmom::cuda
