// Structure-preserving sparse Z, assembled directly as CSR from the offset tables, without the
// dense matrix (DESIGN §6: "the dense matrix never has to exist in memory").
//
// Why not keep the largest |Z_mn|: Z = jω L + (1/(jω a²)) Dᵀ P D (assembly.hpp) is a large
// divergence–divergence part, whose null space holds the loop currents, plus a small jωL part.
// Dropping entries of Z by magnitude breaks the cancellation inside Dᵀ P D, so what is dropped
// couples the loops at the size of jωL itself (docs/VALIDATION.md, "Why magnitude thresholding
// fails here"). Here the two parts are thinned separately, each by distance:
//   * P, the charge-piece × charge-piece potential integrals, is kept for the pieces whose cell
//     centres are within R_P cells (Δi² + Δj² ≤ R_P²); a rooftop's pieces are its minus and
//     plus cells;
//   * L, the same-axis vector-potential integrals, is kept inside the box |offset along the
//     axis| ≤ A, |offset across| ≤ T (cells), and for every same-axis pair the P part keeps.
// Pattern: the rooftop pairs (m, n) with some piece of m and some piece of n within R_P, union
// the same-axis pairs inside the box; symmetric, the diagonal always in it. Value on it:
//   Z_s(m, n) = jω L_mn [same axis] + (1/(jω a²)) Σ_{c ∈ m, c' ∈ n, |c − c'| ≤ R_P} s s' P(c, c')
// with the table reads of basis_entry, so with R_P and A, T at least the grid's extent Z_s
// is the dense Z entry for entry.
#pragma once

#include <algorithm>
#include <complex>
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/gpusolver/csr.hpp"
#include "planarmom/mom/assembly.hpp"

namespace pmom::mom {

// The reaches of the two parts, in cells. A piece pair is kept iff Δi² + Δj² ≤ R_P² (1 + 1e-12),
// an L box pair iff |Δ along| ≤ A (1 + 1e-12) and |Δ across| ≤ T (1 + 1e-12): the margins make
// reaches given as √k or k/2.04 include the offsets they were chosen for. All must be >= 0.
struct MpieSparsity {
  double charge_radius = 0;  // R_P
  double along = 0;          // A
  double across = 0;         // T
};

// The shape of the L box relative to R_P: the ratio that gave the coupler's port solutions the
// smallest error against the dense LU at 5% density, where it was tuned (the experiment:
// docs/VALIDATION.md, "The mpie pattern's shape").
inline constexpr double kMpieAlongPerChargeRadius = 2.04;
// T is a length, in substrate heights (the scale on which the fields of a microstrip above its
// ground fall off): 5.5 cells of 0.4 mm on h = 0.508 mm, where the shape was tuned. Kept in
// cells instead, T halved in millimetres on 0.2 mm cells and the thinned Z was another operator
// on each mesh, S moving far more on refinement (docs/VALIDATION.md).
// R_P and A follow the density, which keeps them near the same lengths.
inline constexpr double kMpieAcrossHeights = 5.5 * 0.4 / 0.508;

// R_P² with the margin: what a pattern's values keep of the charge-piece pairs (impedance_entry's
// charge_reach2).
[[nodiscard]] double charge_reach2(const MpieSparsity& sparsity);
// The substrate height in cells of the mesh's grid: the unit of the reaches that are lengths.
[[nodiscard]] inline double substrate_height_cells(const geometry::Mesh& mesh) {
  return mesh.layout().substrate.height_over_ground_mm() / mesh.grid().dx_mm;  // the mpie rule's
}
// T in cells on the mesh's grid and substrate.
[[nodiscard]] inline double mpie_across_cells(const geometry::Mesh& mesh) {
  return kMpieAcrossHeights * substrate_height_cells(mesh);
}

// A from R_P; T given (cells).
[[nodiscard]] inline MpieSparsity mpie_sparsity(double charge_radius, double across_cells) {
  return {charge_radius, kMpieAlongPerChargeRadius * charge_radius, across_cells};
}

// The reaches as lengths in substrate heights: R_P = charge_radius_heights · h, A = 2.04 R_P,
// T the larger of mpie_across_cells and R_P (so that a growing reach keeps the vector
// couplings of parallel strips too, and every entry at the layout's size); the density is then
// what the layout makes of them. The quasi-static fields of a strip above its ground fall off
// on the scale h (a charge and its image are a dipole of length 2h), so a reach in heights
// drops the same share of those couplings on every board, where a fixed density reaches fewer
// heights on a thicker one (the surface wave's do not fall off so: docs/VALIDATION.md).
[[nodiscard]] inline MpieSparsity mpie_sparsity_in_heights(const geometry::Mesh& mesh,
                                                           double charge_radius_heights) {
  const double r = charge_radius_heights * substrate_height_cells(mesh);
  return mpie_sparsity(r, std::max(mpie_across_cells(mesh), r));
}

// nnz of the pattern for `rooftops` (rooftop_cells order), without values. Parallel (OpenMP
// over rows); memory: one mark per rooftop and thread. Throws std::invalid_argument for a
// negative or non-finite reach.
[[nodiscard]] long long mpie_pattern_nnz(const std::vector<RooftopCells>& rooftops,
                                         const geometry::Grid& grid,
                                         const MpieSparsity& sparsity);

struct MpieDensityChoice {
  MpieSparsity sparsity;
  long long nnz = 0;
  double density = 0;  // nnz / N²
};

// mpie_sparsity(R_P, mpie_across_cells(mesh)) with R_P chosen for `target_density` in (0, 1]:
// nnz(R_P) is a step function, changing only where R_P² crosses an integer or A = 2.04 R_P
// does, so R_P is bisected over those points. The result is the density closest to the target
// among those no more than 0.002 above it; among the radii with that pattern (the patterns are
// nested, so equal nnz means equal pattern) the largest, which keeps the most of P on it. When
// even R_P = 0 is more than 0.002 above the target, R_P = 0.
// Depends on the mesh only, not on the frequency. Throws std::invalid_argument for a target
// outside (0, 1], and (as mpie_pattern) for a mesh of oblong cells: the reaches are circles and
// boxes of square cells.
[[nodiscard]] MpieDensityChoice choose_mpie_sparsity(const geometry::Mesh& mesh,
                                                     double target_density);

// The pattern alone, for the mesh's rooftops in basis order: it depends on the mesh and the
// reaches only, so a sweep builds it once. Sorted columns, symmetric, the diagonal in it.
// Parallel (OpenMP over rows, two passes: count, then fill); memory: the two index arrays plus
// one mark per rooftop and thread. Throws std::invalid_argument for a negative or non-finite
// reach, std::length_error when nnz exceeds 32-bit indices.
struct MpiePattern {
  MpieSparsity sparsity;
  index_t n = 0;
  std::vector<index_t> row_ptr{0}, col_idx;  // as in Csr
  [[nodiscard]] index_t nnz() const { return row_ptr.back(); }
};
[[nodiscard]] MpiePattern mpie_pattern(const geometry::Mesh& mesh, const MpieSparsity& sparsity);

// Z_s as CSR (N×N, sorted columns, symmetric pattern and values, diagonal present) for the
// mesh's rooftops in basis order, from tables built for the mesh, on `pattern` (built for the
// mesh) or on the pattern of `sparsity`. Parallel (OpenMP over rows); memory: the CSR arrays.
// Throws std::invalid_argument when the tables do not match the grid, the pattern has another
// size than the mesh's basis, or a reach is negative or not finite; std::length_error when nnz
// exceeds 32-bit indices.
[[nodiscard]] Csr<std::complex<double>> assemble_sparse_impedance(
    const geometry::Mesh& mesh, const InteractionTables& tables, const MpiePattern& pattern);
[[nodiscard]] Csr<std::complex<double>> assemble_sparse_impedance(
    const geometry::Mesh& mesh, const InteractionTables& tables, const MpieSparsity& sparsity);

}  // namespace pmom::mom
