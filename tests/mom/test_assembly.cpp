// MPIE assembly: symmetry, singular-integral convergence and closed forms, far entries against
// direct Sommerfeld quadrature, O(grid) Green's work, signs, excitation, and a timing line.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <functional>
#include <iostream>
#include <stdexcept>

#include "geometry/layouts.hpp"
#include "planarmom/geometry/mesh.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/constants.hpp"
#include "planarmom/mom/edge_profile.hpp"
#include "planarmom/mom/gauss_legendre.hpp"

namespace pmom::mom {
namespace {

using cd = std::complex<double>;
using geometry::make_mesh;
using geometry::Mesh;
using geometry::test::layout_of;

const Slab kSlab{3.38, 0.0027, 0.508e-3};

double relative_change(double a, double b) { return std::abs(a - b) / std::abs(b); }

// ∫_0^1 ∫_0^1 f(u, v) over the unit square by an n×n Gauss rule.
double square_rule(int n, const std::function<double(double, double)>& f) {
  const GaussRule r = gauss_legendre(n);
  double sum = 0.0;
  for (std::size_t a = 0; a < r.x.size(); ++a)
    for (std::size_t b = 0; b < r.x.size(); ++b) sum += r.w[a] * r.w[b] * f(r.x[a], r.x[b]);
  return sum;
}

double bspline(double t) {
  const double s = std::abs(t);
  return s < 1 ? 2.0 / 3.0 - s * s + 0.5 * s * s * s : (s < 2 ? std::pow(2 - s, 3) / 6 : 0.0);
}

// The kernel evaluated both ways, Z_mn against Z_nm (the fill computes one triangle and
// mirrors it, so comparing z(m, n) with z(n, m) would check nothing; this is what checks the
// kinds and signed offsets). Every pair reads one computed table entry both ways (the plan's
// canonical entries: kinds ordered and, for one kind, the offset's sign): round-off, 1e-12
// (measured 7e-17 with edge shapes; reading ±Δ of one kind from two computations, whose near
// parts' quadrature treats observer and source differently, left ~1e-8). The assembled z must be that
// kernel's matrix: z(m, n) against the kernel's (m, n) entry, in both triangles (`fill`, the
// same measure; it differs from zero only by the mirrored triangle's asymmetry).
struct Asymmetry {
  double kernel = 0, fill = 0;
};
Asymmetry kernel_asymmetry(const Mesh& mesh, bool edge_profiles) {
  const GreensTable greens(kSlab, 3e9, required_rho_max(mesh.grid()));
  AssemblyOptions options;
  options.edge_profiles = edge_profiles;
  const InteractionTables tables = make_interaction_tables(greens, mesh, options);
  const ImpedanceMatrix z = assemble_impedance(mesh, tables);
  EXPECT_EQ(z.n, static_cast<int>(mesh.basis().size()));
  const std::vector<RooftopCells> cells = rooftop_cells(mesh, edge_profiles);
  const TableView view = host_view(tables);
  double diff = 0, fill = 0, norm = 0;
  for (int m = 0; m < z.n; ++m) {
    for (int n = 0; n < z.n; ++n) {
      const RooftopCells rm = cells[static_cast<std::size_t>(m)];
      const RooftopCells rn = cells[static_cast<std::size_t>(n)];
      const std::complex<double> mn = basis_entry(view, rm, rn);
      diff += std::norm(mn - basis_entry(view, rn, rm));
      fill += std::norm(z(m, n) - mn);
      norm += std::norm(mn);
    }
  }
  return {std::sqrt(diff / norm), std::sqrt(fill / norm)};
}

TEST(Assembly, ZIsSymmetricOnAnLShape) {
  const geometry::Layout l_shape = layout_of({{0, 0, 4, 1.5}, {0, 0, 1.5, 3}});
  const Mesh mesh = make_mesh(l_shape, 0.5);
  ASSERT_GT(mesh.bubble_count(), 0);  // its corner has them, so their entries are checked too
  const Asymmetry plain = kernel_asymmetry(make_mesh(l_shape, 0.5, false), false);
  const Asymmetry shaped = kernel_asymmetry(mesh, true);
  EXPECT_LT(plain.kernel, 1e-12);
  EXPECT_LT(plain.fill, 1e-12);
  EXPECT_LT(shaped.kernel, 1e-12);
  EXPECT_LT(shaped.fill, 1e-12);
}

TEST(Assembly, EdgeShapesFollowTheMetalEdges) {
  // A 4 x 3 strip: x-rooftops in the bottom row are low-edge across, top row high-edge, the
  // middle row uniform; their ramps are edge-weighted in the end columns' cells. y-rooftops
  // likewise with the axes swapped.
  using geometry::Edge;
  const Mesh mesh = make_mesh(layout_of({{0, 0, 4, 3}}), 1.0);
  const auto edge = [](int index, int last) {
    return index == 0 ? Edge::low : index == last ? Edge::high : Edge::none;
  };
  for (const geometry::Rooftop& r : mesh.basis()) {
    const bool x = r.axis == geometry::Axis::x;
    const std::string at = std::to_string(r.minus.i) + "," + std::to_string(r.minus.j);
    EXPECT_EQ(r.across, x ? edge(r.minus.j, 2) : edge(r.minus.i, 3)) << at;
    EXPECT_EQ(r.minus_along, x ? edge(r.minus.i, 3) : edge(r.minus.j, 2)) << at;
    EXPECT_EQ(r.plus_along, x ? edge(r.plus.i, 3) : edge(r.plus.j, 2)) << at;
  }
  // A step: the x-rooftop joining a 1-row arm to a 3-row block has cells with different edges
  // across, so it stays uniform across.
  const Mesh step = make_mesh(layout_of({{0, 0, 2, 1}, {2, 0, 4, 3}}), 1.0);
  const int joint = step.x_edge_basis(2, 0);
  ASSERT_GE(joint, 0);
  EXPECT_EQ(step.basis()[static_cast<std::size_t>(joint)].across, Edge::none);
}

// ∫ c(t) t^k dt = ∫∫ obs(u) src(v) (v − u)^k du dv by Gauss-Legendre on every pair of pieces
// (exact: the densities are linear), against the rule of `order` points per unit piece.
double overlap_moment_error(std::span<const ShapePiece> obs, std::span<const ShapePiece> src,
                            int first, int last, int order, int max_degree) {
  const GaussRule gl = gauss_legendre(12);
  const WeightRule rule = overlap_rule(obs, src, first, last, order);
  double worst = 0.0;
  for (int k = 0; k <= max_degree; ++k) {
    double exact = 0.0;
    for (const ShapePiece& o : obs)
      for (const ShapePiece& q : src)
        for (std::size_t a = 0; a < gl.x.size(); ++a)
          for (std::size_t b = 0; b < gl.x.size(); ++b) {
            const double u = o.t0 + (o.t1 - o.t0) * gl.x[a];
            const double v = q.t0 + (q.t1 - q.t0) * gl.x[b];
            exact += (o.t1 - o.t0) * (q.t1 - q.t0) * gl.w[a] * gl.w[b] * o.at(u) * q.at(v) *
                     std::pow(v - u, k);
          }
    double ruled = 0.0;
    for (std::size_t q = 0; q < rule.t.size(); ++q) ruled += rule.w[q] * std::pow(rule.t[q], k);
    worst = std::max(worst, std::abs(ruled - exact) / std::max(1.0, std::abs(exact)));
  }
  return worst;
}

TEST(Assembly, EdgeShapeRulesIntegrateTheOverlapsExactly) {
  // order 8 per unit piece: exact to degree 15 on each piece; the whole range has two (profiles)
  // or four (ramps) pieces, so degree 15 overall is exact too. Round-off: 1e-12.
  using geometry::Edge;
  for (const Edge o : {Edge::none, Edge::low, Edge::high}) {
    for (const Edge s : {Edge::none, Edge::low, Edge::high}) {
      EXPECT_LT(overlap_moment_error(profile_pieces(o), profile_pieces(s), -1, 1, 8, 15), 1e-12)
          << static_cast<int>(o) << static_cast<int>(s);
      EXPECT_LT(overlap_moment_error(ramp_pieces(o, Edge::none), ramp_pieces(Edge::none, s), -2, 2,
                                     8, 15), 1e-12)
          << static_cast<int>(o) << static_cast<int>(s);
    }
  }
  // Profiles have mean 1 and are singular towards their edge; ramps rise to 1 at the shared
  // edge and fall back to 0.
  for (const Edge e : {Edge::low, Edge::high}) {
    double mass = 0.0;
    for (const ShapePiece& p : profile_pieces(e)) mass += (p.t1 - p.t0) * p.d0;
    EXPECT_NEAR(mass, 1.0, 1e-15);
    const std::vector<ShapePiece> ramp = ramp_pieces(e, e);
    EXPECT_EQ(ramp.front().d0, 0.0);
    EXPECT_NEAR(ramp.back().d1, 0.0, 1e-15);
    for (const ShapePiece& p : ramp) {
      if (p.t1 == 0.0) {
        EXPECT_NEAR(p.d1, 1.0, 1e-15);
      }
    }
  }
  EXPECT_GT(profile_pieces(Edge::low).front().d0, 5.0);
  EXPECT_GT(profile_pieces(Edge::high).back().d0, 5.0);
}

TEST(Assembly, SingularIntegralsConvergeUnderOuterRefinement) {
  using geometry::Edge;
  const CellProfile across_y{Edge::none, Edge::low}, across_x{Edge::high, Edge::none},
      corner{Edge::low, Edge::low};
  const RooftopShape plain{}, edge_row{Edge::none, Edge::none, Edge::low},
      end{Edge::low, Edge::none, Edge::high};
  for (const auto& [di, dj] : {std::pair{0, 0}, {1, 0}, {0, 1}, {1, 1}, {2, 1}, {-1, 0}, {0, -1}}) {
    EXPECT_LT(relative_change(static_cell_overlap(di, dj, 12), static_cell_overlap(di, dj, 24)),
              1e-6) << di << "," << dj;
    EXPECT_LT(relative_change(static_rooftop_overlap(di, dj, 12),
                              static_rooftop_overlap(di, dj, 24)), 1e-6) << di << "," << dj;
    // Edge shapes: graded panels end at every piece end of the source.
    for (const auto& [o, s] : {std::pair{across_y, across_y}, {across_y, across_x},
                               {CellProfile{}, across_y}, {corner, across_x}}) {
      EXPECT_LT(relative_change(static_cell_overlap(di, dj, 12, o, s),
                                static_cell_overlap(di, dj, 24, o, s)), 1e-6) << di << "," << dj;
    }
    for (const auto& [o, s] : {std::pair{edge_row, end}, {plain, end}, {end, end}}) {
      EXPECT_LT(relative_change(static_rooftop_overlap(di, dj, 12, o, s),
                                static_rooftop_overlap(di, dj, 24, o, s)), 1e-6)
          << di << "," << dj;
    }
    // Reciprocity: swapping observer and source (and the offset's sign) is a different
    // panelling of the same integral.
    EXPECT_LT(relative_change(static_cell_overlap(di, dj, 16, across_y, across_x),
                              static_cell_overlap(-di, -dj, 16, across_x, across_y)), 1e-7);
    EXPECT_LT(relative_change(static_rooftop_overlap(di, dj, 16, end, edge_row),
                              static_rooftop_overlap(-di, -dj, 16, edge_row, end)), 1e-7);
  }
}

TEST(Assembly, StaticSelfTermsMatchClosedFormAndBruteForce) {
  // ∫_sq ∫_sq 1/R for the unit square: (4/3)(1 − √2) + 4 ln(1 + √2) = 2.97320…; the brief's
  // second form (2/3)(1 − √2 + 3 ln(1 + √2))·2 is the same number.
  const double closed = 4.0 / 3.0 * (1 - std::sqrt(2.0)) + 4 * std::log(1 + std::sqrt(2.0));
  // Graded outer rule: 1.7e-7 at 12 points per panel, 7e-10 at 24, 3e-12 at 48.
  EXPECT_LT(relative_change(static_cell_overlap(0, 0, AssemblyOptions{}.outer_order), closed),
            1e-6);
  EXPECT_LT(relative_change(static_cell_overlap(0, 0, 48), closed), 1e-10);
  // Brute force, independent of the rectangle formulas: in d = r' − r the integral is
  // 4 ∫∫_{[0,1]²} (1 − u)(1 − v)/|d|; Duffy (u = r, v = rs and its mirror) removes 1/|d|.
  const double duffy = 8 * square_rule(40, [](double r, double s) {
    return (1 - r) * (1 - r * s) / std::sqrt(1 + s * s);
  });
  EXPECT_LT(relative_change(duffy, closed), 1e-12);
  // Rooftop self term: 4 ∫_0^2 ∫_0^1 B(u)(1 − v)/|d|, Duffy on [0,1]², plain Gauss on [1,2].
  const double near = 4 * square_rule(40, [](double r, double s) {
    return (bspline(r) * (1 - r * s) + bspline(r * s) * (1 - r)) / std::sqrt(1 + s * s);
  });
  const double outer = 4 * square_rule(40, [](double u, double v) {
    return bspline(1 + u) * (1 - v) / std::hypot(1 + u, v);
  });
  EXPECT_LT(relative_change(static_rooftop_overlap(0, 0, 48), near + outer), 1e-10);
}

// Quadrature points (cell units) of a 1-D weight: Gauss-Legendre on each piece where it is
// polynomial, for the direct 4-D check below.
struct Points {
  std::vector<double> x, w;
};
Points ramp_points(geometry::Edge minus, geometry::Edge plus, int order) {  // [−1, 1]
  const GaussRule r = gauss_legendre(order);
  Points p;
  for (const ShapePiece& s : ramp_pieces(minus, plus))
    for (std::size_t k = 0; k < r.x.size(); ++k) {
      const double t = s.t0 + (s.t1 - s.t0) * r.x[k];
      p.x.push_back(t);
      p.w.push_back((s.t1 - s.t0) * r.w[k] * s.at(t));
    }
  return p;
}
Points profile_points(geometry::Edge edge, int order) {  // [0, 1]
  const GaussRule r = gauss_legendre(order);
  Points p;
  for (const ShapePiece& s : profile_pieces(edge))
    for (std::size_t k = 0; k < r.x.size(); ++k) {
      p.x.push_back(s.t0 + (s.t1 - s.t0) * r.x[k]);
      p.w.push_back((s.t1 - s.t0) * r.w[k] * s.d0);
    }
  return p;
}

// a⁴ ∫∫ wx_o wy_o wx_s wy_s g over observer at 0 and source at (di, dj), by the product of
// the 1-D point sets in all four coordinates: independent of the tables' overlap rules.
cd direct_overlap(const Points& xo, const Points& yo, const Points& xs, const Points& ys, int di,
                  int dj, double a, const std::function<cd(double)>& g) {
  cd sum = 0;
  for (std::size_t p = 0; p < xo.x.size(); ++p)
    for (std::size_t q = 0; q < yo.x.size(); ++q)
      for (std::size_t r = 0; r < xs.x.size(); ++r)
        for (std::size_t s = 0; s < ys.x.size(); ++s)
          sum += xo.w[p] * yo.w[q] * xs.w[r] * ys.w[s] *
                 g(a * std::hypot(di + xs.x[r] - xo.x[p], dj + ys.x[s] - yo.x[q]));
  return std::pow(a, 4) * sum;
}

double relative_difference(cd table, cd direct) { return std::abs(table - direct) / std::abs(direct); }

// A layout on 1 mm cells, the slab's Green's table at 3 GHz over its grid and its offset tables;
// an entry of a vector (G_A) or charge (G_V) table against direct_overlap with that Green's table
// (validated to 1e-7 elsewhere, which keeps the 4-D products affordable): their relative difference.
struct TablesAt3Ghz {
  Mesh mesh;
  GreensTable greens;
  InteractionTables t;
  explicit TablesAt3Ghz(const geometry::Layout& layout)
      : mesh(make_mesh(layout, 1.0)),
        greens(kSlab, 3e9, required_rho_max(mesh.grid())),
        t(make_interaction_tables(greens, mesh)) {}
  [[nodiscard]] double vector_error(int table, const Points& xo, const Points& yo, const Points& xs,
                                    const Points& ys, int di, int dj) const {
    return relative_difference(t.at(table, di, dj), direct_overlap(xo, yo, xs, ys, di, dj, t.dx_m,
                                                     [&](double rho) { return greens(rho).g_a; }));
  }
  [[nodiscard]] double charge_error(int table, const Points& xo, const Points& yo, const Points& xs,
                                    const Points& ys, int di, int dj) const {
    return relative_difference(t.at(table, di, dj), direct_overlap(xo, yo, xs, ys, di, dj, t.dx_m,
                                                     [&](double rho) { return greens(rho).g_v; }));
  }
};

TEST(Assembly, FarEntriesMatchDirectQuadrature) {
  // Offsets from 3 cells (far_order) and from 12 cells (distant_order) on a 16 x 16 square.
  using geometry::Edge;
  const TablesAt3Ghz square(layout_of({{0, 0, 16, 16}}));
  const InteractionTables& t = square.t;
  const double a = t.dx_m;
  const auto g_a = [&](double rho) { return greens_direct(kSlab, 3e9, rho).g_a; };
  const auto g_v = [&](double rho) { return greens_direct(kSlab, 3e9, rho).g_v; };
  const Points tri = ramp_points(Edge::none, Edge::none, 4), flat = profile_points(Edge::none, 5);
  const Points low = profile_points(Edge::low, 3), high = profile_points(Edge::high, 3);
  const auto close = relative_difference;
  for (const auto& [di, dj] : {std::pair{6, 0}, {4, 5}, {0, 6}, {-5, 3}, {9, 9}, {-12, 2}}) {
    EXPECT_LT(close(t.at(charge_table(0, 0), di, dj), direct_overlap(flat, flat, flat, flat, di, dj, a, g_v)), 1e-6);
    EXPECT_LT(close(t.at(vector_table(0, 0, 0), di, dj), direct_overlap(tri, flat, tri, flat, di, dj, a, g_a)), 1e-6);
    EXPECT_LT(close(t.at(vector_table(1, 0, 0), di, dj), direct_overlap(flat, tri, flat, tri, di, dj, a, g_a)), 1e-6);
  }
  // Edge-shaped kinds, at offsets the square's edge rooftops and cells really have: a bottom-row
  // (j = 0, kind 1) x-rooftop against a plain one and against a top-row (kind 2) one; a
  // bottom-row charge (kind 1) against a right-column (i = 15, kind 6) one; a left-column
  // y-rooftop against a plain one; an x-rooftop at the left end (minus cell in column 0: its
  // ramp edge-weighted, kind 9) against a plain one. This checks the shapes' overlap rules.
  const Points end_ramp = ramp_points(Edge::low, Edge::none, 3);
  for (const auto& [di, dj] : {std::pair{5, 4}, {10, 8}}) {
    EXPECT_LT(square.vector_error(vector_table(0, 1, 0), tri, low, tri, flat, di, dj), 1e-6);
    EXPECT_LT(square.vector_error(vector_table(0, 0, 1), tri, flat, tri, low, -di, -dj), 1e-6);
    EXPECT_LT(square.vector_error(vector_table(1, 1, 0), low, tri, flat, tri, dj, di), 1e-6);
    EXPECT_LT(square.vector_error(vector_table(0, 9, 0), end_ramp, flat, tri, flat, di, dj - 1), 1e-6);
  }
  EXPECT_LT(square.vector_error(vector_table(0, 1, 2), tri, low, tri, high, 5, 15), 1e-6);
  for (const auto& [di, dj] : {std::pair{4, 6}, {12, 9}}) {
    EXPECT_LT(square.charge_error(charge_table(1, 6), flat, low, high, flat, di, dj), 1e-6);
    EXPECT_LT(square.charge_error(charge_table(6, 1), high, flat, flat, low, -di, -dj), 1e-6);
  }
}

TEST(Assembly, RemoteEntriesMatchDirectQuadrature) {
  // Offsets from 40 cells (remote_order, 2 points a piece) on a 96 x 8 strip of 1 mm cells, plain
  // and edge-shaped kinds, against the 4-D product of 4 and 5 points a piece: the remote tier's
  // own error, (1/40)^4 of G's variation.
  using geometry::Edge;
  const TablesAt3Ghz strip(layout_of({{0, 0, 96, 8}}));
  const Points tri = ramp_points(Edge::none, Edge::none, 4), flat = profile_points(Edge::none, 5);
  const Points low = profile_points(Edge::low, 5), high = profile_points(Edge::high, 5);
  double worst = 0;
  const auto check = [&](double e) { worst = std::max(worst, e); };
  for (const auto& [di, dj] : {std::pair{40, 0}, {45, 3}, {-60, 4}, {90, 1}, {-41, -4}}) {
    check(strip.charge_error(charge_table(0, 0), flat, flat, flat, flat, di, dj));
    check(strip.vector_error(vector_table(0, 0, 0), tri, flat, tri, flat, di, dj));
    check(strip.vector_error(vector_table(1, 0, 0), flat, tri, flat, tri, di, dj));
  }
  // A bottom-row x-rooftop against plain ones above it and against the top row's.
  for (const auto& [di, dj] : {std::pair{40, 2}, {-55, 5}, {70, 1}})
    check(strip.vector_error(vector_table(0, 1, 0), tri, low, tri, flat, di, dj));
  for (const int di : {41, -80})
    check(strip.vector_error(vector_table(0, 1, 2), tri, low, tri, high, di, 7));
  std::cout << "remote entries: largest relative difference " << worst << "\n";
  EXPECT_LT(worst, 1e-6);
}

TEST(Assembly, GreensWorkGrowsWithTheGridNotWithNSquared) {
  long long evaluations[2];
  int unknowns[2];
  for (int k = 0; k < 2; ++k) {
    const Mesh mesh = make_mesh(layout_of({{0, 0, 20.0 * (k + 1), 2}}), 0.5);
    const GreensTable greens(kSlab, 3e9, required_rho_max(mesh.grid()));
    evaluations[k] = make_interaction_tables(greens, mesh).greens_evaluations;
    unknowns[k] = static_cast<int>(mesh.basis().size());
  }
  // Twice the cells: ~twice the lookups (bounded per offset), not four times.
  EXPECT_LT(static_cast<double>(evaluations[1]) / static_cast<double>(evaluations[0]), 2.1);
  EXPECT_LT(static_cast<double>(evaluations[1]),
            0.1 * static_cast<double>(unknowns[1]) * unknowns[1] * 64);
}

TEST(Assembly, IsolatedRooftopIsCapacitiveAtLowFrequency) {
  // εr = 1, one rooftop on two 1 mm cells at 100 MHz: Z = 1/(jωC)-like, Im Z < 0 for e^{+jωt}.
  const Slab air{1.0, 0.0, 1e-3};
  const Mesh mesh = make_mesh(layout_of({{0, 0, 2, 1}}), 1.0);
  ASSERT_EQ(mesh.basis().size(), 1u);
  const GreensTable greens(air, 1e8, required_rho_max(mesh.grid()));
  const InteractionTables t = make_interaction_tables(greens, mesh);
  const cd z = assemble_impedance(mesh, t)(0, 0);
  const cd inductive = cd(0, 2 * pi * 1e8) * t.at(vector_table(0, 0, 0), 0, 0);
  EXPECT_LT(z.imag(), 0.0);
  EXPECT_LT(std::abs(inductive), 1e-3 * std::abs(z));
}

TEST(Assembly, DeltaGapExcitationIsVoltageTimesCell) {
  const auto v = delta_gap_excitation(5, {1, 3}, cd(2.0, 0.0), 1e-3);
  ASSERT_EQ(v.size(), 5u);
  EXPECT_EQ(v[1], cd(2e-3, 0));
  EXPECT_EQ(v[3], cd(2e-3, 0));
  EXPECT_EQ(v[0], cd(0, 0));
  EXPECT_THROW((void)delta_gap_excitation(5, {5}, 1.0, 1e-3), std::out_of_range);
}

TEST(Assembly, TimingOfAFiftyOhmLine) {
  // 50 Ω on εr 3.38, h 0.508 mm: w ≈ 1.2 mm, 6 cells of 0.2 mm across, ~2000 unknowns.
  const Mesh mesh = make_mesh(layout_of({{0, 0, 36.4, 1.2}}), 0.2);
  const auto start = std::chrono::steady_clock::now();
  const GreensTable greens(kSlab, 3e9, required_rho_max(mesh.grid()));
  const auto greens_done = std::chrono::steady_clock::now();
  const InteractionTables t = make_interaction_tables(greens, mesh);
  const auto tables_done = std::chrono::steady_clock::now();
  const ImpedanceMatrix z = assemble_impedance(mesh, t);
  const auto fill_done = std::chrono::steady_clock::now();
  const auto seconds = [](auto from, auto to) {
    return std::chrono::duration<double>(to - from).count();
  };
  std::printf("[timing] cells %d (grid %dx%d), unknowns %d, Green's table %.3f s, "
              "offset tables %.3f s (%lld lookups), fill %.3f s\n",
              mesh.metal_cell_count(), t.nx, t.ny, z.n, seconds(start, greens_done),
              seconds(greens_done, tables_done), t.greens_evaluations,
              seconds(tables_done, fill_done));
  EXPECT_GT(z.n, 1500);
}

}  // namespace
}  // namespace pmom::mom
