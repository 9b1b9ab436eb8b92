// The multi-algorithm paper's artificial test matrices: few diagonals, sizes from 100 to
// millions, diagonally dominant (so that Jacobi and Gauss-Seidel converge) or not, real or
// complex, and the same bytes for the same seed on every platform.
#pragma once

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "planarmom/gpusolver/csr.hpp"

namespace pmom::bench {

struct ArtificialSpec {
  index_t n = 1000;
  int diagonals = 5;     // odd: the main diagonal and (diagonals − 1)/2 pairs ±offset
  bool dominant = true;  // diagonal 2× the off-diagonal row sum, else 0.5×
  std::uint64_t seed = 1;
};

// Offsets of the diagonals, ascending: 0, ±1, then ±s, ±2s, ... with s = max(2, ⌈√n⌉), the
// pattern of a 2D grid's stencil in a band of width about 2(p−1)√n. Offsets with |o| >= n
// (small n) are left out, so a matrix may have fewer diagonals than asked for.
// Throws std::invalid_argument unless n >= 1 and diagonals is odd and in [1, 15].
std::vector<index_t> artificial_offsets(index_t n, int diagonals);

// Off-diagonal entries: uniform in [−1, 1) (real and imaginary part each for complex), drawn
// from std::mt19937_64(seed) row by row in ascending column order, one 64-bit draw per real
// number, mapped exactly as ((x >> 10) − 2⁵³) · 2⁻⁵³ (no std::uniform_real_distribution, whose
// output the standard leaves to the implementation). Diagonal entries: real, positive,
// 2 (dominant) or 0.5 times max(1, Σ_j |Re a_ij| + |Im a_ij|), summed in column order; that
// 1-norm bounds the modulus, so the dominant matrices satisfy |a_ii| >= 2 Σ |a_ij| and the
// Jacobi iteration matrix has ∞-norm at most 1/2. Every operation is exact or a correctly
// rounded IEEE addition or product, so the bytes do not depend on the platform.
template <class T> Csr<T> artificial_matrix(const ArtificialSpec& spec);

// The benchmark's name for it: art-5diag-n1000-real, art-5diag-weak-n1000-complex, ...
std::string artificial_name(const ArtificialSpec& spec, bool complex);

extern template Csr<double> artificial_matrix<double>(const ArtificialSpec&);
extern template Csr<std::complex<double>> artificial_matrix<std::complex<double>>(
    const ArtificialSpec&);

}  // namespace pmom::bench
