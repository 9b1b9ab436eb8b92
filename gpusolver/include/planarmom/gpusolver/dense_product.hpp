// The product with a dense complex symmetric matrix in host memory, for the host's matrix-free
// operator (the sweep multiplies by Z itself where its LU is made, sweep/exact_operator.hpp):
// rows split over the cores, each value read once for all the right-hand sides. At a few columns
// a product of this size is memory-bound; Eigen's general product packs the matrix at every call
// and ran several times slower (docs/PERFORMANCE.md, "Measurements behind choices in the code").
#pragma once

#include <complex>

#include "planarmom/gpusolver/scalar.hpp"

namespace pmom {

// y = A x for a complex symmetric A (A = Aᵀ, as a Galerkin Z is), reading A's lower triangle
// only (the diagonal and below; the rest is not read): each value serves its row and, as its
// mirror's, its column, so the memory-bound product moves half the bytes of a general one.
// A n x n row-major, x and y n x k column-major (distinct).
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
