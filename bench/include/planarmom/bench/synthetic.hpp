// MoM-like synthetic matrices for benchmarks at chosen sizes: complex symmetric, with the
// interaction pattern of basis functions on a planar grid after thresholding to a density.
#pragma once

#include <complex>
#include <cstdint>

#include "planarmom/gpusolver/csr.hpp"

namespace pmom::bench {

// N unknowns on a square grid of spacing h = λ/20 (a typical MoM mesh). Off-diagonal entries
// follow the free-space kernel e^{-jkR}/R of the distance R between unknowns, kept for the
// nearest neighbours so that nnz ≈ density · N² (the sparsified MoM matrix keeps exactly the
// largest |Z_ij|, which for this kernel are the nearest ones). The diagonal is the self term,
// far from dominant, so Jacobi-preconditioned COCG needs tens to hundreds of iterations.
// Symmetric by construction (Z_ij = Z_ji), like a Galerkin MoM matrix.
Csr<std::complex<double>> synthetic_mom_matrix(index_t n, double density = 0.05,
                                               std::uint64_t seed = 1);

}  // namespace pmom::bench
