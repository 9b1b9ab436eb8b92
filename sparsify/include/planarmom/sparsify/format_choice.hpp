// Which storage format the solver should use for a sparsified matrix (SolverOptions::format).
#pragma once

#include <complex>

#include "planarmom/gpusolver/csr.hpp"
#include "planarmom/gpusolver/operator.hpp"

namespace pmom::sparsify {

// HYB when the longest row is more than twice the mean row length: CSR threads that share a
// group of rows all wait for its longest one, while HYB keeps the bulk in ELL and moves the
// overflow of long rows to COO (Bell & Garland). CSR otherwise, and for a matrix without rows.
Format suggest_format(const Csr<std::complex<double>>& a);

}  // namespace pmom::sparsify
