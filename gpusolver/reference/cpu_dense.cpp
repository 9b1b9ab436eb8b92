// The host's dense kernels: dense_product (dense_product.hpp) and the LU substitutions of the
// reference backend's make_dense_inverse (cpu_dense.hpp).
#include "cpu_dense.hpp"

#include <complex>
#include <cstddef>

#include "planarmom/gpusolver/dense_product.hpp"

namespace pmom {

// The columns in blocks of four: each row of A is read once per block, the four sums in
// registers.
template <class T> void dense_product(const T* a, index_t n, const T* x, T* y, index_t k) {
  const auto un = static_cast<std::size_t>(n);
  for (index_t c0 = 0; c0 < k; c0 += 4) {
    const index_t width = k - c0 < 4 ? k - c0 : 4;
    const T* xc = x + static_cast<std::size_t>(c0) * un;
    T* yc = y + static_cast<std::size_t>(c0) * un;
#pragma omp parallel for schedule(static)
    for (index_t i = 0; i < n; ++i) {
      const T* row = a + static_cast<std::size_t>(i) * un;
      T s[4] = {T(0), T(0), T(0), T(0)};
      for (index_t j = 0; j < n; ++j)
        for (index_t c = 0; c < width; ++c) s[c] += row[j] * xc[static_cast<std::size_t>(c) * un + j];
      for (index_t c = 0; c < width; ++c) yc[static_cast<std::size_t>(c) * un + i] = s[c];
    }
  }
}

#define PMOM_INSTANTIATE(T) \
  template void dense_product(const T*, index_t, const T*, T*, index_t);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

namespace cpu {

// Column by column of the factors (column-major, as Eigen stores them): b permuted into x,
// then L's below the diagonal forward and U's above it backward in x; the right-hand sides
// over the cores.
template <class T>
void lu_substitute(const T* lu, const int* row_of, index_t n, const T* b, T* x, index_t k) {
  const auto un = static_cast<std::size_t>(n);
#pragma omp parallel for schedule(static)
  for (index_t c = 0; c < k; ++c) {
    const T* bc = b + static_cast<std::size_t>(c) * un;
    T* p = x + static_cast<std::size_t>(c) * un;
    for (index_t i = 0; i < n; ++i) p[row_of[i]] = bc[i];
    for (index_t j = 0; j < n; ++j) {
      const T* col = lu + static_cast<std::size_t>(j) * un;
      const T pj = p[j];
      if (pj != T(0))
        for (index_t i = j + 1; i < n; ++i) p[i] -= col[i] * pj;
    }
    for (index_t j = n - 1; j >= 0; --j) {
      const T* col = lu + static_cast<std::size_t>(j) * un;
      p[j] /= col[j];
      const T pj = p[j];
      if (pj != T(0))
        for (index_t i = 0; i < j; ++i) p[i] -= col[i] * pj;
    }
  }
}

#define PMOM_INSTANTIATE(T) \
  template void lu_substitute(const T*, const int*, index_t, const T*, T*, index_t);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

}  // namespace cpu
}  // namespace pmom
