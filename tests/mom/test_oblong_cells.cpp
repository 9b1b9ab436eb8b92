// Cells that are not square (dx != dy): the static 1/R integrals on oblong cells against a
// brute-force quadrature and against their transposes, a circuit meshed on dx x dy against the
// same circuit turned by 90 degrees on dy x dx (the same S: nothing may depend on which axis is
// which), and against the square meshes on either side of it.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

#include "geometry/layouts.hpp"
#include "mom/ring_circuit.hpp"
#include "planarmom/geometry/mesh.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/deembed.hpp"
#include "planarmom/mom/gauss_legendre.hpp"
#include "planarmom/mom/greens_table.hpp"

namespace pmom::mom {
namespace {

using cd = std::complex<double>;
using geometry::Edge;

// ∫_{[0,1]²} ∫_{[di,di+1]×[dj,dj+1]} dA dA' / √(Δx² + η² Δy²) by 4-D Gauss (12 points a
// dimension): accurate to ~1e-12 relative where the cells are a cell apart or more.
double brute_force_cells(int di, int dj, double eta) {
  const GaussRule g = gauss_legendre(12);
  double sum = 0;
  for (std::size_t a = 0; a < g.x.size(); ++a)
    for (std::size_t b = 0; b < g.x.size(); ++b)
      for (std::size_t c = 0; c < g.x.size(); ++c)
        for (std::size_t d = 0; d < g.x.size(); ++d) {
          const double dx = di + g.x[c] - g.x[a], dy = dj + g.x[d] - g.x[b];
          sum += g.w[a] * g.w[b] * g.w[c] * g.w[d] / std::sqrt(dx * dx + eta * eta * dy * dy);
        }
  return sum;
}

// The closed-form inner integral on an oblong cell (R = √(X² + (ηY)²)), where the quadrature
// cannot fail: cells apart, where the brute force is exact to its own round-off (1e-12), and
// touching ones, where only the identity below can check it.
TEST(OblongCells, StaticCellIntegralsMatchBruteForce) {
  for (const double eta : {0.5, 2.0, 1.0 / 3.0})
    for (const auto& [di, dj] : {std::pair{2, 0}, {0, 2}, {3, 1}, {-2, 3}}) {
      const double closed = static_cell_overlap(di, dj, 16, {}, {}, eta);
      EXPECT_NEAR(closed / brute_force_cells(di, dj, eta), 1.0, 1e-8)
          << "eta " << eta << " offset " << di << ", " << dj;
    }
}

// The same pair of cells seen with the axes swapped: S_η(Δi, Δj) = S_{1/η}(Δj, Δi)/η (the
// physical integral a_x a_y² S_η is a_y a_x² S_{1/η}), for every offset, the self term and the
// edge-shaped charges included: the graded panels of the outer integral and the closed forms
// must treat the two coordinates alike.
TEST(OblongCells, StaticCellIntegralsAreTheirTransposes) {
  const CellProfile low_x{Edge::low, Edge::none}, low_y{Edge::none, Edge::low};
  for (const double eta : {0.5, 0.25})
    for (const auto& [di, dj] : {std::pair{0, 0}, {1, 0}, {0, 1}, {1, 1}, {2, -1}}) {
      const double s = static_cell_overlap(di, dj, 16, {}, {}, eta);
      const double t = static_cell_overlap(dj, di, 16, {}, {}, 1.0 / eta) / eta;
      EXPECT_NEAR(s / t, 1.0, 1e-9) << "eta " << eta << " offset " << di << ", " << dj;
      const double e = static_cell_overlap(di, dj, 16, low_x, low_y, eta);
      const double et = static_cell_overlap(dj, di, 16, low_y, low_x, 1.0 / eta) / eta;
      EXPECT_NEAR(e / et, 1.0, 1e-9) << "edge shapes, eta " << eta << ", " << di << ", " << dj;
    }
}

// S at 3 GHz by dense LU, both feeds referred to 50 Ω; PEC strips and ground, or copper.
Eigen::Matrix2cd ring_s(bool transposed, geometry::CellSize cell, Conductor metal = {}) {
  return test::dense_s(geometry::make_mesh(test::ring_layout(transposed), cell),
                       Slab{3.38, 0.0027, 0.508e-3, metal}, 3e9);
}

// On 0.8 x 0.4 mm cells and, turned, on 0.4 x 0.8 mm: one discretisation of one circuit, so
// one S up to round-off, which the square mesh turned shows (dense LU on ~1000 unknowns and
// the feeds' γ fit, with its sums in another order: 1.1e-10 square, 7e-12 oblong,
// measured). A swapped
// side, ratio, static part or feed step anywhere shows as a difference of the size of the
// mesh's own error (1e-2, below); the bar, 1e-9, is ten times the round-off.
TEST(OblongCells, TurnedCircuitOnTurnedCellsHasTheSameS) {
  const Eigen::Matrix2cd s = ring_s(false, {0.8, 0.4});
  const Eigen::Matrix2cd t = ring_s(true, {0.4, 0.8});
  const double difference = (s - t).cwiseAbs().maxCoeff();
  const double square = (ring_s(false, {0.8, 0.8}) - ring_s(true, {0.8, 0.8})).cwiseAbs().maxCoeff();
  std::printf("[oblong_cells] ring at 3 GHz on 0.8 x 0.4 and turned on 0.4 x 0.8 mm: max |dS| "
              "%.2e (S21 %.6f dB); on 0.8 mm and turned: %.2e\n",
              difference, 20 * std::log10(std::abs(s(1, 0))), square);
  EXPECT_LT(difference, 1e-9);
  EXPECT_LT(square, 1e-9);
  // Copper strips and ground: the strips' loss on oblong sub-cells turns with the circuit too.
  const Conductor copper{5.8e7, 35e-6};
  const Eigen::Matrix2cd lossy = ring_s(false, {0.8, 0.4}, copper);
  const double lossy_difference = (lossy - ring_s(true, {0.4, 0.8}, copper)).cwiseAbs().maxCoeff();
  std::printf("[oblong_cells] with copper: S21 %.6f dB, turned max |dS| %.2e\n",
              20 * std::log10(std::abs(lossy(1, 0))), lossy_difference);
  EXPECT_LT(lossy_difference, 1e-9);
  EXPECT_LT(std::abs(lossy(1, 0)), std::abs(s(1, 0)));  // the copper takes power
}

// Between the square meshes: the ring on 0.8 x 0.4 mm cells halves the x-strips' cells across
// and the y-strips' along. Measured (2-core VM): max |ΔS| to the 0.4 mm mesh 0.0057, from
// 0.8 mm 0.0138; S21 −1.675, −1.648, −1.684 dB on 0.8, 0.8 x 0.4 and 0.4 mm. The bar: the
// oblong mesh refines the coarse one, so it must be closer to the fine one than the coarse
// mesh is; reciprocal and passive as on square cells.
TEST(OblongCells, OblongRingIsCloserToTheFineMeshThanTheCoarseOne) {
  const Eigen::Matrix2cd coarse = ring_s(false, {0.8, 0.8}), fine = ring_s(false, {0.4, 0.4});
  const Eigen::Matrix2cd oblong = ring_s(false, {0.8, 0.4});
  const double square_change = (fine - coarse).cwiseAbs().maxCoeff();
  const double oblong_to_fine = (fine - oblong).cwiseAbs().maxCoeff();
  std::printf("[oblong_cells] ring at 3 GHz: max |dS| 0.8 -> 0.4 mm %.4f, 0.8 x 0.4 -> 0.4 mm "
              "%.4f; S21 %.4f / %.4f / %.4f dB (0.8, 0.8 x 0.4, 0.4 mm)\n",
              square_change, oblong_to_fine, 20 * std::log10(std::abs(coarse(1, 0))),
              20 * std::log10(std::abs(oblong(1, 0))), 20 * std::log10(std::abs(fine(1, 0))));
  EXPECT_LT(oblong_to_fine, square_change);
  EXPECT_LT(std::abs(oblong(0, 1) - oblong(1, 0)), 1e-6);
  EXPECT_LT(oblong.jacobiSvd().singularValues()(0), 1.0);
}

}  // namespace
}  // namespace pmom::mom

namespace pmom::mom {
namespace {

// ∫_{cell} ∫_{cell + Δ} w(obs) w(src) G dA dA' over physical cells of dx × dy, by Gauss on
// each cell (12 points a dimension, the cells apart so that G is smooth on them); `along`
// extends a rooftop's ramp (a triangle over its minus and plus cells, peak on their common
// edge) along x (axis 0) or y (axis 1), plain rooftops, and none means a uniform charge cell.
cd brute_force_entry(const GreensTable& greens, bool scalar, int axis, int di, int dj, double dx,
                     double dy) {
  const GaussRule g = gauss_legendre(12);
  // Points of one basis function (minus cell at the origin), with their weights (area ×
  // shape): the minus cell, and for a rooftop its plus cell with the falling ramp.
  struct Point { double x, y, w; };
  std::vector<Point> points;
  const int cells = scalar ? 1 : 2;
  for (int c = 0; c < cells; ++c)
    for (std::size_t a = 0; a < g.x.size(); ++a)
      for (std::size_t b = 0; b < g.x.size(); ++b) {
        const double u = c + g.x[a], v = g.x[b];  // along the axis (cells), across
        const double shape = scalar ? 1.0 : (u < 1 ? u : 2 - u);
        const double x = axis == 0 ? u * dx : v * dx, y = axis == 0 ? v * dy : u * dy;
        points.push_back({x, y, g.w[a] * g.w[b] * dx * dy * shape});
      }
  cd sum = 0.0;
  for (const Point& o : points)
    for (const Point& s : points) {
      const double rho = std::hypot(s.x + di * dx - o.x, s.y + dj * dy - o.y);
      const GreensValues v = greens(rho);
      sum += o.w * s.w * (scalar ? v.g_v : v.g_a);
    }
  return sum;
}

// The tables on cells of 0.5 x 0.25 mm against the brute force, plain rooftops (the brute
// force knows no edge shapes): charges and x- and y-rooftops, at offsets the plan counts near
// (its static part and the smooth remainder, scaled a b² and a² b²) and far (its Gauss rules
// on the oblong pieces). Measured: near entries within 1.1e-11, far ones within 1.3e-6 (the
// x-rooftops at three cells along x, whose ramps come within one cell: the far rule's 4 points
// a piece, as on square cells), 6e-9 beyond. The bar, 5e-6, is that far rule's accuracy; a
// wrong side or scale anywhere is an error of order one.
TEST(OblongCells, TableEntriesMatchBruteForce) {
  const double dx = 0.5e-3, dy = 0.25e-3;
  const geometry::Mesh mesh = geometry::make_mesh(geometry::test::layout_of({{0, 0, 6, 6}}),
                                                  geometry::CellSize{0.5, 0.25}, false);
  const GreensTable greens(Slab{3.38, 0.0027, 0.508e-3, {}}, 3e9, required_rho_max(mesh.grid()));
  AssemblyOptions options;
  options.edge_profiles = false;
  const InteractionTables t = make_interaction_tables(greens, mesh, options);
  double worst = 0;
  for (const auto& [di, dj] : {std::pair{0, 5}, {2, 3}, {3, 0}, {4, 7}, {0, 9}}) {
    const struct { int table, axis; bool scalar; } kinds[] = {
        {charge_table(0, 0), 0, true}, {vector_table(0, 0, 0), 0, false},
        {vector_table(1, 0, 0), 1, false}};
    for (const auto& k : kinds) {
      // A rooftop's own offset runs between minus cells, which the table indexes as x, y.
      const cd table = t.at(k.table, di, dj);
      const cd brute = brute_force_entry(greens, k.scalar, k.axis, di, dj, dx, dy);
      const double error = std::abs(table - brute) / std::abs(brute);
      worst = std::max(worst, error);
      EXPECT_LT(error, 5e-6) << "table " << k.table << " offset " << di << ", " << dj;
    }
  }
  std::printf("[oblong_cells] tables on 0.5 x 0.25 mm cells against the brute force: largest "
              "relative error %.2e\n", worst);
}

}  // namespace
}  // namespace pmom::mom
