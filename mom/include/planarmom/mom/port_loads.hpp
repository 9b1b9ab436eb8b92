// Lumped series loads in the ports' delta gaps: every port terminated by an impedance (the
// undriven ones as on a measurement bench, the driven one as its source's internal impedance)
// instead of the ideal short that leaves the layout a high-Q resonator of open-ended feeds.
//
// Why the load is a block, not a diagonal entry: the gap's field E = V δ(s − s_e) has one
// voltage V across the whole cross-section (assembly.hpp, delta_gap_excitation), so a load Z_L
// there sets V = V_source − Z_L I with I the gap's total current, a Σ_{n ∈ gap} I_n (I_n are
// current densities across edges of length a; the edge profiles have mean 1, edge_profile.hpp).
// Tested with each gap rooftop m (⟨f_m, V δ⟩ = V a) the equations become
//   Σ_n Z_mn I_n + Z_L a² Σ_{n ∈ gap} I_n = V_source a,
// so Z_L a² is added to every pair (m, n) of the gap's rooftops, whatever the feed's direction
// (the load opposes the current either way). Z stays complex symmetric.
#pragma once

#include <complex>
#include <span>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/gpusolver/csr.hpp"
#include "planarmom/mom/assembly.hpp"

namespace pmom::mom {

// Adds load[p] (Ω, one per mesh port in port order; 0 leaves that gap a short and Z bit for
// bit unchanged there) to Z (built for the mesh, in basis order). Throws std::invalid_argument
// when the sizes disagree or a load is not finite; for the CSR form also when Z's pattern lacks
// a pair of some loaded gap's rooftops (the mpie pattern always holds them: they are same-axis
// neighbours across the feed, inside its L box, for feeds up to 6 cells wide;
// sparse_assembly.hpp).
void add_port_loads(const geometry::Mesh& mesh, std::span<const std::complex<double>> load_ohm,
                    ImpedanceMatrix& z);
void add_port_loads(const geometry::Mesh& mesh, std::span<const std::complex<double>> load_ohm,
                    Csr<std::complex<double>>& z);

}  // namespace pmom::mom
