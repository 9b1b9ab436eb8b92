// Thresholding of a dense square matrix (row-major, n x n) to a sparse CSR matrix with a
// symmetric pattern and the diagonal always kept, under one of three threshold policies.
#pragma once

#include <cmath>
#include <complex>
#include <span>

#include "planarmom/gpusolver/csr.hpp"

namespace pmom::sparsify {

// |z| as every threshold compares it: sqrt(re² + im²), which matches std::abs to about an ulp
// at a fifth of the cost of its hypot; hypot takes over only where the square would overflow
// or lose digits to underflow, so the ordering holds at any scale of Z.
inline double magnitude(const std::complex<double>& z) {
  const double square = z.real() * z.real() + z.imag() * z.imag();
  if (square > 1e-290 && square < 1e290) return std::sqrt(square);
  return std::abs(z);  // exact zeros too: a zero square may also be an underflow
}

// How the threshold t is chosen. Off the diagonal the pair (i, j), (j, i) is kept or dropped
// as a whole, kept iff max(|Z_ij|, |Z_ji|) >= t, so the pattern is symmetric for a general Z
// too (for a symmetric Z both magnitudes are equal). The diagonal is always kept.
//
// target_density: t is the exact k-th largest pair magnitude, k = round((d·n² − n) / 2), so
//   nnz = n + 2·#{pairs >= t} is within 1 of d·n² (a whole pair) unless magnitudes tie at t:
//   tied pairs are all kept, each adding 2 to nnz. With d·n² <= n only the diagonal is kept
//   (t = +infinity). No full sort: a sample of 1e5 pair magnitudes brackets t, one counting
//   pass keeps the pairs inside the bracket, and std::nth_element picks t among them (a
//   bracket missed by more than six standard deviations costs one more pass, never accuracy).
// absolute: t = value.
// relative: t = value · max_ij |Z_ij| (the diagonal included).
struct ThresholdPolicy {
  enum class Kind { target_density, absolute, relative };
  Kind kind = Kind::target_density;
  double value = 0.05;  // density in (0, 1]; t itself, finite and >= 0; fraction in [0, 1]

  static ThresholdPolicy target_density(double density) { return {Kind::target_density, density}; }
  static ThresholdPolicy absolute(double threshold) { return {Kind::absolute, threshold}; }
  static ThresholdPolicy relative(double fraction) { return {Kind::relative, fraction}; }
};

struct SparsifyReport {
  index_t n = 0;
  index_t nnz = 0;
  double density = 0;                  // nnz / n²
  double threshold = 0;                // t; +infinity when only the diagonal is kept
  double kept_frobenius_fraction = 1;  // ‖Z_kept‖_F / ‖Z‖_F, 1 for Z = 0
  double seconds = 0;                  // wall time of the whole call
};

struct Sparsified {
  Csr<std::complex<double>> matrix;  // n x n, sorted columns, values copied from Z
  SparsifyReport report;
};

// z: the n² values of Z, row-major; it is read in place, never copied. Throws
// std::invalid_argument for n <= 0, z.size() != n², an out-of-range policy value or a
// non-finite entry, and std::length_error when the result would overflow 32-bit indices.
// The passes over Z run in parallel (OpenMP).
Sparsified sparsify(std::span<const std::complex<double>> z, index_t n,
                    const ThresholdPolicy& policy = {});

}  // namespace pmom::sparsify
