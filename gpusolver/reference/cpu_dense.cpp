// The host's dense kernels: dense_product (dense_product.hpp) and the LU substitutions of the
// reference backend's make_dense_inverse (cpu_dense.hpp).
#include "cpu_dense.hpp"

#include <complex>
#include <cstddef>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "planarmom/gpusolver/dense_product.hpp"

namespace pmom {

namespace {

// A block of four columns of complex x in split real arithmetic: x copied as real and imaginary
// parts with the block's four values of a row side by side (missing columns zero), and A read two
// rows at a time, so that each value of x loaded serves two rows and the four columns' sums
// vectorise. std::complex keeps a value's two parts in one register, across which GCC does not
// vectorise the columns' sums (docs/PERFORMANCE.md, v0.34).
template <class R>
void complex_block(const std::complex<R>* a, index_t n, const std::complex<R>* x,
                   std::complex<R>* y, index_t width) {
  const auto un = static_cast<std::size_t>(n);
  std::vector<R> xr(4 * un, R(0)), xi(4 * un, R(0));
  for (index_t c = 0; c < width; ++c)
    for (std::size_t j = 0; j < un; ++j) {
      xr[j * 4 + static_cast<std::size_t>(c)] = x[static_cast<std::size_t>(c) * un + j].real();
      xi[j * 4 + static_cast<std::size_t>(c)] = x[static_cast<std::size_t>(c) * un + j].imag();
    }
#pragma omp parallel for schedule(static)
  for (index_t i0 = 0; i0 < n; i0 += 2) {
    const index_t last = i0 + 1 < n ? i0 + 1 : i0;  // an odd n's last row is read twice
    const R* r0 = reinterpret_cast<const R*>(a + static_cast<std::size_t>(i0) * un);
    const R* r1 = reinterpret_cast<const R*>(a + static_cast<std::size_t>(last) * un);
    R sr0[4] = {}, si0[4] = {}, sr1[4] = {}, si1[4] = {};
    for (std::size_t j = 0; j < un; ++j) {
      const R ar0 = r0[2 * j], ai0 = r0[2 * j + 1], ar1 = r1[2 * j], ai1 = r1[2 * j + 1];
#pragma omp simd
      for (std::size_t c = 0; c < 4; ++c) {
        const R xrc = xr[j * 4 + c], xic = xi[j * 4 + c];
        sr0[c] += ar0 * xrc - ai0 * xic;
        si0[c] += ar0 * xic + ai0 * xrc;
        sr1[c] += ar1 * xrc - ai1 * xic;
        si1[c] += ar1 * xic + ai1 * xrc;
      }
    }
    for (index_t c = 0; c < width; ++c) {
      std::complex<R>* yc = y + static_cast<std::size_t>(c) * un;
      yc[i0] = {sr0[c], si0[c]};
      yc[last] = {sr1[c], si1[c]};
    }
  }
}

// Real A: each row read once per block of four columns, the four sums in registers.
template <class T>
void real_block(const T* a, index_t n, const T* x, T* y, index_t width) {
  const auto un = static_cast<std::size_t>(n);
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < n; ++i) {
    const T* row = a + static_cast<std::size_t>(i) * un;
    T s[4] = {T(0), T(0), T(0), T(0)};
    for (index_t j = 0; j < n; ++j)
      for (index_t c = 0; c < width; ++c) s[c] += row[j] * x[static_cast<std::size_t>(c) * un + j];
    for (index_t c = 0; c < width; ++c) y[static_cast<std::size_t>(c) * un + i] = s[c];
  }
}

}  // namespace

// The columns in blocks of four.
template <class T> void dense_product(const T* a, index_t n, const T* x, T* y, index_t k) {
  const auto un = static_cast<std::size_t>(n);
  for (index_t c0 = 0; c0 < k; c0 += 4) {
    const index_t width = k - c0 < 4 ? k - c0 : 4;
    const T* xc = x + static_cast<std::size_t>(c0) * un;
    T* yc = y + static_cast<std::size_t>(c0) * un;
    if constexpr (is_complex_v<T>)
      complex_block(a, n, xc, yc, width);
    else
      real_block(a, n, xc, yc, width);
  }
}

#define PMOM_INSTANTIATE(T) \
  template void dense_product(const T*, index_t, const T*, T*, index_t);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

namespace cpu {

namespace {

// Right-hand sides [c0, c1) together, column by column of the factors (column-major, as
// Eigen stores them): each b permuted into its x, then L's below the diagonal forward and U's
// above it backward. One pass over the factors serves all of them (a column of the factors,
// n values, stays in cache for the others); per right-hand side the arithmetic is that of a
// single substitution.
template <class T>
void substitute_columns(const T* lu, const int* row_of, index_t n, const T* b, T* x, index_t c0,
                        index_t c1) {
  const auto un = static_cast<std::size_t>(n);
  const auto column = [&](T* base, index_t c) { return base + static_cast<std::size_t>(c) * un; };
  for (index_t c = c0; c < c1; ++c) {
    const T* bc = b + static_cast<std::size_t>(c) * un;
    T* p = column(x, c);
    for (index_t i = 0; i < n; ++i) p[row_of[i]] = bc[i];
  }
  for (index_t j = 0; j < n; ++j) {
    const T* col = lu + static_cast<std::size_t>(j) * un;
    for (index_t c = c0; c < c1; ++c) {
      T* p = column(x, c);
      const T pj = p[j];
      if (pj != T(0))
        for (index_t i = j + 1; i < n; ++i) p[i] -= col[i] * pj;
    }
  }
  for (index_t j = n - 1; j >= 0; --j) {
    const T* col = lu + static_cast<std::size_t>(j) * un;
    for (index_t c = c0; c < c1; ++c) {
      T* p = column(x, c);
      p[j] /= col[j];
      const T pj = p[j];
      if (pj != T(0))
        for (index_t i = 0; i < j; ++i) p[i] -= col[i] * pj;
    }
  }
}

}  // namespace

// The right-hand sides split into one contiguous share per core, each share substituted in one
// pass over the factors: the factors are read once per core, not once per right-hand side (the
// coupler's 4 ports on 2 cores: 144 MB an application instead of 288).
template <class T>
void lu_substitute(const T* lu, const int* row_of, index_t n, const T* b, T* x, index_t k) {
#pragma omp parallel
  {
#ifdef _OPENMP
    const index_t share = omp_get_num_threads(), t = omp_get_thread_num();
#else
    const index_t share = 1, t = 0;
#endif
    const index_t c0 = k * t / share, c1 = k * (t + 1) / share;
    if (c1 > c0) substitute_columns(lu, row_of, n, b, x, c0, c1);
  }
}

#define PMOM_INSTANTIATE(T) \
  template void lu_substitute(const T*, const int*, index_t, const T*, T*, index_t);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

}  // namespace cpu
}  // namespace pmom
