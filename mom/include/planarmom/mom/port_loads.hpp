// Lumped series loads on the mesh's loaded gaps (geometry::Mesh::loaded_gaps): every port's
// delta gap terminated by an impedance (the undriven ones as on a measurement bench, the driven
// one as its source's internal impedance) instead of the ideal short that leaves the layout a
// high-Q resonator of open-ended feeds; and every lumped element of the layout (R, L, C) on
// its grid line across a strip, which is the same load on a gap with no source.
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
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/gpusolver/csr.hpp"
#include "planarmom/mom/assembly.hpp"

namespace pmom::mom {

// Adds load[g] (Ω, one per loaded gap in Mesh::loaded_gaps' order: the ports', then the lumped
// elements'; 0 leaves that gap a short and Z bit for bit unchanged there) to Z (built for the
// mesh, in basis order). Throws std::invalid_argument when the sizes disagree or a load is not
// finite; for the CSR form also when Z's pattern lacks a pair of some loaded gap's rooftops
// (the mpie pattern always holds them: they are same-axis neighbours across the strip, inside
// its L box, for strips up to 6 cells wide; sparse_assembly.hpp).
void add_gap_loads(const geometry::Mesh& mesh, std::span<const std::complex<double>> load_ohm,
                    ImpedanceMatrix& z);
void add_gap_loads(const geometry::Mesh& mesh, std::span<const std::complex<double>> load_ohm,
                    Csr<std::complex<double>>& z);

// A lumped element's impedance (Ω) at a frequency: R + jωL + 1/(jωC) in series, or
// 1/(1/R + 1/(jωL) + jωC) in parallel, a part of value 0 left out.
std::complex<double> lumped_impedance(const geometry::LumpedElement& element,
                                      double frequency_hz);
// The loads of every loaded gap (add_gap_loads' order): `port_loads` (one per port) followed by
// each lumped element's load at the frequency: its impedance Z with its gap's own shunt
// admittance Y (one per element; FeedImpedances::gap_shunts) taken out, 1/(1/Z − Y), so that
// the gap and its load together are the element. Throws std::invalid_argument where that
// load is infinite (an element whose admittance is the gap's own).
std::vector<std::complex<double>> gap_loads(const geometry::Mesh& mesh,
                                            std::span<const std::complex<double>> port_loads,
                                            double frequency_hz,
                                            std::span<const std::complex<double>> gap_shunts);

}  // namespace pmom::mom
