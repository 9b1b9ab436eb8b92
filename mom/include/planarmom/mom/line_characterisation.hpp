// Characterisation of a straight microstrip line by the full MoM: a centre-fed line (delta gap
// across its middle, open ends), its dense Galerkin system solved (by LU on the host, split by
// the line's mirror symmetry, unless the caller solves it another way), and the current
// standing wave on one half fitted (matrix pencil) for the propagation constant, hence εeff,
// and the characteristic impedance. The same for a symmetric coupled pair, mode by mode. The
// reference path for validating the physics against Hammerstad-Jensen and Kirschning-Jansen.
#pragma once

#include <complex>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/mom/deembed.hpp"
#include "planarmom/mom/greens_table.hpp"
#include "planarmom/mom/stackup.hpp"
#include "planarmom/mom/surface_impedance.hpp"
#include "planarmom/mom/table_plan.hpp"

namespace pmom::mom {

struct LineSpec {
  double eps_r = 1;          // substrate permittivity
  double height_mm = 1;      // substrate height
  double width_mm = 1;       // strip width
  int cells_across = 6;      // cells across the width
  double half_length_mm = 25;  // gap to each open end; keep it away from odd multiples of
                               // λg/4, where the gap sits at a voltage null and Z0 is lost
  bool edge_profiles = true;   // edge-shaped rooftops (AssemblyOptions::edge_profiles)
  // Losses, for the attenuation α = Re γ (the sweep's feed checks take the board's).
  double loss_tangent = 0;     // the substrate's tanδ
  Conductor metal{};           // the strip's and the ground's; perfect by default
  double along_mm = 0;         // the cell's side along the line; 0: square cells
  // A coupled pair: a second strip of the same width beside the first, this gap between them
  // (a whole number of cells across; characterise_coupled_pair). 0: the single line.
  double gap_mm = 0;
  // line_check takes γ and Z0 from one period of the line (periodic_line.hpp; perfect metal)
  // instead of the standing wave, and solves the line only for the matched load.
  bool periodic = false;
  // Dielectric layers over the strip, bottom to top (a solder mask, a buried line), and over
  // them air or a ground (a stripline).
  std::vector<Layer> cover{};
  Top top = Top::air;
  // Dielectric layers between the ground and the substrate, bottom to top (a core under the
  // prepreg the strip lies on).
  std::vector<Layer> base{};
  // A broadside-coupled pair: a second strip of the same width over the first, on top of this
  // cover layer (1-based; periodic_broadside_pair). 0: none.
  int broadside = 0;

  [[nodiscard]] double across_cell_mm() const { return width_mm / cells_across; }
  [[nodiscard]] double along_cell_mm() const { return along_mm > 0 ? along_mm : across_cell_mm(); }
  [[nodiscard]] bool lossy() const { return loss_tangent > 0 || !metal.perfect(); }
  // The base and the substrate under the strip, the cover over it and the ground as a Stackup.
  [[nodiscard]] Stackup stackup() const {
    std::vector<Layer> below = base;
    below.push_back({eps_r, loss_tangent, height_mm * 1e-3});
    return {below, cover, metal, top};
  }
  // The strip's height over the ground, mm.
  [[nodiscard]] double height_over_ground_mm() const {
    double h = height_mm;
    for (const Layer& l : base) h += l.height_m * 1e3;
    return h;
  }
  // The same line without its losses (whose fitted Re γ is the fit's own bias).
  [[nodiscard]] LineSpec lossless() const {
    LineSpec s = *this;
    s.loss_tangent = 0;
    s.metal = {};
    return s;
  }
};

struct LineResult {
  double frequency_hz = 0;
  std::complex<double> gamma;  // 1/m
  double eps_eff = 0;          // (β/k0)²
  std::complex<double> z0;     // ohm
  int unknowns = 0;
  double seconds_assembly = 0, seconds_solve = 0;
};

// The half length the line checks use at f: the gap 3/8 λg (plus whole half wavelengths)
// from the open ends keeps it off the voltage and current nulls (at odd multiples of λg/4 Z0
// is lost); the added half wavelengths make each half at least 20 widths and 20 heights long,
// so that the fitted stretch lies well clear of the gap's and the open end's near fields. λg
// from Kirschning-Jansen: the estimate only sizes the line. Independent of the mesh.
double suggested_half_length_mm(const LineSpec& spec, double frequency_hz);
// std::invalid_argument, naming `what`, for losses the line's model does not hold: lossy metal
// under a ground on top.
void check_losses(const LineSpec& spec, const std::string& what);
// std::invalid_argument, naming `what`, for a broadside pair (LineSpec::broadside) whose even and
// odd modes are not the line's: a stack not symmetric about the strips' midplane, a strip on
// no cover layer or under none, a side-by-side gap as well.
void check_broadside(const LineSpec& spec, const std::string& what);
// The half length of a periodic check's line (LineSpec::periodic), which only finds the
// matched load with the period's γ: 20 widths and 20 heights, at every frequency.
double load_half_length_mm(const LineSpec& spec);
// The number of added half wavelengths that rule picks at f, and the half length with a given
// number of them. Runs over a band keep one number (the one its highest frequency needs):
// where the rule steps from k to k + 1, Z0 from the shorter line differs by ~0.1%.
int suggested_half_wavelengths(const LineSpec& spec, double frequency_hz);
double half_length_mm(const LineSpec& spec, double frequency_hz, int half_wavelengths);

// A line check's dense Galerkin system: Z of `mesh` (a straight line, lossless) at the Green's
// table's frequency, with `plan` its offset tables' plan, and `columns` right-hand sides
// (N x columns, column-major).
struct LineSystem {
  const geometry::Mesh& mesh;
  const TablePlan& plan;
  const GreensTable& greens;
  std::span<const std::complex<double>> rhs;
  int columns = 1;
  // The strip's impedances, added on its loss entries (surface_loss.hpp).
  StripImpedance strip;
};
struct LineSolution {
  std::vector<std::complex<double>> x;  // N x columns, column-major
  double seconds_assembly = 0, seconds_solve = 0;
};
// How a line check solves its system; a caller with a faster way (the sweep's GPU) passes its
// own. Expected to solve to far better than the 1e-6 the feeds' Z0 needs.
using LineSolver = std::function<LineSolution(const LineSystem&)>;

// Dense LU on the host, the reference. A line mirror-symmetric about its middle (both line
// checks' lines) is split into the even and odd parts of the right-hand sides, each solved on
// half the unknowns (Z commutes with the mirror): a quarter of the work of one full LU, an
// eighth where only one part is driven (the centre feed). Other meshes: one full LU.
LineSolution solve_line_by_lu(const LineSystem& system);

// Both checks of a feed at once: the centre-fed line's εeff, γ and Z0 and, with_load, the
// matched gap load (matched_gap_load, with this γ) and the port's launch (the loaded port's,
// from its shorted and driven states) from one solve with three right-hand sides
// on the same line (the two-port line is the centre-fed one with ports at its ends).
struct LineCheck {
  LineResult line;
  std::complex<double> load;  // with_load only
  PortLaunch launch;          // with_load only: the line's port (deembed.hpp), from the same solve
};
LineCheck line_check(const LineSpec& spec, double frequency_hz, bool with_load,
                     const LineSolver& solve = solve_line_by_lu);

// Throws std::invalid_argument for unusable specs (fewer than 2 cells across, a line shorter
// than 20 cells per half, a coupled pair's gap_mm).
LineResult characterise_line(const LineSpec& spec, double frequency_hz,
                             const LineSolver& solve = solve_line_by_lu);

// A symmetric coupled pair (spec.gap_mm > 0): both strips centre-fed on the same grid line,
// the even mode by +1 V in both gaps, the odd by +1 V and −1 V; the mirror between the strips
// decouples them exactly (line_mirror.hpp: one solve, each mode a quarter of the unknowns).
// Each mode's standing wave on one strip is fitted as characterise_line's, so its Z0 is per
// strip (one strip's voltage to ground over its current), as Kirschning-Jansen's. Throws as
// characterise_line, and std::invalid_argument when the gap is not a whole number (≥ 1) of the
// cells across (width / cells_across).
struct CoupledLineResult {
  LineResult even, odd;
};
CoupledLineResult characterise_coupled_pair(const LineSpec& spec, double frequency_hz,
                                            const LineSolver& solve = solve_line_by_lu);

// The load that terminates a port's feed: the impedance Z_L in a port's delta gap (one cell
// from the open end, as geometry::MeshPort places it; port_loads.hpp) for which a wave
// arriving along the feed is not reflected. Found on a two-port line of this spec (each port's
// feed spec.half_length_mm long): port 1 driven, port 2's gap loaded; the wave leaving port 2's
// gap is fitted with the line's γ (characterise_line at the same frequency) where the feed is
// clear of the gap's near field, and the load enters Z as a rank-one block, so that wave is a
// Möbius function of Z_L (Sherman–Morrison) whose zero is exact: two solves, no lumped model
// of the open end (a series model, Z0 minus the stub's impedance from extrapolated waves, left
// |Γ| 0.95: the gap's near field is not a series element). ≈ 50 + 700j Ω for 50 Ω on εr 3.38
// at 3 GHz. Throws as characterise_line, std::runtime_error when no finite load matches.
std::complex<double> matched_gap_load(const LineSpec& spec, double frequency_hz,
                                      std::complex<double> gamma,
                                      const LineSolver& solve = solve_line_by_lu);

// What a gap of zero width across a strip adds to a lumped element on it (geometry's
// LumpedElement): on the centre-fed line of this spec (open ends), the line's own current at the
// gap, extrapolated from the waves fitted on the right half with γ and z0 given (the period's),
// against the gap's. shunt: the admittance across the gap in parallel with the element (the
// charge on the gap's two sides: jω C_gap); line_voltage: the lines' voltage difference across
// the gap per volt of the source (1 where the gap is a pure shunt; measured within 1.2e-3).
struct GapParasitics {
  std::complex<double> shunt;
  std::complex<double> line_voltage;
};
GapParasitics gap_parasitics(const LineSpec& spec, double frequency_hz,
                             std::complex<double> gamma, std::complex<double> z0,
                             const LineSolver& solve = solve_line_by_lu);

}  // namespace pmom::mom
