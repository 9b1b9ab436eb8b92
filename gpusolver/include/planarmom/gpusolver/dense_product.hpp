// Products with a dense matrix in host memory, for the host's matrix-free operators (the sweep
// multiplies by Z itself where its LU is made, sweep/exact_operator.hpp): rows split over the
// cores, each row read once for all the right-hand sides. At a few columns a product of this
// size is memory-bound; Eigen's general product packs the matrix at every call and ran several
// times slower (docs/PERFORMANCE.md, "Measurements behind choices in the code").
#pragma once

#include "planarmom/gpusolver/scalar.hpp"

namespace pmom {

// y = A x: A n x n row-major, x and y n x k column-major (distinct).
template <class T> void dense_product(const T* a, index_t n, const T* x, T* y, index_t k);

#define PMOM_DECLARE(T) \
  extern template void dense_product(const T*, index_t, const T*, T*, index_t);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_DECLARE)
#undef PMOM_DECLARE

}  // namespace pmom
