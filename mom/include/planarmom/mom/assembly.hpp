// Galerkin MPIE impedance matrix and delta-gap excitation on the uniform rooftop grid
// (DESIGN §5). Time convention e^{+jωt}, SI units.
//
// Sign derivation. The scattered field of the surface current J is E_s = −jωA − ∇Φ with
// A = G_A * J, Φ = G_V * q and continuity ∇·J + jωq = 0, so q = −∇·J/(jω). On the conductor
// E_s = −E_i; testing with f_m and integrating by parts (rooftops have no normal component on
// their support boundary, so ⟨f_m, ∇Φ⟩ = −⟨∇·f_m, Φ⟩) gives Σ_n Z_mn I_n = ⟨f_m, E_i⟩ with
//   Z_mn = jω ⟨f_m, G_A f_n⟩ + (1/(jω)) ⟨∇·f_m, G_V ∇·f_n⟩.
// Rooftop of unit amplitude on the edge between its minus and plus cells (cell size a):
// f = (1 − |s − s_e|/a) along its axis, so ∇·f = +1/a on the minus cell and −1/a on the plus
// cell. The vector part couples same-axis rooftops only; the scalar part is
//   (1/a²) Σ_{c ∈ m, c' ∈ n} s_c s_c' P(c' − c),  s = +1 (minus), −1 (plus),
//   P(Δ) = ∫_cell ∫_cell+Δ G_V dS dS'.
// Check: an isolated rooftop has P(0) + P(0) − 2P(±1) > 0, so its scalar term is
// −j·(positive)/ω: capacitive, Im Z < 0 for e^{+jωt} (Z = 1/(jωC)), and it dominates at low
// frequency (the test checks this for εr = 1). Units: I_n in A/m (current density across
// the edge), Z in Ω·m², V_m in V·m.
//
// Translation invariance: with a the cell size, all integrals depend on the offset only and
// are tabulated once per frequency for 0 ≤ Δi < nx, 0 ≤ Δj < ny (they are even in each
// component). In the difference variable d = r' − r (in cells) the double surface integrals
// become single ones against the overlap weights: cell×cell → tent(dx) tent(dy), x-rooftop ×
// x-rooftop → B(dx) tent(dy) with B the triangle autocorrelation (the cubic B-spline,
// pieces on unit intervals). Gauss–Legendre on each unit piece integrates the weights exactly:
//   far (centre distance ≥ near_cells): G from the table, far_order points per piece;
//   near: G = c/R + smooth; smooth from the table with near_order points per piece; the 1/R
//   part with the inner (source) integral over its rectangle in closed form
//   (rect_integrals.hpp; the triangle weight of a rooftop source is linear on each half, so
//   it is I0 and I1 there, also closed form) and the outer (observer) integral by Gauss on
//   each unit panel after the substitution u = t²(3 − 2t): the inner potential has
//   (x − e) ln|x − e| terms at the panel edges e, which the substitution smooths.
#pragma once

#include <complex>
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/mom/greens_table.hpp"
#include "planarmom/mom/rect_integrals.hpp"

namespace pmom::mom {

struct AssemblyOptions {
  int far_order = 4;        // Gauss points per unit piece of the weight, far offsets
  int near_order = 8;       // the same for the smooth part of near offsets
  int outer_order = 16;     // observer points per unit panel and dimension, 1/R part (~3e-8)
  double near_cells = 3.0;  // offsets whose centre distance (cells) is below this are near
};

// The 1/R integrals for unit cells, observer at offset 0 (multiply by a³):
// ∫_{[0,1]²} ∫_{[Δi,Δi+1]×[Δj,Δj+1]} 1/R, and for x-rooftops on edges x = 0 and x = Δi in
// rows 0 and Δj, ∫∫ tri(x) tri(x' − Δi) / R. Analytic inner, outer_order-point outer rule.
double static_cell_overlap(int di, int dj, int outer_order);
double static_rooftop_overlap(int di, int dj, int outer_order);

// The offset tables of one frequency. Index dj·nx + di with di = |Δi| < nx, dj = |Δj| < ny:
// axx: x-rooftops, Δ = offset of their edges (cells); ayy: y-rooftops, the same integral with
// the components swapped, ayy(Δi, Δj) = axx-integral(Δj, Δi); p: P(Δ). All in SI (m⁴·G).
struct InteractionTables {
  double frequency_hz = 0;
  double cell_m = 0;
  int nx = 0, ny = 0;
  std::vector<std::complex<double>> axx, ayy, p;
  long long greens_evaluations = 0;  // table lookups made to build them
};

// The ρ range the Green's table must cover for a grid (m).
double required_rho_max(const geometry::Grid& grid);

// Throws std::invalid_argument when greens.rho_max() < required_rho_max(grid) or an order
// is below 1. Offsets are computed in parallel (OpenMP).
InteractionTables make_interaction_tables(const GreensTable& greens, const geometry::Grid& grid,
                                          const AssemblyOptions& options = {});

// A rooftop reduced to what the entry kernel needs: axis 0 = x, 1 = y; (i, j) its minus cell
// (the plus cell is the next one along the axis).
struct RooftopCells {
  int axis = 0;
  int i = 0, j = 0;
};

// Raw view of the tables for the per-entry kernel (host or device memory).
struct TableView {
  const std::complex<double>* axx = nullptr;
  const std::complex<double>* ayy = nullptr;
  const std::complex<double>* p = nullptr;
  int nx = 0;
  std::complex<double> jw;  // jω
  double inv_a2 = 0;        // 1/a²
};

PLANARMOM_HD inline int offset_index(int nx, int di, int dj) {
  return (dj < 0 ? -dj : dj) * nx + (di < 0 ? -di : di);
}

// Z_mn from the tables; no exceptions or allocation (a later GPU assembly calls it per entry).
PLANARMOM_HD inline std::complex<double> impedance_entry(const TableView& t, RooftopCells m,
                                                         RooftopCells n) {
  std::complex<double> vector_part = 0.0;
  if (m.axis == n.axis) {
    vector_part = (m.axis == 0 ? t.axx : t.ayy)[offset_index(t.nx, n.i - m.i, n.j - m.j)];
  }
  const int m_pi = m.i + (m.axis == 0 ? 1 : 0), m_pj = m.j + (m.axis == 1 ? 1 : 0);
  const int n_pi = n.i + (n.axis == 0 ? 1 : 0), n_pj = n.j + (n.axis == 1 ? 1 : 0);
  // s_c s_c': minus·minus and plus·plus +1, mixed −1.
  const std::complex<double> charge = t.p[offset_index(t.nx, n.i - m.i, n.j - m.j)] -
                                      t.p[offset_index(t.nx, n_pi - m.i, n_pj - m.j)] -
                                      t.p[offset_index(t.nx, n.i - m_pi, n.j - m_pj)] +
                                      t.p[offset_index(t.nx, n_pi - m_pi, n_pj - m_pj)];
  return t.jw * vector_part + charge * t.inv_a2 / t.jw;
}

// Dense N×N, row-major.
struct ImpedanceMatrix {
  int n = 0;
  std::vector<std::complex<double>> values;
  std::complex<double>& operator()(int row, int col) {
    return values[static_cast<std::size_t>(row) * static_cast<std::size_t>(n) +
                  static_cast<std::size_t>(col)];
  }
  const std::complex<double>& operator()(int row, int col) const {
    return values[static_cast<std::size_t>(row) * static_cast<std::size_t>(n) +
                  static_cast<std::size_t>(col)];
  }
};

// Z for the mesh's rooftops (in mesh.basis() order) from tables built for mesh.grid().
// Fills the upper triangle in parallel (OpenMP over rows) and mirrors it: Z is symmetric.
// Throws std::invalid_argument when the tables do not match the grid.
ImpedanceMatrix assemble_impedance(const geometry::Mesh& mesh, const InteractionTables& tables);

// Delta-gap excitation. The gap field E = V δ(s − s_e) along the rooftops' axis on their
// common grid line (s_e), across the whole cross-section, gives
// V_m = ⟨f_m, E⟩ = V · (edge length a) · f_m(s_e) = V·a for each rooftop m in `basis`, 0
// elsewhere. V drives current along +axis (minus → plus cell). Throws std::out_of_range for
// an index outside [0, unknowns).
std::vector<std::complex<double>> delta_gap_excitation(int unknowns, const std::vector<int>& basis,
                                                       std::complex<double> voltage,
                                                       double cell_m);

}  // namespace pmom::mom
