// Galerkin MPIE impedance matrix and delta-gap excitation on the uniform rooftop grid
// (DESIGN §5). Time convention e^{+jωt}, SI units.
//
// Sign derivation. The scattered field of the surface current J is E_s = −jωA − ∇Φ with
// A = G_A * J, Φ = G_V * q and continuity ∇·J + jωq = 0, so q = −∇·J/(jω). On the conductor
// E_s = −E_i; testing with f_m and integrating by parts (rooftops have no normal component on
// their support boundary, so ⟨f_m, ∇Φ⟩ = −⟨∇·f_m, Φ⟩) gives Σ_n Z_mn I_n = ⟨f_m, E_i⟩ with
//   Z_mn = jω ⟨f_m, G_A f_n⟩ + (1/(jω)) ⟨∇·f_m, G_V ∇·f_n⟩.
// Rooftop of unit amplitude on the edge between its minus and plus cells (cells of sides
// a_x × a_y; a the side along the rooftop's axis): f = r(s) p(across) along its axis (r the
// ramp, the triangle 1 − |s − s_e|/a away from edges; p the transverse profile, mean 1;
// edge_profile.hpp), so ∇·f = +ρ/a on the minus cell and −ρ/a on the plus cell, ρ = r'·a·p
// the cell's charge shape (mean 1). The vector part couples same-axis rooftops only; the
// scalar part is
//   (1/(a_m a_n)) Σ_{c ∈ m, c' ∈ n} s_c s_c' P(c' − c),  s = +1 (minus), −1 (plus),
//   P(Δ) = ∫_cell ∫_cell+Δ ρ_c ρ_c' G_V dS dS'.
// Check: an isolated rooftop has P(0) + P(0) − 2P(±1) > 0, so its scalar term is
// −j·(positive)/ω: capacitive, Im Z < 0 for e^{+jωt} (Z = 1/(jωC)), and it dominates at low
// frequency (the test checks this for εr = 1). Units: I_n in A/m (current density across
// the edge), Z in Ω·m², V_m in V·m.
//
// Edge shapes (edge_profile.hpp): every cell beside a metal edge holds an edge-weighted charge
// shape and the rooftops touching it carry the matching ramp and profile. Every integral then
// depends on the kinds of the two rooftops (their ramp's two cells and their profile across)
// or of the two cells' charge shapes, and on their offset only. A rooftop joining cells with
// different edges across is uniform across; the cell bubbles beside it (geometry::Rooftop)
// are differences of two rooftops (RooftopCells), so they add no kind of integral.
//
// Translation invariance: on the uniform grid the integrals are tabulated once per frequency
// per pair of kinds, for the signed offsets −nx < Δi < nx, −ny < Δj < ny that the mesh
// uses (reduced by reciprocity and by evenness where both shapes are symmetric). In the
// difference variable d = r' − r (in cells) the double surface integrals become single ones
// against the overlap weights: cell×cell → c_x(dx) c_y(dy), x-rooftop × x-rooftop →
// B(dx) c_y(dy), with B the ramps' overlap (the cubic B-spline for two triangles) and c the
// overlap of two profiles (the tent for uniform ones). Gauss rules of those weights on each
// unit piece (edge_profile.hpp):
//   far (centre distance ≥ near_cells): G from the table, far_order points per piece,
//   distant_order beyond distant_cells and remote_order beyond remote_cells (G varies ever less
//   over a cell there: a rule of q points per piece errs like (1/distance)^(2q));
//   near: G = c/R + smooth; smooth from the table with near_order points per piece; the 1/R
//   part with the inner (source) integral over each rectangle of the source (density constant
//   across, linear along) in closed form (rect_integrals.hpp: I0 and I1) and the outer
//   (observer) integral by
//   Gauss on panels that end at every source rectangle's edge, after the substitution
//   u = t²(3 − 2t): the inner potential has (x − e) ln|x − e| terms at those edges e, which
//   the substitution smooths.
#pragma once

#include <array>
#include <cmath>
#include <complex>
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/mom/greens_table.hpp"
#include "planarmom/mom/rect_integrals.hpp"

namespace pmom::mom {

struct AssemblyOptions {
  int far_order = 4;          // Gauss points per unit piece of the weight, far offsets
  int near_order = 8;         // the same for the smooth part of near offsets
  int outer_order = 16;       // observer points per panel and dimension, 1/R part (~3e-8)
  double near_cells = 3.0;    // offsets whose centre distance (cells) is below this are near
  int distant_order = 3;      // Gauss points per unit piece from distant_cells on
  double distant_cells = 12.0;
  int remote_order = 2;       // the same from remote_cells on
  double remote_cells = 40.0;
  bool edge_profiles = true;  // false: plain rooftops everywhere (for comparisons)
};

// The profiles of a cell's charge density across x and across y.
struct CellProfile {
  geometry::Edge x = geometry::Edge::none, y = geometry::Edge::none;
};

// How far apart two shapes Δ = (di, dj) cells apart lie for the quadrature: their centres'
// distance in the cell's longer side (dx, dy its sides, in any one unit) against the options'
// near, distant and remote distances. The offset tables' entries and the vias' rows
// (via_border.hpp) pick their Gauss orders by it.
enum class Reach { near, far, distant, remote };
Reach reach_of(const AssemblyOptions& options, double dx, double dy, int di, int dj);

// The 1/R integrals for unit cells, observer at offset 0, with R = √(X² + (ηY)²) for cells
// η times as long in the second coordinate as in the first (multiply by a_1 a_2², a_1 and
// a_2 = η a_1 the sides): ∫_{[0,1]²} ∫_{[Δi,Δi+1]×[Δj,Δj+1]} ρ_obs ρ_src / R, and for
// rooftops along the first coordinate on edges 0 and Δi in rows 0 and Δj,
// ∫∫ r_obs(x) p_obs(y) r_src(x' − Δi) p_src(y' − Δj) / R. Analytic inner, outer_order points
// per observer panel and dimension.
double static_cell_overlap(int di, int dj, int outer_order, CellProfile obs = {},
                           CellProfile src = {}, double eta = 1.0);

// A rooftop's shape: the edges of its minus and plus cells along its axis (its ramp) and
// across it (its profile), as geometry::Edge.
struct RooftopShape {
  geometry::Edge minus = geometry::Edge::none, plus = geometry::Edge::none,
                 across = geometry::Edge::none;
};
double static_rooftop_overlap(int di, int dj, int outer_order, RooftopShape obs = {},
                              RooftopShape src = {}, double eta = 1.0);

// Kinds. A rooftop: 9·minus + 3·plus + across (each edge 0 none, 1 low, 2 high), per axis
// (0 = x, 1 = y). A cell's charge shape: 3·(edge along x) + (edge along y).
inline constexpr int kRooftopKinds = 27;
inline constexpr int kChargeKinds = 9;
inline constexpr int kVectorTables = 2 * kRooftopKinds * kRooftopKinds;
inline constexpr int kTables = kVectorTables + kChargeKinds * kChargeKinds;

PLANARMOM_HD inline int vector_table(int axis, int obs_kind, int src_kind) {
  return (axis * kRooftopKinds + obs_kind) * kRooftopKinds + src_kind;
}
PLANARMOM_HD inline int charge_table(int obs_kind, int src_kind) {
  return kVectorTables + obs_kind * kChargeKinds + src_kind;
}

// A mesh with metal on several layers (geometry::Mesh::layers) has a set of tables per pair of
// layers, the G between their interfaces: unordered, since G_ab(ρ) = G_ba(ρ) (reciprocity of
// formulation C's horizontal kernels, layered_spectrum.hpp), a ≤ b numbered row by row:
// (0,0), (0,1), …, (0,L−1), (1,1), …
PLANARMOM_HD inline int layer_pairs(int layers) { return layers * (layers + 1) / 2; }
PLANARMOM_HD inline int layer_pair(int a, int b, int layers) {
  if (a > b) {
    const int t = a;
    a = b;
    b = t;
  }
  return a * layers - a * (a - 1) / 2 + (b - a);
}

// Position of a signed offset in a table.
PLANARMOM_HD inline long long offset_index(int nx, int ny, int di, int dj) {
  return static_cast<long long>(dj + ny - 1) * (2 * nx - 1) + (di + nx - 1);
}

// The offset tables of one frequency, in SI (m⁴·G). Table vector_table(axis, k_m, k_n) at
// offset Δ = (minus cell of n) − (minus cell of m): ⟨f_m, G_A f_n⟩ for rooftops of that axis
// and those kinds; charge_table(k_c, k_c'): P(Δ) = ∫_cell ∫_cell+Δ ρ_c ρ_c' G_V for charge
// shapes of those kinds. Only the tables and offsets the mesh uses are computed; the others
// hold zeros. A mesh with metal on several layers: `values` holds layer_pairs(layers) such
// sets, each pair_size values laid out by the same `start`, at layer_pair(a, b)·pair_size.
struct InteractionTables {
  double frequency_hz = 0;
  double dx_m = 0, dy_m = 0;  // the cell's sides
  int nx = 0, ny = 0;
  bool edge_profiles = true;
  std::vector<std::complex<double>> values;
  std::vector<long long> start;     // kTables: each table's first entry in values, −1: absent
  long long greens_evaluations = 0;  // table lookups made to build them
  int layers = 1;                    // the mesh's metal layers
  long long pair_size = 0;           // the values of one pair of layers' tables

  // Whether they were built for the grid's cells and extent.
  [[nodiscard]] bool built_for(const geometry::Grid& grid) const {
    return grid.nx == nx && grid.ny == ny && std::abs(grid.dx_mm * 1e-3 - dx_m) <= 1e-12 * dx_m &&
           std::abs(grid.dy_mm * 1e-3 - dy_m) <= 1e-12 * dy_m;
  }
  // Pair 0: the tables of a one-layer mesh, or of its first layer's own metal.
  [[nodiscard]] std::complex<double> at(int table, int di, int dj, int pair = 0) const {
    return values[static_cast<std::size_t>(pair * pair_size +
                                           start[static_cast<std::size_t>(table)] +
                                           offset_index(nx, ny, di, dj))];
  }
};

// The ρ range the Green's table must cover for a grid (m).
double required_rho_max(const geometry::Grid& grid);

// Throws std::invalid_argument when greens.rho_max() < required_rho_max(mesh.grid()), an
// order is below 1, or the options ask for plain rooftops on a mesh with cell bubbles (which
// are zero without edge shapes: mesh it with make_mesh(..., false)). Offsets are computed in
// parallel (OpenMP).
InteractionTables make_interaction_tables(const GreensTable& greens, const geometry::Mesh& mesh,
                                          const AssemblyOptions& options = {});

// A basis function reduced to what the entry kernel needs: axis 0 = x, 1 = y; (i, j) its minus
// cell (the plus cell is the next one along the axis); its kind, and the charge kinds of its
// minus and plus cells. A cell bubble (geometry::Rooftop::bubble) is the difference of two
// rooftops on one side of its cell that differ only in the ramp's half inside the cell:
// edge-weighted (running integral of the edge profile, √t for a low edge) minus straight (t).
// That difference, √t − t, is zero on the cell's sides, and the halves outside the cell are
// equal and cancel, so every integral of a bubble is one of the existing tables. kind2 and
// the charges2 are the subtracted rooftop's (kind2 −1: a plain rooftop, nothing subtracted).
struct RooftopCells {
  int axis = 0;
  int i = 0, j = 0;
  int kind = 0;
  int minus_charge = 0, plus_charge = 0;
  int kind2 = -1, minus_charge2 = 0, plus_charge2 = 0;

  // The subtracted rooftop of a bubble.
  [[nodiscard]] PLANARMOM_HD RooftopCells subtracted() const {
    return {axis, i, j, kind2, minus_charge2, plus_charge2};
  }
};

// The mesh's basis functions in basis order; all uniform when edge_profiles is false (a
// bubble's two rooftops are then equal: only its place means anything, as the sparse pattern
// uses it).
std::vector<RooftopCells> rooftop_cells(const geometry::Mesh& mesh, bool edge_profiles);

// Raw view of the tables for the per-entry kernel (host or device memory). C is
// std::complex<double> on the host and cuda::std::complex<double> in the CUDA fill (the same
// layout).
template <class C> struct TableViewT {
  const C* values = nullptr;
  const long long* start = nullptr;  // kTables entries
  int nx = 0, ny = 0;
  C jw;                 // jω
  double inv_a2 = 0;    // 1/a_x²
  double y_charge = 1;  // a_x/a_y: a y-rooftop's charge per unit of an x-rooftop's

  // The entry kernels below read the tables through value() only (make_table_plan passes a
  // reader of its own to find which entries a sparse pattern reads).
  PLANARMOM_HD C value(int table, int di, int dj) const {
    return values[start[table] + offset_index(nx, ny, di, dj)];
  }
};
using TableView = TableViewT<std::complex<double>>;

template <class C>
PLANARMOM_HD inline C table_value(const TableViewT<C>& t, int table, int di, int dj) {
  return t.value(table, di, dj);
}

// Z_mn from the tables; no exceptions or allocation (a later GPU assembly calls it per entry).
// charge_reach2: the scalar part keeps only the charge-piece pairs whose offset (in cells) has
// squared length <= charge_reach2 (the structure-preserving sparse assembly,
// sparse_assembly.hpp); the default keeps all, and the sum's order is the same either way, so
// a full reach gives the dense entry bit for bit.
// Tables: TableViewT, or anything with value(table, di, dj), jw, inv_a2 and y_charge.
template <class Tables>
PLANARMOM_HD inline auto impedance_entry(const Tables& t, RooftopCells m, RooftopCells n,
                                         double charge_reach2 = HUGE_VAL) {
  using C = decltype(t.value(0, 0, 0));
  C vector_part(0.0);
  if (m.axis == n.axis) {
    vector_part = t.value(vector_table(m.axis, m.kind, n.kind), n.i - m.i, n.j - m.j);
  }
  const int m_pi = m.i + (m.axis == 0 ? 1 : 0), m_pj = m.j + (m.axis == 1 ? 1 : 0);
  const int n_pi = n.i + (n.axis == 0 ? 1 : 0), n_pj = n.j + (n.axis == 1 ? 1 : 0);
  const auto near = [charge_reach2](int di, int dj) {
    return double(di) * di + double(dj) * dj <= charge_reach2;
  };
  // s_c s_c': minus·minus and plus·plus +1, mixed −1.
  C charge(0.0);
  if (near(n.i - m.i, n.j - m.j))
    charge += t.value(charge_table(m.minus_charge, n.minus_charge), n.i - m.i, n.j - m.j);
  if (near(n_pi - m.i, n_pj - m.j))
    charge -= t.value(charge_table(m.minus_charge, n.plus_charge), n_pi - m.i, n_pj - m.j);
  if (near(n.i - m_pi, n.j - m_pj))
    charge -= t.value(charge_table(m.plus_charge, n.minus_charge), n.i - m_pi, n.j - m_pj);
  if (near(n_pi - m_pi, n_pj - m_pj))
    charge += t.value(charge_table(m.plus_charge, n.plus_charge), n_pi - m_pi, n_pj - m_pj);
  const double divergences = (m.axis == 1 ? t.y_charge : 1.0) * (n.axis == 1 ? t.y_charge : 1.0);
  return C(t.jw * vector_part + charge * (t.inv_a2 * divergences) / t.jw);
}

// Z_mn of two basis functions: impedance_entry of their rooftops, with a bubble's subtracted
// rooftop taken away (four terms for two bubbles).
template <class Tables>
PLANARMOM_HD inline auto basis_entry(const Tables& t, RooftopCells m, RooftopCells n,
                                     double charge_reach2 = HUGE_VAL) {
  auto z = impedance_entry(t, m, n, charge_reach2);
  if (n.kind2 >= 0) z -= impedance_entry(t, m, n.subtracted(), charge_reach2);
  if (m.kind2 >= 0) {
    z -= impedance_entry(t, m.subtracted(), n, charge_reach2);
    if (n.kind2 >= 0) z += impedance_entry(t, m.subtracted(), n.subtracted(), charge_reach2);
  }
  return z;
}

// A view of tables in host memory: those of one pair of layers (layer_pair).
TableView host_view(const InteractionTables& tables, int pair = 0);

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

class ViaKernels;  // via_greens.hpp

// Z for the mesh's unknowns (mesh.basis() order, then the via cells: via_border.hpp) from tables
// built for the mesh (a pair of its layers' for each entry) and, where it has vias, their
// kernels at the tables' frequency.
// Fills the upper triangle in parallel (OpenMP over rows) and mirrors it: Z is symmetric.
// Throws std::invalid_argument when the tables do not match the grid or the layers, or vias lack
// kernels.
ImpedanceMatrix assemble_impedance(const geometry::Mesh& mesh, const InteractionTables& tables,
                                   const ViaKernels* vias = nullptr);
// The same into z, reusing its storage where it already has N×N values (a sweep's Z of every
// frequency: no allocation and first touch of N² values each time).
void assemble_impedance(const geometry::Mesh& mesh, const InteractionTables& tables,
                        ImpedanceMatrix& z, const ViaKernels* vias = nullptr);

// Delta-gap excitation. The gap field E = V δ(s − s_e) along the rooftops' axis on their
// common grid line (s_e), across the whole cross-section, gives
// V_m = ⟨f_m, E⟩ = V · (edge length a) · f_m(s_e) = V·a for each rooftop m in `basis`, 0
// elsewhere, a the cell's side across the rooftops. V drives current along +axis (minus →
// plus cell). Throws std::out_of_range for an index outside [0, unknowns).
std::vector<std::complex<double>> delta_gap_excitation(int unknowns, const std::vector<int>& basis,
                                                       std::complex<double> voltage,
                                                       double across_m);

}  // namespace pmom::mom
