// MPIE assembly: symmetry, singular-integral convergence and closed forms, far entries against
// direct Sommerfeld quadrature, O(grid) Green's work, signs, excitation, and a timing line.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <functional>
#include <stdexcept>

#include "geometry/layouts.hpp"
#include "planarmom/geometry/mesh.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/constants.hpp"
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

TEST(Assembly, ZIsSymmetricOnAnLShape) {
  const Mesh mesh = make_mesh(layout_of({{0, 0, 4, 1}, {0, 0, 1, 3}}), 0.5);
  const GreensTable greens(kSlab, 3e9, required_rho_max(mesh.grid()));
  const InteractionTables tables = make_interaction_tables(greens, mesh.grid());
  const ImpedanceMatrix z = assemble_impedance(mesh, tables);
  ASSERT_EQ(z.n, static_cast<int>(mesh.basis().size()));
  // The kernel itself, evaluated both ways (the fill mirrors one triangle).
  const TableView view{tables.axx.data(), tables.ayy.data(), tables.p.data(), tables.nx,
                       cd(0, 2 * pi * 3e9), 1.0 / (tables.cell_m * tables.cell_m)};
  double diff = 0, norm = 0;
  for (int m = 0; m < z.n; ++m) {
    for (int n = 0; n < z.n; ++n) {
      const auto& bm = mesh.basis()[static_cast<std::size_t>(m)];
      const auto& bn = mesh.basis()[static_cast<std::size_t>(n)];
      const RooftopCells rm{bm.axis == geometry::Axis::x ? 0 : 1, bm.minus.i, bm.minus.j};
      const RooftopCells rn{bn.axis == geometry::Axis::x ? 0 : 1, bn.minus.i, bn.minus.j};
      diff += std::norm(impedance_entry(view, rm, rn) - impedance_entry(view, rn, rm));
      norm += std::norm(z(m, n));
      EXPECT_EQ(z(m, n), z(n, m));
    }
  }
  EXPECT_LT(std::sqrt(diff / norm), 1e-12);
}

TEST(Assembly, SingularIntegralsConvergeUnderOuterRefinement) {
  for (const auto& [di, dj] : {std::pair{0, 0}, {1, 0}, {0, 1}, {1, 1}, {2, 1}}) {
    EXPECT_LT(relative_change(static_cell_overlap(di, dj, 12), static_cell_overlap(di, dj, 24)),
              1e-6) << di << "," << dj;
    EXPECT_LT(relative_change(static_rooftop_overlap(di, dj, 12),
                              static_rooftop_overlap(di, dj, 24)), 1e-6) << di << "," << dj;
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

// a⁴ ∫∫ over two cells (or two x-rooftop supports) of g by a product Gauss rule in all four
// coordinates: an independent check of the difference-variable rules of the tables.
cd direct_overlap(bool rooftop, int di, int dj, double a, int order,
                  const std::function<cd(double)>& g) {
  const GaussRule r = gauss_legendre(order);
  const int x_panels = rooftop ? 2 : 1;
  const auto weight = [&](double x) { return rooftop ? 1 - std::abs(x) : 1.0; };
  cd sum = 0;
  for (int px = 0; px < x_panels; ++px)
    for (std::size_t ax = 0; ax < r.x.size(); ++ax)
      for (std::size_t ay = 0; ay < r.x.size(); ++ay)
        for (int qx = 0; qx < x_panels; ++qx)
          for (std::size_t bx = 0; bx < r.x.size(); ++bx)
            for (std::size_t by = 0; by < r.x.size(); ++by) {
              const double x = px + r.x[ax] - (rooftop ? 1 : 0);
              const double xs = qx + r.x[bx] - (rooftop ? 1 : 0);
              const double w = r.w[ax] * r.w[ay] * r.w[bx] * r.w[by] * weight(x) * weight(xs);
              sum += w * g(a * std::hypot(di + xs - x, dj + r.x[by] - r.x[ay]));
            }
  return std::pow(a, 4) * sum;
}

TEST(Assembly, FarEntriesMatchDirectQuadrature) {
  const Mesh mesh = make_mesh(layout_of({{0, 0, 10, 10}}), 1.0);
  const GreensTable greens(kSlab, 3e9, required_rho_max(mesh.grid()));
  const InteractionTables t = make_interaction_tables(greens, mesh.grid());
  const double a = t.cell_m;
  const auto g_a = [&](double rho) { return greens_direct(kSlab, 3e9, rho).g_a; };
  const auto g_v = [&](double rho) { return greens_direct(kSlab, 3e9, rho).g_v; };
  for (const auto& [di, dj] : {std::pair{6, 0}, {4, 5}, {0, 8}}) {
    const std::size_t k = static_cast<std::size_t>(dj * t.nx + di);
    const cd p = direct_overlap(false, di, dj, a, 5, g_v);
    const cd axx = direct_overlap(true, di, dj, a, 4, g_a);
    const cd ayy = direct_overlap(true, dj, di, a, 4, g_a);
    EXPECT_LT(std::abs(t.p[k] - p) / std::abs(p), 1e-6) << di << "," << dj;
    EXPECT_LT(std::abs(t.axx[k] - axx) / std::abs(axx), 1e-6) << di << "," << dj;
    EXPECT_LT(std::abs(t.ayy[k] - ayy) / std::abs(ayy), 1e-6) << di << "," << dj;
  }
}

TEST(Assembly, GreensWorkGrowsWithTheGridNotWithNSquared) {
  long long evaluations[2];
  int unknowns[2];
  for (int k = 0; k < 2; ++k) {
    const Mesh mesh = make_mesh(layout_of({{0, 0, 20.0 * (k + 1), 2}}), 0.5);
    const GreensTable greens(kSlab, 3e9, required_rho_max(mesh.grid()));
    evaluations[k] = make_interaction_tables(greens, mesh.grid()).greens_evaluations;
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
  const InteractionTables t = make_interaction_tables(greens, mesh.grid());
  const cd z = assemble_impedance(mesh, t)(0, 0);
  const cd inductive = cd(0, 2 * pi * 1e8) * t.axx[0];
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
  const InteractionTables t = make_interaction_tables(greens, mesh.grid());
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
