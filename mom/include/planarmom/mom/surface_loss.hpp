// The strips' conductor loss in Z. On metal of surface impedance Zs (surface_impedance.hpp) the
// tangential field is Zs J instead of 0, so testing with f_m adds Zs ⟨f_m, f_n⟩ to Z_mn: the
// basis's Gram matrix, nonzero only where two functions of one axis share a cell (the same
// edge, or neighbours along the axis in the same row). In the tables' terms (assembly.hpp)
// ⟨f_m, f_n⟩ = a² B(Δ along) c(Δ across), with B the overlap of the two ramps and c that of the
// two profiles across (edge_profile.hpp), a cell bubble as its two rooftops. Z stays complex
// symmetric. The edge profiles are piecewise constant (finest segment 1/64 of a cell), which
// also bounds the edge's current crowding as a strip's thickness does.
#pragma once

#include <complex>
#include <span>
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/gpusolver/csr.hpp"
#include "planarmom/mom/assembly.hpp"

namespace pmom::mom {

// One entry of the Gram matrix, m²; both (m, n) and (n, m) are listed.
struct GramEntry {
  index_t row = 0, col = 0;
  double value = 0;
};

// The Gram matrix of the mesh's basis functions (basis order), edge-shaped as the assembly's
// (AssemblyOptions::edge_profiles), entries sorted by row then column.
std::vector<GramEntry> basis_gram(const geometry::Mesh& mesh, bool edge_profiles);

// Z += zs · gram. Throws std::invalid_argument when an entry lies outside Z, or, for the CSR
// form, when Z's pattern lacks one (the mpie pattern holds them all: same-axis neighbours).
void add_surface_impedance(std::span<const GramEntry> gram, std::complex<double> zs,
                           ImpedanceMatrix& z);
void add_surface_impedance(std::span<const GramEntry> gram, std::complex<double> zs,
                           Csr<std::complex<double>>& z);

}  // namespace pmom::mom
