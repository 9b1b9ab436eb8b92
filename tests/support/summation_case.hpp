// A single-precision dot product that plain summation gets wrong: a million terms near 0.1,
// whose running sum grows until each addition rounds away a large share of the next term.
// The exact value is summed in long double from the very float values the backends see.
#pragma once

#include "support/random_matrix.hpp"

namespace pmom::test {

template <class T> struct SummationCase {
  Dense<T> x, y;      // n x 1
  double dot_re = 0, dot_im = 0;  // Σ conj(x_i) y_i, exact to double precision
  double norm2 = 0;   // Σ |x_i|²
};

template <class T> SummationCase<T> summation_case(index_t n = 1000000) {
  using R = real_t<T>;
  SummationCase<T> c;
  c.x.resize(n, 1);
  c.y.resize(n, 1);
  long double re = 0, im = 0, sq = 0;
  for (index_t i = 0; i < n; ++i) {
    const R a = R(0.1) * (R(1) + R(1e-3) * static_cast<R>(i % 7));
    if constexpr (is_complex_v<T>) {
      c.x(i) = T(a, -a);  // conj(x) y with y = (1, 1): (a, a)(1, 1) = (0, 2a)
      c.y(i) = T(1, 1);
      im += 2.0L * a;
      sq += 2.0L * a * a;
    } else {
      c.x(i) = a;
      c.y(i) = 1;
      re += a;
      sq += static_cast<long double>(a) * a;
    }
  }
  c.dot_re = static_cast<double>(re);
  c.dot_im = static_cast<double>(im);
  c.norm2 = static_cast<double>(sq);
  return c;
}

// |got − exact| / |exact| of a dot product computed in T.
template <class T> double dot_error(const SummationCase<T>& c, T got) {
  const std::complex<double> g(std::real(got), std::imag(got)), e(c.dot_re, c.dot_im);
  return std::abs(g - e) / std::abs(e);
}

}  // namespace pmom::test
