// The reference check of a sparsified matrix: its solution against the dense solution, both by
// LU, for n up to a few thousand (the Krylov solver is what solves the sparse system in use).
#pragma once

#include <complex>
#include <span>
#include <vector>

#include "planarmom/gpusolver/csr.hpp"

namespace pmom::sparsify {

// ‖x_sparse − x_dense‖₂ / ‖x_dense‖₂ for each right-hand side (the absolute error where
// x_dense = 0), with Z x_dense = b and S x_sparse = b both solved by Eigen's partial-pivot
// LU (S densified: simpler than a sparse LU and as accurate at these sizes).
// z: Z row-major, n x n; s: the sparsified matrix, n x n; b: n x k column-major, k >= 1.
// Throws std::invalid_argument for mismatched sizes and std::runtime_error when either matrix
// is singular to working precision. Needs one n x n dense work matrix at a time.
std::vector<double> dense_solution_error(std::span<const std::complex<double>> z, index_t n,
                                         const Csr<std::complex<double>>& s,
                                         std::span<const std::complex<double>> b);

}  // namespace pmom::sparsify
