// Value-type traits shared by every format, backend and solver: real/complex detection,
// the real type behind a value type, and conjugation that is the identity on reals.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <type_traits>

namespace pmom {

// Every value type the library is built for: double and complex<double> (the EM pipeline, the
// benchmarks), float and complex<float> (single-precision solves and the inner solves of
// mixed-precision refinement). X(T) expands once per type; explicit instantiations use it.
#define PMOM_FOR_EACH_VALUE_TYPE(X) X(double) X(std::complex<double>) X(float) X(std::complex<float>)

// 32-bit indices halve index traffic in SpMV; sizes are checked against this type on construction.
using index_t = std::int32_t;

template <class T> struct is_complex : std::false_type {};
template <class R> struct is_complex<std::complex<R>> : std::true_type {};
template <class T> inline constexpr bool is_complex_v = is_complex<T>::value;

template <class T> struct real_type { using type = T; };
template <class R> struct real_type<std::complex<R>> { using type = R; };
template <class T> using real_t = typename real_type<T>::type;

template <class T> constexpr T conjugate(const T& x) {
  if constexpr (is_complex_v<T>) return std::conj(x);
  else return x;
}

// |x|^2 without the square root std::abs would take.
template <class T> constexpr real_t<T> abs2(const T& x) {
  if constexpr (is_complex_v<T>) return x.real() * x.real() + x.imag() * x.imag();
  else return x * x;
}

template <class T> bool is_finite(const T& x) {
  if constexpr (is_complex_v<T>) return std::isfinite(x.real()) && std::isfinite(x.imag());
  else return std::isfinite(x);
}

}  // namespace pmom
