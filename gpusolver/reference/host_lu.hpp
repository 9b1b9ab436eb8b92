// The reference backend's dense LU with partial pivoting, in place: LAPACK's getrf where the
// build found LAPACKE (host_lu_lapack.cpp; Debian's OpenBLAS behind it where installed, several
// times Eigen's speed, docs/PERFORMANCE.md v0.30), Eigen's PartialPivLU otherwise
// (host_lu_eigen.cpp). One of the two is compiled in (gpusolver/CMakeLists.txt).
#pragma once

#include <vector>

#include "planarmom/gpusolver/scalar.hpp"

namespace pmom::cpu {

// Factors the n x n column-major `a` in place (L below the unit diagonal, U on and above) and
// returns the permutation lu_substitute (cpu_dense.hpp) takes: P A = L U, (P b)[row_of[i]] =
// b[i]. A singular A (a zero pivot, or a zero or non-finite estimate of its reciprocal condition
// number) is a std::runtime_error naming `who`.
template <class T> std::vector<int> factor_lu(T* a, index_t n, const char* who);

#define PMOM_DECLARE(T) extern template std::vector<int> factor_lu(T*, index_t, const char*);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_DECLARE)
#undef PMOM_DECLARE

}  // namespace pmom::cpu
