// The strips' conductor loss in Z. A strip of finite conductivity absorbs, per area,
// ½ Re[Z_sheet] |K|² + ½ Re[Z_image] |H_s|² (surface_impedance.hpp: K its current, H_s the sum
// of the tangential fields other currents put on its two faces). Testing the field that
// absorption implies with f_m adds to Z_mn
//   Z_sheet ⟨f_m, f_n⟩ + Z_image · 4 ⟨k ⊛ f_m, k ⊛ f_n⟩_metal,
// the first the basis's Gram matrix, nonzero only where two functions of one axis share a cell;
// the second from H_s = 2 k ⊛ J: at the strips' height h the ground's image current −J at
// depth 2h gives, quasi-statically (the ground a mirror for H; μr = 1 in the substrate),
// H_s = ẑ × 2 (k ⊛ J), k(ρ) = 2h / (4π (ρ² + 4h²)^{3/2}) (∫ k = ½: under a wide strip
// H_s = J, all its current on the ground-facing face; on a lone narrow strip H_s → 0, half on
// each). In the tables' terms (assembly.hpp) ⟨f_m, f_n⟩ = a² B(Δ along) c(Δ across), with B
// the overlap of the two ramps and c that of the two profiles across (edge_profile.hpp), a
// cell bubble as its two rooftops; the image term is integrated on sub-cells (masses of the
// basis on a lattice of a/n, a/n ≤ h/2) with k cut beyond a few h (StripLossOptions). Z stays complex
// symmetric. The edge profiles are piecewise constant (finest segment 1/64 of a cell), which
// also bounds the edge's current crowding as a strip's thickness does.
#pragma once

#include <complex>
#include <span>
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/gpusolver/csr.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/surface_impedance.hpp"

namespace pmom::mom {

// One entry of the strips' loss terms, m²: value ⟨f_m, f_n⟩ (the Gram matrix) and image
// 4⟨k ⊛ f_m, k ⊛ f_n⟩; both (m, n) and (n, m) are listed.
struct GramEntry {
  index_t row = 0, col = 0;
  double value = 0;
  double image = 0;
};

// The Gram matrix of the mesh's basis functions (basis order), edge-shaped as the assembly's
// (AssemblyOptions::edge_profiles), entries sorted by row then column.
std::vector<GramEntry> basis_gram(const geometry::Mesh& mesh, bool edge_profiles);

struct StripLossOptions {
  // k is cut beyond this many substrate heights: of a long strip's field (∝ W h / R² beyond
  // R) 1-3% is lost for W ≤ 3h; under metal much wider than R, (1 − 2h/√(R² + 4h²))² of the
  // image term is kept (0.47 at 6h)
  double image_reach_heights = 6.0;
};

// The Gram matrix with the image term beside it: every pair of same-axis functions within
// about twice the reach, sorted by row then column. Parallel (OpenMP over functions).
std::vector<GramEntry> strip_loss_entries(const geometry::Mesh& mesh, bool edge_profiles,
                                          const StripLossOptions& options = {});

// The entries that lie in a CSR pattern (row_ptr, sorted col_idx); the image term's far ones a
// sparse Z does not hold are left out.
std::vector<GramEntry> entries_in_pattern(std::span<const GramEntry> entries,
                                          std::span<const index_t> row_ptr,
                                          std::span<const index_t> col_idx);

// Z += strip.sheet · value + strip.image · image. Throws std::invalid_argument when an entry
// lies outside Z, or, for the CSR form, when Z's pattern lacks one.
void add_surface_impedance(std::span<const GramEntry> gram, const StripImpedance& strip,
                           ImpedanceMatrix& z);
void add_surface_impedance(std::span<const GramEntry> gram, const StripImpedance& strip,
                           Csr<std::complex<double>>& z);

}  // namespace pmom::mom
