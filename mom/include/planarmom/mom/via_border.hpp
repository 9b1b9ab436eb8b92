// Z's rows and columns of the vias (issue 37): each via cell is one unknown after the mesh's
// basis (geometry::Mesh::unknowns), a vertical current from its cell down to the ground,
// uniform along the via, with the charge shape across that its cell's first rooftop gives the cell
// (so that every charge table entry it reads is one the rooftops read too; via_greens.hpp).
//
// Normalisation: a via unknown of amplitude x carries a_y·x amperes down (a_x × a_y cells),
// so that its charge on the surface is that of an x-rooftop's minus cell, ρ_c/a_x: Z keeps
// one scale. With P_K(Δ) = ∫_c ∫_c+Δ ρ_c ρ_c' K dS dS' (the charge tables for K = G_V):
//   Z_{v,m} = (1/a_x²) d_m Σ_{c ∈ m} s_c [P_V(c_v − c)/(jω) − P_vh(c_v − c)],
//   Z_{v,v'} = (1/a_x²) [P_V(c_v' − c_v)/(jω) + P_vv(c_v' − c_v)],
// s_c = +1 on a rooftop's minus cell, −1 on its plus cell, d_m = a_x/a_y for a y-rooftop and 1
// otherwise (assembly.hpp), a cell bubble the difference of its two rooftops. P_V is read from
// the offset tables (every pair of metal cells is in them), P_vh and P_vv integrated here by
// the tables' Gauss rules of the profiles' overlaps; K_vv's logarithmic part K0(ρ/h) with
// more points where the cells are near.
#pragma once

#include <complex>
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/via_greens.hpp"

namespace pmom::mom {

struct ViaBorder {
  int rooftops = 0, vias = 0;              // the basis functions and the via cells
  std::vector<std::complex<double>> rows;  // vias × rooftops, row-major: Z_{v,m}
  std::vector<std::complex<double>> block;  // vias × vias: Z_{v,v'}
};

// Throws std::invalid_argument when the tables or kernels were not made for the mesh (grid,
// frequency, reach), or a charge entry a via needs is missing from the tables.
ViaBorder via_border(const geometry::Mesh& mesh, const InteractionTables& tables,
                     const ViaKernels& kernels);

// Writes the border into z (z.n = mesh.unknowns()): rows and columns after the basis.
void add_via_border(const ViaBorder& border, ImpedanceMatrix& z);

// Adds the border's part of Z x to y for one column, x and y of rooftops + vias entries: the
// rooftops' rows gain Bᵀ x_v, the vias' rows B x_h + Z_vv x_v (for a product whose rooftop
// block is made otherwise, the FFT operator's).
void via_border_product(const ViaBorder& border, const std::complex<double>* x,
                        std::complex<double>* y);
// Z_ij where i or j is a via unknown (the other any unknown); i and j both rooftops: 0.
[[nodiscard]] std::complex<double> via_border_entry(const ViaBorder& border, long long i,
                                                    long long j);

}  // namespace pmom::mom
