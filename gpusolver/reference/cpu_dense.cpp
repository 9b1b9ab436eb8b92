// The host's dense kernels: symmetric_dense_product (dense_product.hpp) and the LU substitutions
// of the reference backend's make_dense_inverse (cpu_dense.hpp).
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

// A block of four columns of complex x in split real arithmetic: real and imaginary parts apart,
// the block's four values of a row side by side, so that the four columns' sums vectorise
// (std::complex keeps a value's two parts in one register, across which GCC does not vectorise
// them: docs/PERFORMANCE.md, v0.34).
template <class R> struct SplitColumns {
  std::vector<R> re, im;  // value (row j, column c) at j * 4 + c; missing columns zero
  SplitColumns(const std::complex<R>* x, std::size_t n, index_t width)
      : re(4 * n, R(0)), im(4 * n, R(0)) {
    for (index_t c = 0; c < width; ++c)
      for (std::size_t j = 0; j < n; ++j) {
        re[j * 4 + static_cast<std::size_t>(c)] = x[static_cast<std::size_t>(c) * n + j].real();
        im[j * 4 + static_cast<std::size_t>(c)] = x[static_cast<std::size_t>(c) * n + j].imag();
      }
  }
};

// Rows i0 and i1 = i0 + 1 (i1 = i0: one row) of a symmetric block below their diagonal: their
// sums over j < i0 into s0, s1, and each A(i, j)'s mirror A(j, i) times x_i into (yr, yi) at j.
template <class R>
void symmetric_rows(const R* r0, const R* r1, std::size_t i0, const SplitColumns<R>& x,
                    R* yr, R* yi, R (&s)[4][4]) {
  const R* xr = x.re.data();
  const R* xi = x.im.data();
  R x0r[4], x0i[4], x1r[4], x1i[4];
  for (std::size_t c = 0; c < 4; ++c) {
    x0r[c] = xr[i0 * 4 + c];
    x0i[c] = xi[i0 * 4 + c];
    x1r[c] = r1 == r0 ? R(0) : xr[(i0 + 1) * 4 + c];
    x1i[c] = r1 == r0 ? R(0) : xi[(i0 + 1) * 4 + c];
  }
  for (std::size_t j = 0; j < i0; ++j) {
    const R ar0 = r0[2 * j], ai0 = r0[2 * j + 1], ar1 = r1[2 * j], ai1 = r1[2 * j + 1];
#pragma omp simd
    for (std::size_t c = 0; c < 4; ++c) {
      const R xrc = xr[j * 4 + c], xic = xi[j * 4 + c];
      s[0][c] += ar0 * xrc - ai0 * xic;
      s[1][c] += ar0 * xic + ai0 * xrc;
      s[2][c] += ar1 * xrc - ai1 * xic;
      s[3][c] += ar1 * xic + ai1 * xrc;
      yr[j * 4 + c] += ar0 * x0r[c] - ai0 * x0i[c] + ar1 * x1r[c] - ai1 * x1i[c];
      yi[j * 4 + c] += ar0 * x0i[c] + ai0 * x0r[c] + ar1 * x1i[c] + ai1 * x1r[c];
    }
  }
}

// Each core sums its rows' products and mirrors into a copy of y of its own (split as x), the
// copies added at the end in the cores' order; rows go in pairs dealt round-robin (rows lengthen
// down the triangle), so that a core count always sums in the same order: the same bits.
template <class R>
void symmetric_block(const std::complex<R>* a, index_t n, const std::complex<R>* x,
                     std::complex<R>* y, index_t width) {
  const auto un = static_cast<std::size_t>(n);
  const SplitColumns<R> xs(x, un, width);
#ifdef _OPENMP
  const auto cores = static_cast<std::size_t>(omp_get_max_threads());
#else
  const std::size_t cores = 1;
#endif
  std::vector<std::vector<R>> copies(2 * cores);  // core t's real parts at 2t, imaginary at 2t + 1
#pragma omp parallel
  {
#ifdef _OPENMP
    const auto t = static_cast<std::size_t>(omp_get_thread_num());
#else
    const std::size_t t = 0;
#endif
    std::vector<R> yr(4 * un, R(0)), yi(4 * un, R(0));
#pragma omp for schedule(static, 1) nowait
    for (index_t i0 = 0; i0 < n; i0 += 2) {
      const auto u0 = static_cast<std::size_t>(i0);
      const bool pair = i0 + 1 < n;
      const R* r0 = reinterpret_cast<const R*>(a + u0 * un);
      const R* r1 = pair ? reinterpret_cast<const R*>(a + (u0 + 1) * un) : r0;
      R s[4][4] = {};
      symmetric_rows(r0, r1, u0, xs, yr.data(), yi.data(), s);
      // The diagonal block: A(i0, i0), A(i1, i0) = A(i0, i1), A(i1, i1).
      const std::complex<R> d0 = a[u0 * un + u0];
      const std::complex<R> d10 = pair ? a[(u0 + 1) * un + u0] : std::complex<R>(0);
      const std::complex<R> d1 = pair ? a[(u0 + 1) * un + u0 + 1] : std::complex<R>(0);
      for (std::size_t c = 0; c < 4; ++c) {
        const std::complex<R> x0(xs.re[u0 * 4 + c], xs.im[u0 * 4 + c]);
        const std::complex<R> x1 =
            pair ? std::complex<R>(xs.re[(u0 + 1) * 4 + c], xs.im[(u0 + 1) * 4 + c])
                 : std::complex<R>(0);
        const std::complex<R> y0 = std::complex<R>(s[0][c], s[1][c]) + d0 * x0 + d10 * x1;
        yr[u0 * 4 + c] += y0.real();
        yi[u0 * 4 + c] += y0.imag();
        if (!pair) continue;
        const std::complex<R> y1 = std::complex<R>(s[2][c], s[3][c]) + d10 * x0 + d1 * x1;
        yr[(u0 + 1) * 4 + c] += y1.real();
        yi[(u0 + 1) * 4 + c] += y1.imag();
      }
    }
    copies[2 * t] = std::move(yr);
    copies[2 * t + 1] = std::move(yi);
  }
#pragma omp parallel for schedule(static)
  for (std::size_t j = 0; j < un; ++j)
    for (index_t c = 0; c < width; ++c) {
      R re = 0, im = 0;
      for (std::size_t t = 0; t < copies.size(); t += 2) {
        if (copies[t].empty()) continue;  // a core the region did not use
        re += copies[t][j * 4 + static_cast<std::size_t>(c)];
        im += copies[t + 1][j * 4 + static_cast<std::size_t>(c)];
      }
      y[static_cast<std::size_t>(c) * un + j] = {re, im};
    }
}

}  // namespace

template <class R>
void symmetric_dense_product(const std::complex<R>* a, index_t n, const std::complex<R>* x,
                             std::complex<R>* y, index_t k) {
  const auto un = static_cast<std::size_t>(n);
  for (index_t c0 = 0; c0 < k; c0 += 4)
    symmetric_block(a, n, x + static_cast<std::size_t>(c0) * un,
                    y + static_cast<std::size_t>(c0) * un, k - c0 < 4 ? k - c0 : 4);
}

template void symmetric_dense_product(const std::complex<float>*, index_t,
                                      const std::complex<float>*, std::complex<float>*, index_t);
template void symmetric_dense_product(const std::complex<double>*, index_t,
                                      const std::complex<double>*, std::complex<double>*,
                                      index_t);

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
