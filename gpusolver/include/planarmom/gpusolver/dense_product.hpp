// Products with a dense matrix in host memory, for the host's matrix-free operators (the sweep
// multiplies by Z itself where its LU is made, sweep/exact_operator.hpp): rows split over the
// cores, each row read once for all the right-hand sides. At a few columns a product of this
// size is memory-bound; Eigen's general product packs the matrix at every call and ran several
// times slower (docs/PERFORMANCE.md, "Measurements behind choices in the code").
#pragma once

#include <complex>

#include "planarmom/gpusolver/scalar.hpp"

namespace pmom {

// y = A x: A n x n row-major, x and y n x k column-major (distinct).
template <class T> void dense_product(const T* a, index_t n, const T* x, T* y, index_t k);

#define PMOM_DECLARE(T) \
  extern template void dense_product(const T*, index_t, const T*, T*, index_t);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_DECLARE)
#undef PMOM_DECLARE

// y = A x for a complex symmetric A (A = Aᵀ, as a Galerkin Z is), reading A's lower triangle
// only (the diagonal and below; the rest is not read): each value serves its row and, as its
// mirror's, its column, so the memory-bound product moves half the bytes of dense_product.
// A, x and y as there.
template <class R>
void symmetric_dense_product(const std::complex<R>* a, index_t n, const std::complex<R>* x,
                             std::complex<R>* y, index_t k);

extern template void symmetric_dense_product(const std::complex<float>*, index_t,
                                             const std::complex<float>*, std::complex<float>*,
                                             index_t);
extern template void symmetric_dense_product(const std::complex<double>*, index_t,
                                             const std::complex<double>*, std::complex<double>*,
                                             index_t);

}  // namespace pmom
