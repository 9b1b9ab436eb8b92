// The centre-fed straight line: mesh, assembly, dense solve and standing-wave fit.
#include "planarmom/mom/line_characterisation.hpp"
#include "planarmom/mom/periodic_line.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/constants.hpp"
#include "planarmom/mom/greens_table.hpp"
#include "planarmom/mom/line_fit.hpp"
#include "planarmom/mom/line_mirror.hpp"
#include "planarmom/mom/table_plan.hpp"
#include "planarmom/mom/microstrip_formulas.hpp"
#include "planarmom/mom/surface_loss.hpp"

namespace pmom::mom {

namespace {

using cd = std::complex<double>;
using clock = std::chrono::steady_clock;
using RowMajor = Eigen::Matrix<cd, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

double seconds_between(clock::time_point a, clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// Z(m, n) as the dense assembly computes it (the upper triangle's evaluation for both halves).
cd z_entry(const TableView& view, const std::vector<RooftopCells>& cells, int m, int n) {
  return m <= n ? basis_entry(view, cells[static_cast<std::size_t>(m)],
                              cells[static_cast<std::size_t>(n)])
                : basis_entry(view, cells[static_cast<std::size_t>(n)],
                              cells[static_cast<std::size_t>(m)]);
}

// The strip's loss terms on row m's entries (`first`: where each row's entries start in
// `gram`, which strip_loss_entries sorts by row).
struct SurfaceRows {
  std::vector<GramEntry> gram;
  std::vector<std::size_t> first;
  StripImpedance strip;

  SurfaceRows(const LineSystem& s, int n) : strip(s.strip) {
    if (!strip.zero()) gram = strip_loss_entries(s.mesh, s.plan.edge_profiles);
    first.assign(static_cast<std::size_t>(n) + 1, 0);
    for (const GramEntry& e : gram) ++first[static_cast<std::size_t>(e.row) + 1];
    for (int m = 0; m < n; ++m) first[m + 1] += first[m];
  }
  template <class Row> void add(int m, Row&& row) const {
    for (std::size_t k = first[m]; k < first[m + 1]; ++k)
      row(gram[k].col) += strip.sheet * gram[k].value + strip.image * gram[k].image;
  }
};

LineSolution solve_full(const LineSystem& s, const TableView& view,
                        const std::vector<RooftopCells>& cells, clock::time_point start) {
  const int n = static_cast<int>(cells.size());
  const SurfaceRows surface(s, n);
  RowMajor z(n, n);
#pragma omp parallel for schedule(dynamic, 16)
  for (int m = 0; m < n; ++m) {
    for (int c = 0; c < n; ++c) z(m, c) = z_entry(view, cells, m, c);
    surface.add(m, [&](int c) -> cd& { return z(m, c); });
  }
  const auto assembled = clock::now();
  const Eigen::MatrixXcd x =
      z.partialPivLu().solve(Eigen::Map<const Eigen::MatrixXcd>(s.rhs.data(), n, s.columns));
  return {std::vector<cd>(x.data(), x.data() + x.size()), seconds_between(start, assembled),
          seconds_between(assembled, clock::now())};
}

}  // namespace

LineSolution solve_line_by_lu(const LineSystem& s) {
  const auto start = clock::now();
  const InteractionTables tables = evaluate_tables(s.plan, s.greens);
  const TableView view = host_view(tables);
  const std::vector<RooftopCells> cells = rooftop_cells(s.mesh, s.plan.edge_profiles);
  const int n = static_cast<int>(cells.size());
  const LineMirror mirror = line_mirror(s.mesh);
  if (mirror.empty()) return solve_full(s, view, cells, start);

  // Z's rows at the representatives, all columns: what both parts' matrices are made of.
  const std::vector<int>& reps = mirror.reps;
  const auto r_count = static_cast<int>(reps.size());
  RowMajor rows(r_count, n);
  const SurfaceRows surface(s, n);
#pragma omp parallel for schedule(dynamic, 16)
  for (int r = 0; r < r_count; ++r) {
    const int m = reps[static_cast<std::size_t>(r)];
    for (int c = 0; c < n; ++c) rows(r, c) = z_entry(view, cells, m, c);
    surface.add(m, [&](int c) -> cd& { return rows(r, c); });
  }
  LineSolution out;
  out.x.assign(static_cast<std::size_t>(n) * s.columns, cd(0.0));
  double assembly = seconds_between(start, clock::now()), solve = 0;
  for (const MirrorPart& part : mirror_parts(mirror, s.rhs, s.columns)) {
    const auto t0 = clock::now();
    const auto k = static_cast<int>(part.kept.size());
    RowMajor z(k, k);
#pragma omp parallel for schedule(static)
    for (int q = 0; q < k; ++q)
      for (int p = 0; p < k; ++p) {
        const int r = part.kept[static_cast<std::size_t>(q)];
        const int c = part.basis(mirror, static_cast<std::size_t>(p));
        cd v = rows(r, c);
        mirror.for_each_image(c, [&](int d, std::size_t e) {
          v += part.weight(mirror, c, e) * rows(r, d);
        });
        z(q, p) = v;
      }
    const auto t1 = clock::now();
    const Eigen::MatrixXcd x =
        z.partialPivLu().solve(Eigen::Map<const Eigen::MatrixXcd>(part.rhs.data(), k, s.columns));
    add_part_solution(mirror, part,
                      std::span<const cd>(x.data(), static_cast<std::size_t>(x.size())),
                      s.columns, out.x);
    assembly += seconds_between(t0, t1);
    solve += seconds_between(t1, clock::now());
  }
  out.seconds_assembly = assembly;
  out.seconds_solve = solve;
  return out;
}

namespace {

double guided_wavelength_mm(const LineSpec& spec, double frequency_hz) {
  const double u = spec.width_mm / spec.height_over_ground_mm();
  const double eps_eff =
      effective_permittivity_kj(u, spec.eps_r, frequency_hz * 1e-9, spec.height_over_ground_mm());
  return c0 / (frequency_hz * std::sqrt(eps_eff)) * 1e3;
}
}  // namespace

double half_length_mm(const LineSpec& spec, double frequency_hz, int half_wavelengths) {
  return (0.375 + 0.5 * half_wavelengths) * guided_wavelength_mm(spec, frequency_hz);
}

int suggested_half_wavelengths(const LineSpec& spec, double frequency_hz) {
  const double shortest = 20 * std::max(spec.width_mm, spec.height_over_ground_mm());
  int k = 0;
  while (half_length_mm(spec, frequency_hz, k) < shortest) ++k;
  return k;
}

void check_losses(const LineSpec& spec, const std::string& what) {
  if (spec.top == Top::ground && !spec.metal.perfect())
    throw std::invalid_argument(what + ": lossy metal under a ground on top is not modelled yet "
                                "(the strips' loss terms image the current in the lower ground "
                                "only)");
}

void check_broadside(const LineSpec& spec, const std::string& what) {
  if (spec.broadside < 1 || spec.broadside >= static_cast<int>(spec.cover.size()))
    throw std::invalid_argument(what + ": the second strip lies on top of a cover layer under "
                                "the last (1 to " + std::to_string(int(spec.cover.size()) - 1) +
                                "), got " + std::to_string(spec.broadside));
  if (spec.gap_mm > 0)
    throw std::invalid_argument(what + ": strips side by side and broadside at once are not "
                                "modelled");
  // Symmetric about the strips' midplane: a ground on top as below, the whole stack a
  // palindrome with as many layers over the upper strip as under the lower one.
  const auto same = [](const Layer& a, const Layer& b) {
    return a.eps_r == b.eps_r && a.loss_tangent == b.loss_tangent && a.height_m == b.height_m;
  };
  const Stackup stack = spec.stackup();
  std::vector<Layer> all = stack.below;
  all.insert(all.end(), stack.above.begin(), stack.above.end());
  const std::size_t under = stack.below.size(), over = stack.above.size() - static_cast<std::size_t>(spec.broadside);
  bool symmetric = spec.top == Top::ground && under == over;
  for (std::size_t i = 0; i < all.size(); ++i)
    symmetric = symmetric && same(all[i], all[all.size() - 1 - i]);
  if (!symmetric)
    throw std::invalid_argument(what + ": the even and odd modes need a stack symmetric about "
                                "the strips' midplane (a ground on top, the substrate's layer "
                                "over the upper strip, the layers between them mirrored)");
}

double suggested_half_length_mm(const LineSpec& spec, double frequency_hz) {
  return half_length_mm(spec, frequency_hz, suggested_half_wavelengths(spec, frequency_hz));
}

double load_half_length_mm(const LineSpec& spec) {
  return 20 * std::max(spec.width_mm, spec.height_over_ground_mm());
}

namespace {

// The line both checks use: 2·half cells long, ports at its ends (for the load: their feeds
// are the halves), the centre gap on grid line `half`; on a coupled pair the second strip
// beside it, rows gap_rows above; its Green's table and tables' plan.
struct LineProblem {
  int half = 0;
  int gap_rows = 0;              // cells across a pair's gap
  double along = 0, across = 0;  // the cell's sides, m
  StripImpedance strip;  // the strip's impedances
  geometry::Mesh mesh;
  GreensTable greens;
  TablePlan plan;
  double seconds_set_up = 0;
};

geometry::Mesh line_mesh(const LineSpec& spec, int half) {
  const double along = spec.along_cell_mm();
  geometry::Layout layout;
  layout.substrate = {spec.eps_r, spec.height_mm, 0.0};
  const auto dielectrics = [](const std::vector<Layer>& layers) {  // mom::layers' inverse
    std::vector<geometry::Dielectric> out;
    for (const Layer& l : layers) out.push_back({l.eps_r, l.height_m * 1e3, l.loss_tangent});
    return out;
  };
  layout.substrate.cover = dielectrics(spec.cover);
  layout.substrate.base = dielectrics(spec.base);
  layout.substrate.top = spec.top;
  const double length = 2 * half * along, centre = spec.width_mm / 2;
  layout.rects = {{0, 0, length, spec.width_mm}};
  if (spec.gap_mm > 0)
    layout.rects.push_back({0, spec.width_mm + spec.gap_mm, length, 2 * spec.width_mm + spec.gap_mm});
  // The loaded port's feed, where the launch's waves are fitted, runs the whole line to two
  // cells short of the driven port's edge: the line is uniform there, and the fit keeps clear
  // of both gaps' near fields by itself (deembed.hpp's margins). The load takes its half.
  const double feed = half * along;
  layout.ports = {{"driven", 0, centre, geometry::Direction::pos_x, feed, 0, 50},
                  {"loaded", length, centre, geometry::Direction::neg_x, length - 2 * along, 0, 50}};
  return geometry::make_mesh(layout, geometry::CellSize{along, spec.across_cell_mm()});
}

LineProblem line_problem(const LineSpec& spec, double frequency_hz, const char* what) {
  const auto t0 = clock::now();
  const int half = static_cast<int>(std::lround(spec.half_length_mm / spec.along_cell_mm()));
  if (spec.cells_across < 2 || half < 20)
    throw std::invalid_argument(std::string(what) + ": need at least 2 cells across and 20 "
                                "cells per half line, got " +
                                std::to_string(spec.cells_across) + " and " +
                                std::to_string(half));
  const double gap_cells = spec.gap_mm / spec.across_cell_mm();
  const int gap_rows = static_cast<int>(std::lround(gap_cells));
  if (spec.gap_mm > 0 && (gap_rows < 1 || std::abs(gap_cells - gap_rows) > 1e-6 * gap_cells))
    throw std::invalid_argument(std::string(what) + ": the gap of " +
                                std::to_string(spec.gap_mm) + " mm is not a whole number of "
                                "the cells across (" + std::to_string(spec.across_cell_mm()) +
                                " mm: the width over " + std::to_string(spec.cells_across) +
                                "); pick cells across so that the cell divides the gap");
  check_losses(spec, what);
  if (spec.broadside != 0)
    throw std::invalid_argument(std::string(what) + ": a broadside-coupled pair is computed from "
                                "one period of it (periodic_broadside_pair)");
  geometry::Mesh mesh = line_mesh(spec, half);
  GreensTable greens(spec.stackup(), frequency_hz, required_rho_max(mesh.grid()), {});
  AssemblyOptions options;
  options.edge_profiles = spec.edge_profiles;
  TablePlan plan = make_table_plan(mesh, options);
  return {half, gap_rows, spec.along_cell_mm() * 1e-3, spec.across_cell_mm() * 1e-3,
          strip_impedance(spec.metal, frequency_hz), std::move(mesh),
          std::move(greens), std::move(plan), seconds_between(t0, clock::now())};
}

// The centre gap's drive, `voltage` across the strip whose rows start at `first_row`: every
// x-rooftop of the strip on the middle grid line, so the source is uniform across.
std::vector<cd> centre_drive(const LineProblem& p, int cells_across, int first_row = 0,
                             double voltage = 1.0) {
  std::vector<int> gap;
  for (int j = 0; j < cells_across; ++j)
    gap.push_back(p.mesh.x_edge_basis(p.half, first_row + j));
  return delta_gap_excitation(static_cast<int>(p.mesh.basis().size()), gap, voltage, p.across);
}

// Port 1's 1 V gap, and g, the indicator of port 2's gap rooftops, whose solution u = Z⁻¹ g
// carries the load's rank-one update: two columns.
std::vector<cd> load_columns(const LineProblem& p) {
  const auto n = static_cast<int>(p.mesh.basis().size());
  std::vector<cd> rhs =
      delta_gap_excitation(n, p.mesh.ports()[0].delta_gap().basis, 1.0, p.across);
  rhs.resize(2 * static_cast<std::size_t>(n));
  for (const int m : p.mesh.ports()[1].delta_gap().basis) rhs[static_cast<std::size_t>(n + m)] = 1.0;
  return rhs;
}

// εeff, γ and Z0 from the centre-fed solution.
LineResult line_from(const LineProblem& p, std::span<const cd> current, int cells_across,
                     double frequency_hz) {
  const double a = p.along;
  const int half = p.half;
  LineResult r;
  r.frequency_hz = frequency_hz;
  r.unknowns = static_cast<int>(p.mesh.basis().size());
  // Total current through grid line half + k (k cells right of the gap): across·Σ amplitudes.
  std::vector<std::complex<double>> total(static_cast<std::size_t>(half));
  for (int k = 0; k < half; ++k)
    for (int j = 0; j < cells_across; ++j)
      total[static_cast<std::size_t>(k)] +=
          p.across * current[static_cast<std::size_t>(p.mesh.x_edge_basis(half + k, j))];
  // Fit away from the gap's and the open end's near fields (a fifth of the half at each end).
  const int first = half / 5, last = half - half / 5;
  const StandingWave w = fit_standing_wave(
      std::span<const std::complex<double>>(total).subspan(static_cast<std::size_t>(first),
                                                           static_cast<std::size_t>(last - first)),
      a);
  const double k0 = 2 * pi * frequency_hz / c0;
  r.gamma = w.gamma;
  r.eps_eff = std::pow(w.gamma.imag() / k0, 2);
  // Back at the gap (x = -first·a in the fit's coordinate): I = F + B, V = Z0 (F - B). By the
  // symmetry of the centre feed each half carries half the gap voltage, and with E = V δ along
  // +x the right half sits at +V/2 (the potential rises by V across the gap).
  const double xg = -first * a;
  const std::complex<double> f = w.forward * std::exp(-w.gamma * xg);
  const std::complex<double> b = w.backward * std::exp(w.gamma * xg);
  r.z0 = 0.5 / (f - b);
  return r;
}

// The matched load from the two load columns' solutions (x0: port 1 driven, u: port 2's gap
// indicator), with the line's γ.
cd load_from(const LineProblem& p, std::span<const cd> x0, std::span<const cd> u,
             double frequency_hz, cd gamma) {
  const double across = p.across;
  const geometry::MeshPort& loaded = p.mesh.ports()[1];
  // On port 2's half of the line the wave leaving its gap (the reflection), fitted where the
  // de-embedding fits it, clear of both near fields. The half, not the whole line the launch
  // is fitted on: the load only conditions the sweep's systems, and on the half it keeps the
  // value it had before the launch, so the sweeps' S and adaptive solves stay as they were
  // (docs/PERFORMANCE.md v0.31).
  geometry::MeshPort half = loaded;
  half.samples.resize(static_cast<std::size_t>(p.half));
  const cd leaving0 = feed_waves(p.mesh, half, x0, gamma).first;
  const cd leaving_u = feed_waves(p.mesh, half, u, gamma).first;
  cd gap0 = 0.0, gap_u = 0.0;
  for (const int m : loaded.delta_gap().basis) {
    gap0 += x0[static_cast<std::size_t>(m)];
    gap_u += u[static_cast<std::size_t>(m)];
  }
  // With the load, x = x0 − Z_L a² u (gᵀx0) / (1 + Z_L a² gᵀu), a the side across; its
  // leaving wave L0 − Z_L a² L_u gᵀx0 / (1 + Z_L a² gᵀu) vanishes at
  // Z_L = L0 / (a² (L_u gᵀx0 − L0 gᵀu)).
  const cd denominator = across * across * (leaving_u * gap0 - leaving0 * gap_u);
  const cd load = leaving0 / denominator;
  if (!std::isfinite(load.real()) || !std::isfinite(load.imag()))
    throw std::runtime_error("matched gap load: no finite load terminates the line at " +
                             std::to_string(frequency_hz) + " Hz");
  return load;
}

// The launch of the loaded port (port 2) from the same two solutions: in x0 its gap is shorted
// (0 V); u = Z⁻¹ g is its gap driven by the voltage whose right-hand side is 1 on each gap
// rooftop, sign/a into the line (delta_gap_excitation).
PortLaunch launch_from(const LineProblem& p, std::span<const cd> x0, std::span<const cd> u,
                       cd gamma) {
  const geometry::MeshPort& loaded = p.mesh.ports()[1];
  return port_launch(p.mesh, loaded, {x0, u}, {cd(0.0), cd(loaded.sign / p.across)}, gamma);
}

// The matched load and the launch from the two-port line's two load columns, with γ given.
struct LoadSolve {
  cd load;
  PortLaunch launch;
  int unknowns = 0;
  double seconds_assembly = 0, seconds_solve = 0;
};
LoadSolve solve_load(const LineSpec& spec, double frequency_hz, cd gamma,
                     const LineSolver& solve, const char* what) {
  const LineProblem p = line_problem(spec, frequency_hz, what);
  const auto n = p.mesh.basis().size();
  const LineSolution x = solve(LineSystem{p.mesh, p.plan, p.greens, load_columns(p), 2, p.strip});
  const std::span<const cd> columns(x.x);
  return {load_from(p, columns.subspan(0, n), columns.subspan(n, n), frequency_hz, gamma),
          launch_from(p, columns.subspan(0, n), columns.subspan(n, n), gamma),
          static_cast<int>(n), p.seconds_set_up + x.seconds_assembly, x.seconds_solve};
}

// line_check of a periodic spec: γ and Z0 from the period, the load (with_load) with that γ.
LineCheck periodic_check(const LineSpec& spec, double frequency_hz, bool with_load,
                         const LineSolver& solve) {
  const auto start = std::chrono::steady_clock::now();
  LineCheck c;
  c.line = periodic_line(spec, frequency_hz);
  c.line.seconds_assembly =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!with_load) return c;
  const LoadSolve l = solve_load(spec, frequency_hz, c.line.gamma, solve, "load check");
  c.load = l.load;
  c.launch = l.launch;
  c.line.unknowns = l.unknowns;
  c.line.seconds_assembly += l.seconds_assembly;
  c.line.seconds_solve = l.seconds_solve;
  return c;
}

}  // namespace

LineCheck line_check(const LineSpec& spec, double frequency_hz, bool with_load,
                     const LineSolver& solve) {
  if (spec.gap_mm > 0)
    throw std::invalid_argument("line check: a coupled pair (gap_mm > 0) is characterised by "
                                "characterise_coupled_pair, mode by mode");
  if (spec.periodic) return periodic_check(spec, frequency_hz, with_load, solve);
  const LineProblem p = line_problem(spec, frequency_hz, "line check");
  const auto n = p.mesh.basis().size();
  std::vector<cd> rhs = centre_drive(p, spec.cells_across);
  if (with_load) {
    const std::vector<cd> load = load_columns(p);
    rhs.insert(rhs.end(), load.begin(), load.end());
  }
  const LineSolution x = solve(LineSystem{p.mesh, p.plan, p.greens, rhs, with_load ? 3 : 1, p.strip});
  const std::span<const cd> columns(x.x);
  LineCheck c;
  c.line = line_from(p, columns.subspan(0, n), spec.cells_across, frequency_hz);
  c.line.seconds_assembly = p.seconds_set_up + x.seconds_assembly;
  c.line.seconds_solve = x.seconds_solve;
  if (with_load) {
    c.load = load_from(p, columns.subspan(n, n), columns.subspan(2 * n, n), frequency_hz,
                       c.line.gamma);
    c.launch = launch_from(p, columns.subspan(n, n), columns.subspan(2 * n, n), c.line.gamma);
  }
  return c;
}

LineResult characterise_line(const LineSpec& spec, double frequency_hz,
                             const LineSolver& solve) {
  return line_check(spec, frequency_hz, false, solve).line;
}

CoupledLineResult characterise_coupled_pair(const LineSpec& spec, double frequency_hz,
                                            const LineSolver& solve) {
  if (!(spec.gap_mm > 0))
    throw std::invalid_argument("coupled pair: need a gap > 0 between the strips, got " +
                                std::to_string(spec.gap_mm) + " mm");
  const LineProblem p = line_problem(spec, frequency_hz, "coupled pair");
  const auto n = p.mesh.basis().size();
  // Column 0 the even mode (+1 V, +1 V), column 1 the odd (+1 V, −1 V).
  const int second = spec.cells_across + p.gap_rows;
  const std::vector<cd> first = centre_drive(p, spec.cells_across);
  std::vector<cd> rhs(2 * n);
  for (const int sign : {1, -1}) {
    const std::vector<cd> other = centre_drive(p, spec.cells_across, second, sign);
    const std::size_t column = sign > 0 ? 0 : n;
    for (std::size_t m = 0; m < n; ++m) rhs[column + m] = first[m] + other[m];
  }
  const LineSolution x = solve(LineSystem{p.mesh, p.plan, p.greens, rhs, 2, p.strip});
  const std::span<const cd> columns(x.x);
  CoupledLineResult r{line_from(p, columns.subspan(0, n), spec.cells_across, frequency_hz),
                      line_from(p, columns.subspan(n, n), spec.cells_across, frequency_hz)};
  for (LineResult* mode : {&r.even, &r.odd}) {
    mode->seconds_assembly = p.seconds_set_up + x.seconds_assembly;
    mode->seconds_solve = x.seconds_solve;
  }
  return r;
}

GapParasitics gap_parasitics(const LineSpec& spec, double frequency_hz, cd gamma, cd z0,
                             const LineSolver& solve) {
  const LineProblem p = line_problem(spec, frequency_hz, "gap parasitics");
  const std::vector<cd> rhs = centre_drive(p, spec.cells_across);
  const LineSolution x = solve(LineSystem{p.mesh, p.plan, p.greens, rhs, 1, p.strip});
  // The right half as the right port's feed up to the gap: its samples k cells from the right
  // end, the gap's at k = half.
  geometry::MeshPort right = p.mesh.ports()[1];
  right.samples.resize(static_cast<std::size_t>(p.half - 1));
  const auto [f, b] = feed_waves(p.mesh, right, x.x, gamma);
  const double d = p.half * p.along;
  const cd forward = f * std::exp(-gamma * d), backward = b * std::exp(gamma * d);
  geometry::CrossSection centre{d * 1e3, {}};
  for (int j = 0; j < spec.cells_across; ++j)
    centre.basis.push_back(p.mesh.x_edge_basis(p.half, j));
  cd gap = 0.0;
  for (const int m : centre.basis) gap += x.x[static_cast<std::size_t>(m)];
  gap *= right.sign * p.across;  // into the right port's feed's circuit: leftwards
  // Leftwards is against the source's current: the gap's current is the line's less what
  // crosses the gap's capacitance.
  return {(forward + backward) - gap, 2.0 * z0 * (forward - backward)};
}

std::complex<double> matched_gap_load(const LineSpec& spec, double frequency_hz,
                                      std::complex<double> gamma, const LineSolver& solve) {
  if (spec.gap_mm > 0)
    throw std::invalid_argument("matched gap load: needs a single line, got a coupled pair "
                                "(gap_mm > 0)");
  return solve_load(spec, frequency_hz, gamma, solve, "matched gap load").load;
}

}  // namespace pmom::mom
