// The reference backend's dense LU substitutions (cpu_dense.cpp; dense_product.hpp has the
// product).
#pragma once

#include "planarmom/gpusolver/scalar.hpp"

namespace pmom::cpu {

// x = A⁻¹ b for the k columns of b and x (n x k column-major, distinct), A's LU with partial
// pivoting as factor_lu (host_lu.hpp) leaves it: lu n x n column-major (L below the unit diagonal,
// U on and above), row_of the permutation's indices (P A = L U, (P b)[row_of[i]] = b[i]).
// Eigen's own solve packs for many right-hand sides and ran several times slower for a few
// (docs/PERFORMANCE.md, "Measurements behind choices in the code").
template <class T>
void lu_substitute(const T* lu, const int* row_of, index_t n, const T* b, T* x, index_t k);

#define PMOM_DECLARE(T) \
  extern template void lu_substitute(const T*, const int*, index_t, const T*, T*, index_t);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_DECLARE)
#undef PMOM_DECLARE

}  // namespace pmom::cpu
