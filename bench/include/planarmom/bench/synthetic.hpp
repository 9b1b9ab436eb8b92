// MoM-like synthetic matrices for benchmarks at chosen sizes: complex symmetric, with the
// interaction pattern of basis functions on a planar grid after thresholding to a density; and
// the bounded random vectors the GPU benchmarks run them on.
#pragma once

#include <complex>
#include <cstdint>
#include <random>
#include <vector>

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

// Values of modulus 0.5 to 1 with a random phase (a random sign for real T): never zero, so that
// no kernel is timed on zeroed memory, and bounded, so that repeated kernels stay finite.
template <class T> std::vector<T> random_bounded_values(std::size_t count, std::mt19937_64& rng);
extern template std::vector<double> random_bounded_values<double>(std::size_t, std::mt19937_64&);
extern template std::vector<std::complex<double>> random_bounded_values<std::complex<double>>(
    std::size_t, std::mt19937_64&);

}  // namespace pmom::bench
