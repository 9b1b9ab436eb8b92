// De-embedding on a straight two-port line: S of a matched, lossless, reciprocal section whose
// transmission phase is the line's own, against the centre-fed line characterisation.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/constants.hpp"
#include "planarmom/mom/deembed.hpp"
#include "planarmom/mom/feed_impedance.hpp"
#include "planarmom/mom/greens_table.hpp"
#include "planarmom/mom/line_characterisation.hpp"
#include "planarmom/mom/microstrip_formulas.hpp"
#include "planarmom/mom/port_loads.hpp"

namespace pmom::mom {
namespace {

using cd = std::complex<double>;

struct TwoPortLine {
  geometry::Mesh mesh;
  double width_mm;
};

// A port at a line's end, its feed running along the line.
geometry::Port end_port(const char* name, double x_mm, double y_mm, geometry::Direction direction,
                        double feed_mm, double reference_mm) {
  geometry::Port port;
  port.name = name;
  port.x_mm = x_mm;
  port.y_mm = y_mm;
  port.direction = direction;
  port.feed_length_mm = feed_mm;
  port.reference_plane_mm = reference_mm;
  return port;
}

// A 50 Ω line on εr 3.38, h 0.508 mm, 3 cells across, 200 cells (78 mm) long, a port at each
// end with 30 mm feeds.
TwoPortLine two_port_line(double reference_mm) {
  const double width = width_for_impedance_hj(50, 3.38) * 0.508;
  const double cell = width / 3, length = 200 * cell;
  geometry::Layout layout;
  layout.substrate = {3.38, 0.508, 0.0};
  layout.rects = {{0, 0, length, width}};
  layout.ports = {end_port("p1", 0, width / 2, geometry::Direction::pos_x, 30, reference_mm),
                  end_port("p2", length, width / 2, geometry::Direction::neg_x, 30, reference_mm)};
  return {geometry::make_mesh(layout, cell), width};
}

// The port solutions (N×P) by dense LU, with the ports' gap loads (none: shorted gaps).
Eigen::MatrixXcd port_solutions(const geometry::Mesh& mesh, double f_hz,
                                const std::vector<cd>& loads = {}) {
  const GreensTable greens(Slab{3.38, 0.0, 0.508e-3}, f_hz, required_rho_max(mesh.grid()));
  ImpedanceMatrix z = assemble_impedance(mesh, make_interaction_tables(greens, mesh));
  if (!loads.empty()) add_gap_loads(mesh, loads, z);
  const int n = z.n;
  using RowMajor = Eigen::Matrix<cd, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const std::vector<cd> v = port_excitations(mesh);
  const auto p = static_cast<Eigen::Index>(mesh.ports().size());
  return Eigen::Map<const RowMajor>(z.values.data(), n, n)
      .partialPivLu()
      .solve(Eigen::Map<const Eigen::MatrixXcd>(v.data(), n, p));
}

SParameters deembed_solutions(const geometry::Mesh& mesh, const Eigen::MatrixXcd& x,
                              double feed_z0) {
  const std::vector<cd> z0(mesh.ports().size(), feed_z0);
  return deembed(mesh, std::span<const cd>(x.data(), static_cast<std::size_t>(x.size())), z0);
}

SParameters solve(const geometry::Mesh& mesh, double f_hz, double feed_z0) {
  return deembed_solutions(mesh, port_solutions(mesh, f_hz), feed_z0);
}

// |wave leaving port q's gap into its feed| / |wave arriving at it| for excitation e: the
// gap's reflection coefficient. Amplitudes fitted by least squares with a known γ where the
// de-embedding fits them (3 sizes clear of the gap and the circuit): near a match one wave is
// almost absent, and a two-pole fit of a single exponential has no second pole to find.
double gap_reflection(const geometry::Mesh& mesh, const Eigen::MatrixXcd& x, int q, int e,
                      cd gamma) {
  const geometry::MeshPort& port = mesh.ports()[static_cast<std::size_t>(q)];
  const double a = mesh.grid().dx_mm * 1e-3;
  const int skip = static_cast<int>(
      std::ceil(3.0 * std::max(port.width_mm, mesh.layout().substrate.height_mm) /
                mesh.grid().dx_mm));
  const int first = 1 + skip, last = static_cast<int>(port.samples.size()) - skip;
  Eigen::MatrixXcd waves(last - first, 2);
  Eigen::VectorXcd current(last - first);
  for (int k = first; k < last; ++k) {
    cd sum = 0.0;
    for (const int m : port.samples[static_cast<std::size_t>(k)].basis) sum += x(m, e);
    current(k - first) = port.sign * a * sum;
    // Sample k lies k cells from the gap (sample 0).
    waves(k - first, 0) = std::exp(-gamma * (k * a));
    waves(k - first, 1) = std::exp(gamma * (k * a));
  }
  const Eigen::Vector2cd fb = waves.colPivHouseholderQr().solve(current);
  return std::abs(fb(0)) / std::abs(fb(1));
}

TEST(Deembed, StraightLineIsMatchedLosslessReciprocalWithItsOwnPhase) {
  const double f = 3e9;
  const TwoPortLine line = two_port_line(30);
  // The feed's Z0 and γ from the independent centre-fed characterisation, same mesh density.
  const LineResult ref = characterise_line({3.38, 0.508, line.width_mm, 3, 25}, f);
  const SParameters s = solve(line.mesh, f, ref.z0.real());
  const double section = (200 * line.width_mm / 3 - 60) * 1e-3;  // between the planes, m
  const cd s21_expected = std::exp(-ref.gamma * section);
  std::printf("[deembed] |S11| %.2e |S21| %.6f arg S21 %.3f deg (line: %.3f deg), |S12 - S21| "
              "%.1e, feed gamma %.4f+j%.4f /m (line %.4f+j%.4f)\n",
              std::abs(s(0, 0)), std::abs(s(1, 0)), std::arg(s(1, 0)) * 180 / M_PI,
              std::arg(s21_expected) * 180 / M_PI, std::abs(s(0, 1) - s(1, 0)),
              s.gamma[0].real(), s.gamma[0].imag(), ref.gamma.real(), ref.gamma.imag());
  // Matched: the feeds are the same line as the reference (renormalised from its own Z0 to
  // 50 Ω): |S11|, |S22| < 0.01 (−40 dB; measured 2.3e-3).
  EXPECT_LT(std::abs(s(0, 0)), 0.01);
  EXPECT_LT(std::abs(s(1, 1)), 0.01);
  // Lossless substrate and conductor: |S21|² + |S11|² = 1 to the fits' accuracy (their small
  // attenuation, measured 1.2e-4 short of 1 over the 18.5 mm section): 1e-3. S12 = S21: exact
  // here by the layout's mirror symmetry (AsymmetricStubIsReciprocalAndPassive checks it).
  EXPECT_NEAR(std::norm(s(1, 0)) + std::norm(s(0, 0)), 1.0, 1e-3);
  EXPECT_LT(std::abs(s(0, 1) - s(1, 0)), 1e-9);
  // Phase: the section's electrical length from the independent line's γ (measured within
  // 0.04° over ~110°; the feeds' common β is 0.06% low, see DeembedOptions): 0.5°.
  EXPECT_NEAR(std::arg(s(1, 0) / s21_expected) * 180 / M_PI, 0.0, 0.5);
  EXPECT_NEAR(s.gamma[0].imag(), ref.gamma.imag(), 3e-3 * ref.gamma.imag());
}

// A matched gap load (matched_gap_load, found on its own two-port line of the feed's spec)
// terminates the test line's feed: at 2 and 4 GHz the wave port 1 sends comes back from port
// 2's loaded gap with |Γ| < 0.01 (shorted gap: |Γ| = 1 within 2e-3, all of it reflected by the
// open end). The bar, a bench load's 40 dB return loss, leaves room for the lines' different
// lengths and the fits' accuracy; a series model of the open end missed it by far (|Γ| 0.95).
// The load's line must be long enough to tell the two waves apart: with 25 mm feeds at 2 GHz
// (0.2 λg fitted) the load left |Γ| 0.076, with the line checks' length rule (80 mm) 8e-4. S does not depend on
// the termination, the waves being fitted on the circuit side: max |ΔS| against the shorted
// gaps under 1e-3 (measured ≤ 1e-6), the de-embedding's own reciprocity error on an
// asymmetric layout (AsymmetricStubIsReciprocalAndPassive, 4.5e-4) with a 2x margin.
TEST(Deembed, MatchedGapLoadAbsorbsTheFeedsWaveAndLeavesSUnchanged) {
  const TwoPortLine line = two_port_line(30);
  for (const double f : {2e9, 4e9}) {
    LineSpec spec{3.38, 0.508, line.width_mm, 3, 0};
    spec.half_length_mm = suggested_half_length_mm(spec, f);
    const LineResult ref = characterise_line(spec, f);
    const cd load = matched_gap_load(spec, f, ref.gamma);
    const Eigen::MatrixXcd x_short = port_solutions(line.mesh, f);
    const Eigen::MatrixXcd x_matched = port_solutions(line.mesh, f, {cd(0.0), load});
    const double g_short = gap_reflection(line.mesh, x_short, 1, 0, ref.gamma);
    const double g_matched = gap_reflection(line.mesh, x_matched, 1, 0, ref.gamma);
    const SParameters s_short = deembed_solutions(line.mesh, x_short, ref.z0.real());
    const SParameters s_matched = deembed_solutions(line.mesh, x_matched, ref.z0.real());
    double ds = 0;
    for (std::size_t k = 0; k < s_short.s.size(); ++k)
      ds = std::max(ds, std::abs(s_matched.s[k] - s_short.s[k]));
    std::printf("[deembed] %.0f GHz: matched load %.2f%+.2fj ohm, port 2 |G| %.4f (short %.4f), "
                "max |dS| %.2e\n",
                f * 1e-9, load.real(), load.imag(), g_matched, g_short, ds);
    EXPECT_NEAR(g_short, 1.0, 2e-3);
    EXPECT_LT(g_matched, 0.01);
    EXPECT_LT(ds, 1e-3);
  }
}

// 5 mm more line removed at each port: on this lossless line S21 and S11 both turn by +2β·5 mm
// and keep their moduli. The turn is read from S21 itself and compared with β of
// Kirschning-Jansen's εeff (the module's fitted γ plays no part): the formula is good to 0.6%
// in εeff, 0.3% in β, and this line's MoM εeff is within 0.01% of it (docs/VALIDATION.md), so
// 0.3% of the 59° turn (measured 0.066%). The modulus moves by e^{2α·5 mm} with the fitted α of
// a line that should have none: measured 8.9e-5, bar 2e-4. S11 must turn by S21's turn to
// rounding (1e-9 of |S| ≤ 1).
TEST(Deembed, MovingTheReferencePlanesShiftsOnlyThePhase) {
  const double f = 3e9;
  const TwoPortLine line = two_port_line(25);
  const SParameters near = solve(line.mesh, f, 50.0);
  const SParameters far = solve(two_port_line(30).mesh, f, 50.0);
  const double u = line.width_mm / 0.508;
  const double beta_kj =
      2.0 * pi * f / c0 * std::sqrt(effective_permittivity_kj(u, 3.38, f * 1e-9, 0.508));
  const cd turn = far(1, 0) / near(1, 0);
  std::printf("[deembed] reference planes 5 mm further: S21 turns %.4f deg, KJ 2 beta 5 mm %.4f "
              "deg\n", std::arg(turn) * 180 / M_PI, 2 * beta_kj * 5e-3 * 180 / M_PI);
  EXPECT_NEAR(std::abs(turn), 1.0, 2e-4);
  EXPECT_NEAR(std::arg(turn), 2.0 * beta_kj * 5e-3, 3e-3 * 2.0 * beta_kj * 5e-3);
  EXPECT_NEAR(std::abs(far(0, 0) - near(0, 0) * turn), 0.0, 1e-9);
}

// Reciprocity without the help of symmetry: a 50 Ω line (εr 3.38, h 0.508 mm, 3 cells across,
// 180 cells = 70.6 mm) with an open stub (3 cells wide, 7.8 mm) off-centre on one side, feeds of
// 22 and 30 mm and reference planes 20 and 26 mm from the port edges: no mirror maps port 1 on
// port 2, so S12 = S21 only as far as the de-embedding is reciprocal (Z is symmetric: the gap
// currents are reciprocal to 1e-14).
TEST(Deembed, AsymmetricStubIsReciprocalAndPassive) {
  const double width = width_for_impedance_hj(50, 3.38) * 0.508;
  const double cell = width / 3;
  geometry::Layout layout;
  layout.substrate = {3.38, 0.508, 0.0};
  layout.rects = {{0, 0, 180 * cell, width}, {75 * cell, width, 78 * cell, width + 20 * cell}};
  layout.ports = {end_port("p1", 0, width / 2, geometry::Direction::pos_x, 22, 20),
                  end_port("p2", 180 * cell, width / 2, geometry::Direction::neg_x, 30, 26)};
  const SParameters s = solve(geometry::make_mesh(layout, cell), 3e9, 50.0);
  const double pass1 = std::norm(s(0, 0)) + std::norm(s(1, 0));
  const double pass2 = std::norm(s(1, 1)) + std::norm(s(0, 1));
  std::printf("[deembed] stub: |S11| %.4f |S21| %.6f |S12| %.6f |S12 - S21| %.2e, "
              "|S11|^2+|S21|^2 %.6f, |S22|^2+|S12|^2 %.6f, gamma %.4f+j%.4f /m\n",
              std::abs(s(0, 0)), std::abs(s(1, 0)), std::abs(s(0, 1)),
              std::abs(s(0, 1) - s(1, 0)), pass1, pass2, s.gamma[0].real(), s.gamma[0].imag());
  // Both feeds are the same line: one γ.
  EXPECT_EQ(s.gamma[0], s.gamma[1]);
  // Measured 4.5e-4 (|S21| 0.884): what is left is the driven gap's near field inside the
  // fit windows (a 6-size skip on the gap side gives 2.6e-4; 28/40 mm feeds 3.7e-4). With γ
  // fitted per port from its own excitation it was 2.0e-3. Bar 1e-3: a 2x margin, and the old
  // extraction fails it.
  EXPECT_LT(std::abs(s(0, 1) - s(1, 0)), 1e-3);
  // Lossless substrate and conductor: |S11|² + |S21|² = 1 − radiation (the open stub's, small
  // at 3 GHz on 0.508 mm), so ≤ 1 to the fits' accuracy. Measured 0.99936 and 1.00040 (before:
  // 0.9977 and 1.0015): bar 1 + 1e-3 above, 0.99 below.
  EXPECT_LT(pass1, 1 + 1e-3);
  EXPECT_LT(pass2, 1 + 1e-3);
  EXPECT_GT(pass1, 0.99);
  EXPECT_GT(pass2, 0.99);
}

TEST(Deembed, TooShortAFeedSaysHowLongItMustBe) {
  const double width = width_for_impedance_hj(50, 3.38) * 0.508;
  geometry::Layout layout;
  layout.substrate = {3.38, 0.508, 0.0};
  layout.rects = {{0, 0, 40 * width / 3, width}};  // 15.7 mm
  geometry::Port p;
  p.name = "in";
  p.x_mm = 0;
  p.y_mm = width / 2;
  p.direction = geometry::Direction::pos_x;
  p.feed_length_mm = 5;  // a 3-size skip (3.5 mm) at each end leaves nothing
  layout.ports = {p};
  const geometry::Mesh mesh = geometry::make_mesh(layout, width / 3);
  const std::vector<cd> x(mesh.basis().size());
  try {
    (void)deembed(mesh, x, std::vector<cd>{50.0});
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("port 'in'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("make it at least"), std::string::npos) << e.what();
  }
}

// The band interpolants against the line checks themselves: both ports share one width (one
// set of line runs), a node returns its own runs, and between nodes the interpolants stay
// within 0.01% (Z0) and 0.001% (matched load; measured ~1e-6) of direct checks of the same
// line (perfect metal: Z0 and γ of the period, the load on a line of one length; Z0 rises
// ~0.3% over 2–4 GHz on this board; the load's reactance falls as 1/f from 958 to 479 Ω, so
// f·Z_L is interpolated, nearly linear; interpolating Z_L itself left 0.17% between 4 nodes,
// enough to leave |Γ| ~ 0.03).
TEST(FeedImpedances, InterpolatesTheLineChecksOverTheBand) {
  const TwoPortLine line = two_port_line(10);
  const FeedImpedances feeds(line.mesh, 2.0e9, 4.0e9, 4);
  ASSERT_EQ(feeds.nodes_hz().size(), 4u);
  LineSpec spec{3.38, 0.508, line.width_mm, 3, 0, true};
  spec.periodic = true;
  spec.half_length_mm = load_half_length_mm(spec);
  // The direct checks: Z0, the matched load and γ.
  const auto direct = [&](double f) {
    const LineCheck c = line_check(spec, f, true);
    return std::tuple{c.line.z0, c.load, c.line.gamma};
  };
  const double node = feeds.nodes_hz()[1];
  const std::vector<cd> at_node = feeds.at(node);
  const std::vector<cd> loads_at_node = feeds.matched_loads(node);
  ASSERT_EQ(at_node.size(), 2u);
  ASSERT_EQ(loads_at_node.size(), 2u);
  EXPECT_EQ(at_node[0], at_node[1]);
  EXPECT_EQ(loads_at_node[0], loads_at_node[1]);
  const auto [z0_node, load_node, gamma_node] = direct(node);
  EXPECT_NEAR(std::abs(at_node[0] - z0_node), 0.0, 1e-12 * std::abs(z0_node));
  EXPECT_NEAR(std::abs(loads_at_node[0] - load_node), 0.0, 1e-12 * std::abs(load_node));
  // Lossless board: α = 0, β the line's (1e-12: the parallel assembly's rounding).
  EXPECT_EQ(feeds.propagation_constants(node)[0].real(), 0.0);
  EXPECT_NEAR(feeds.propagation_constants(node)[0].imag(), gamma_node.imag(),
              1e-12 * gamma_node.imag());
  for (const double f : {2.0e9, 3.0e9, 4.0e9}) {
    const auto [z0, load, gamma] = direct(f);
    const cd interpolated = feeds.matched_loads(f)[0];
    // γ/f is interpolated: β/f = √εeff(f)/c0 rises 0.1% over the band.
    EXPECT_NEAR(std::abs(feeds.propagation_constants(f)[0] - cd(0, gamma.imag())), 0.0,
                1e-5 * std::abs(gamma))
        << f * 1e-9 << " GHz";
    std::printf("[feeds] %.0f GHz: Z0 %.4f%+.1ej (interpolated %.4f), load %.3f%+.3fj "
                "(interpolated %.3f%+.3fj)\n", f * 1e-9, z0.real(), z0.imag(),
                feeds.at(f)[0].real(), load.real(), load.imag(),
                interpolated.real(), interpolated.imag());
    EXPECT_NEAR(std::abs(feeds.at(f)[0] - z0), 0.0, 1e-4 * std::abs(z0)) << f * 1e-9 << " GHz";
    EXPECT_NEAR(std::abs(interpolated - load), 0.0, 1e-5 * std::abs(load)) << f * 1e-9 << " GHz";
  }
  EXPECT_THROW((void)feeds.at(4.1e9), std::out_of_range);
  EXPECT_THROW((void)feeds.matched_loads(1.9e9), std::out_of_range);
  EXPECT_THROW((void)feeds.propagation_constants(1.9e9), std::out_of_range);
  EXPECT_THROW(FeedImpedances(line.mesh, 3e9, 2e9), std::invalid_argument);
  const FeedImpedances z0_only(line.mesh, 2.0e9, 4.0e9, 1, false);
  EXPECT_THROW((void)z0_only.matched_loads(2.0e9), std::logic_error);
}

// On a lossy board the feed checks run with the board's tanδ, and α is what the loss adds (the
// period's root; the long line's Re γ less the lossless line's where the metal is lossy, its
// fit's own bias +0.0088/m here, 7% of the loss): within 3% of Pozar's dielectric loss. On the
// lossless board α is 0.
TEST(FeedImpedances, TakeTheBoardsLosses) {
  TwoPortLine line = two_port_line(10);
  geometry::Layout lossy = line.mesh.layout();
  lossy.substrate.loss_tangent = 0.0027;
  const geometry::Mesh lossy_mesh = geometry::make_mesh(lossy, line.mesh.grid().cell());
  const double f = 3e9;
  const cd with = FeedImpedances(lossy_mesh, f, f).propagation_constants(f)[0];
  const cd without = FeedImpedances(line.mesh, f, f).propagation_constants(f)[0];
  const double u = line.width_mm / 0.508;
  const double pozar = attenuation_dielectric(
      3.38, effective_permittivity_kj(u, 3.38, f * 1e-9, 0.508), 0.0027, f);
  std::printf("[feeds] tan delta 0.0027 at 3 GHz: alpha %.5f /m (lossless %.5f), Pozar %.5f\n",
              with.real(), without.real(), pozar);
  EXPECT_EQ(without.real(), 0.0);
  EXPECT_NEAR(with.real(), pozar, 0.03 * pozar);
  EXPECT_NEAR(with.imag(), without.imag(), 1e-3 * without.imag());
}

// With the feeds' γ given (the line check's: β, and α = 0 on this lossless board, as
// FeedImpedances gives it), only the waves' amplitudes are fitted: on the straight line S21
// turns by the section's β·length (0.5°, as the fitted γ's test: the feed's waves run 0.06%
// slower than the long line's in the near fields, 0.14° over the 48 mm between the windows),
// the line stays matched and lossless (1e-3, measured ~1e-4); the wrong number of γs is an
// error.
TEST(Deembed, GivenGammaIsTheSectionsPhase) {
  const double f = 3e9;
  const TwoPortLine line = two_port_line(30);
  const LineResult ref = characterise_line({3.38, 0.508, line.width_mm, 3, 25}, f);
  const Eigen::MatrixXcd x = port_solutions(line.mesh, f);
  const std::span<const cd> currents(x.data(), static_cast<std::size_t>(x.size()));
  const std::vector<cd> z0(2, ref.z0.real());
  const cd beta(0, ref.gamma.imag());
  const std::vector<cd> gamma(2, beta);
  const SParameters s = deembed(line.mesh, currents, z0, gamma);
  const double section = (200 * line.width_mm / 3 - 60) * 1e-3;
  const double turn = std::arg(s(1, 0) / std::exp(-beta * section)) * 180 / M_PI;
  std::printf("[deembed] given gamma: |S11| %.2e, |S21|^2 + |S11|^2 - 1 = %.1e, S21 at %+.4f deg "
              "from the section's\n",
              std::abs(s(0, 0)), std::norm(s(1, 0)) + std::norm(s(0, 0)) - 1, turn);
  EXPECT_LT(std::abs(s(0, 0)), 0.01);
  EXPECT_NEAR(std::norm(s(1, 0)) + std::norm(s(0, 0)), 1.0, 1e-3);
  EXPECT_NEAR(turn, 0.0, 0.5);
  EXPECT_EQ(s.gamma[0], beta);
  EXPECT_THROW((void)deembed(line.mesh, currents, z0, std::vector<cd>(1, ref.gamma)),
               std::invalid_argument);
}

// Calibrated ports (PortWaves::calibrated): each port's waves from its gap's voltage and
// current through the launch its line standard calibrated (LineCheck::launch), so a feed of a
// few cells gives the S of a long one. The asymmetric stub above, drawn with its long feeds
// (22 and 30 mm, fitted) and cut to 4 mm feeds (calibrated), the reference planes in the same
// places.
struct StubCase {
  geometry::Mesh mesh;
  double width_mm;
};
StubCase stub_case(int cut1, int cut2) {
  const double width = width_for_impedance_hj(50, 3.38) * 0.508;
  const double cell = width / 3;
  geometry::Layout layout;
  layout.substrate = {3.38, 0.508, 0.0};
  layout.rects = {{cut1 * cell, 0, (180 - cut2) * cell, width},
                  {75 * cell, width, 78 * cell, width + 20 * cell}};
  const double plane1 = 20 - cut1 * cell, plane2 = 26 - cut2 * cell;
  layout.ports = {
      end_port("p1", cut1 * cell, width / 2, geometry::Direction::pos_x,
               cut1 == 0 ? 22 : plane1, plane1),
      end_port("p2", (180 - cut2) * cell, width / 2, geometry::Direction::neg_x,
               cut2 == 0 ? 30 : plane2, plane2)};
  return {geometry::make_mesh(layout, cell), width};
}

double max_difference(const SParameters& a, const SParameters& b) {
  double d = 0;
  for (std::size_t k = 0; k < a.s.size(); ++k) d = std::max(d, std::abs(a.s[k] - b.s[k]));
  return d;
}

TEST(Deembed, CalibratedShortFeedsGiveTheLongFeedsS) {
  const StubCase long_feeds = stub_case(0, 0), short_feeds = stub_case(41, 56);
  for (const double f : {2e9, 3e9, 4e9}) {
    LineSpec spec{3.38, 0.508, long_feeds.width_mm, 3, 0};
    spec.periodic = true;
    spec.half_length_mm = load_half_length_mm(spec);
    const LineCheck c = line_check(spec, f, true);
    const std::vector<cd> loads(2, c.load), gamma(2, c.line.gamma);
    const std::vector<cd> z0(2, c.line.z0);
    const auto calibrated = [&](const geometry::Mesh& mesh) {
      const Eigen::MatrixXcd x = port_solutions(mesh, f, loads);
      const PortCalibration cal{{PortWaves::calibrated, PortWaves::calibrated},
                                {c.launch, c.launch}, loads};
      return deembed(mesh, std::span<const cd>(x.data(), static_cast<std::size_t>(x.size())),
                     z0, gamma, cal);
    };
    const Eigen::MatrixXcd x_long = port_solutions(long_feeds.mesh, f, loads);
    const SParameters fitted =
        deembed(long_feeds.mesh,
                std::span<const cd>(x_long.data(), static_cast<std::size_t>(x_long.size())), z0,
                gamma);
    const SParameters long_cal = calibrated(long_feeds.mesh);
    const SParameters short_cal = calibrated(short_feeds.mesh);
    const cd det = c.launch.e[0] * c.launch.e[3] - c.launch.e[1] * c.launch.e[2];
    std::printf("[calibrated] %.0f GHz: det E / 2 Z0 = %.6f%+.6fj; |S21| %.5f; long fitted vs "
                "calibrated %.2e, short calibrated vs long fitted %.2e, vs long calibrated "
                "%.2e, |S12 - S21| short %.1e\n",
                f * 1e-9, (det / (2 * c.line.z0.real())).real(),
                (det / (2 * c.line.z0.real())).imag(), std::abs(fitted(1, 0)),
                max_difference(fitted, long_cal), max_difference(short_cal, fitted),
                max_difference(short_cal, long_cal), std::abs(short_cal(0, 1) - short_cal(1, 0)));
    // Reciprocity of the launch: det E = 2 Z0 (its ABCD E M⁻¹, M the line's waves to (V, I),
    // has det 1). Measured within 8.9e-4; the gap's voltage is mostly the open end's
    // reactance, ~30 times the line's voltage, so the standard's small fit errors show here
    // magnified. Bar 2e-3.
    EXPECT_NEAR(std::abs(det / (2 * c.line.z0.real()) - 1.0), 0.0, 2e-3);
    // The same solution both ways: measured ≤ 9.4e-4 (the fit's own error on 22–30 mm
    // feeds is of that size: its reciprocity error above is 4.4e-4). Bar 1.5e-3.
    EXPECT_LT(max_difference(fitted, long_cal), 1.5e-3);
    // 4 mm feeds against the long ones: measured ≤ 8.3e-4 (what of the stub's field reaches
    // the gap 4 mm away, and the fit's error). Bar 1.5e-3, within the 2e-3.
    EXPECT_LT(max_difference(short_cal, fitted), 1.5e-3);
    // Both ports have one launch: S is symmetric to rounding, where the fit's is not (4.5e-4).
    EXPECT_LT(std::abs(short_cal(0, 1) - short_cal(1, 0)), 1e-12);
  }
}

// The launches over the band (FeedImpedances::launches) against direct line checks, between
// the 6 Chebyshev nodes of 2–4 GHz; E's entries are printed (the gap's voltage per wave, mostly
// the open end's reactance, and its current per wave).
TEST(FeedImpedances, InterpolatesTheLaunches) {
  const TwoPortLine line = two_port_line(10);
  const FeedImpedances feeds(line.mesh, 2.0e9, 4.0e9, 6);
  LineSpec spec{3.38, 0.508, line.width_mm, 3, 0, true};
  spec.periodic = true;
  spec.half_length_mm = load_half_length_mm(spec);
  for (const double f : {2.0e9, 2.5e9, 3.0e9, 3.5e9, 4.0e9}) {
    const LineCheck c = line_check(spec, f, true);
    const PortLaunch e = feeds.launches(f)[0];
    double worst = 0;
    for (int k = 0; k < 4; ++k) worst = std::max(worst, std::abs(e.e[k] - c.launch.e[k]) / std::abs(c.launch.e[k]));
    const cd det = c.launch.e[0] * c.launch.e[3] - c.launch.e[1] * c.launch.e[2];
    std::printf("[launch] %.1f GHz: E %.4f%+.4fj %.4f%+.4fj %.5f%+.5fj %.5f%+.5fj, det/2Z0 "
                "%.6f%+.6fj, interpolated: largest relative error %.1e\n",
                f * 1e-9, c.launch.e[0].real(), c.launch.e[0].imag(), c.launch.e[1].real(),
                c.launch.e[1].imag(), c.launch.e[2].real(), c.launch.e[2].imag(),
                c.launch.e[3].real(), c.launch.e[3].imag(), (det / (2 * c.line.z0.real())).real(),
                (det / (2 * c.line.z0.real())).imag(), worst);
    // Measured ≤ 6.3e-6 with the voltage row interpolated as f·E (5.1e-5 as E: the open
    // end's reactance ∝ 1/f, whose error the gap's voltage magnifies ~30 times in the waves).
    EXPECT_LT(worst, 1e-5) << f * 1e-9 << " GHz";
  }
  const FeedImpedances z0_only(line.mesh, 2.0e9, 4.0e9, 1, false);
  EXPECT_THROW((void)z0_only.launches(2.0e9), std::logic_error);
}

}  // namespace
}  // namespace pmom::mom
