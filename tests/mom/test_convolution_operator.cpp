// The exact operator (issue 17): Z·x by FFT per kind channel against the dense Z's product, on
// layouts with every kind of function (edge-shaped rooftops on every side, cell bubbles at
// corners, a ring's inner edges) on both boards.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <complex>
#include <memory>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "geometry/layouts.hpp"
#include "planarmom/geometry/mesh.hpp"
#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/gpusolver/solver.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/convolution_operator.hpp"
#include "planarmom/mom/greens_table.hpp"

namespace pmom::mom {
namespace {

using cd = std::complex<double>;

#define SKIP_WITHOUT_FFTW()                                                                 \
  if (!ConvolutionOperator::available())                                                    \
  GTEST_SKIP() << "this build has no FFTW (Debian: libfftw3-dev); the exact operator is not built"

// ‖y_fft − Z x‖ / ‖Z x‖ for a random x (several, to see every channel at work).
double relative_error(const geometry::Mesh& mesh, const Slab& slab, double f_hz) {
  const GreensTable greens(slab, f_hz, required_rho_max(mesh.grid()));
  const InteractionTables tables = make_interaction_tables(greens, mesh);
  const ImpedanceMatrix z = assemble_impedance(mesh, tables);
  const ConvolutionOperator op(mesh, tables);
  EXPECT_EQ(op.size(), z.n);
  std::mt19937 rng(7);
  std::normal_distribution<double> normal;
  double worst = 0;
  for (int trial = 0; trial < 3; ++trial) {
    std::vector<cd> x(static_cast<std::size_t>(z.n)), y(x.size());
    for (cd& v : x) v = cd(normal(rng), normal(rng));
    op.apply(x, y);
    double diff = 0, norm = 0;
    for (int m = 0; m < z.n; ++m) {
      cd dense = 0.0;
      for (int n = 0; n < z.n; ++n) dense += z(m, n) * x[static_cast<std::size_t>(n)];
      diff += std::norm(y[static_cast<std::size_t>(m)] - dense);
      norm += std::norm(dense);
    }
    worst = std::max(worst, std::sqrt(diff / norm));
  }
  const auto fp = op.footprint();
  std::printf("[convolution] %d unknowns, %d channels, %d kernels, %zu grid points: relative "
              "error %.2e\n",
              z.n, fp.channels, fp.kernels, fp.grid_points, worst);
  return worst;
}

// 1e-10 (the bar): the FFT's round-off on sums of ~1e3 terms is ~1e-14 relative to
// the largest; everything else is the same table entries in the same products.
TEST(ConvolutionOperator, EqualsTheDenseProductOnAnLShapeWithBubbles) {
  SKIP_WITHOUT_FFTW();
  const geometry::Mesh mesh =
      geometry::make_mesh(geometry::test::layout_of({{0, 0, 4, 1.5}, {0, 0, 1.5, 3}}), 0.5);
  ASSERT_GT(mesh.bubble_count(), 0);
  EXPECT_LT(relative_error(mesh, Slab{3.38, 0.0027, 0.508e-3, {}}, 3e9), 1e-10);
}

// Cells of 0.5 x 0.25 mm: a y-rooftop's charge is twice an x-rooftop's per unit current
// (the layout's place signs), the tables' entries oblong.
TEST(ConvolutionOperator, EqualsTheDenseProductOnOblongCells) {
  SKIP_WITHOUT_FFTW();
  const geometry::Mesh mesh = geometry::make_mesh(
      geometry::test::layout_of({{0, 0, 4, 1.5}, {0, 0, 1.5, 3}}), geometry::CellSize{0.5, 0.25});
  ASSERT_GT(mesh.bubble_count(), 0);
  EXPECT_LT(relative_error(mesh, Slab{3.38, 0.0027, 0.508e-3, {}}, 3e9), 1e-10);
}

TEST(ConvolutionOperator, EqualsTheDenseProductOnARingOnFr4) {
  SKIP_WITHOUT_FFTW();
  // A square ring with feeds, as the couplers are drawn: outer and inner edges, corners.
  geometry::Layout ring = geometry::test::layout_of(
      {{2, 0, 8, 1.6}, {2, 6.4, 8, 8}, {2, 0, 3.6, 8}, {6.4, 0, 8, 8}, {0, 6.8, 2, 7.6}});
  ring.substrate = {4.4, 1.6, 0.02};
  const geometry::Mesh mesh = geometry::make_mesh(ring, 0.4);
  EXPECT_LT(relative_error(mesh, Slab{4.4, 0.02, 1.6e-3, {}}, 2.4e9), 1e-10);
}

// The solver on the exact operator (FunctionOperator on the reference backend): COCG with
// Jacobi (the diagonal from the tables) to 1e-12 gives the dense LU's solution to 1e-9 on the
// FR-4 ring (Z is complex symmetric, so no Aᴴ product is needed).
TEST(ConvolutionOperator, CocgOnItSolvesAsTheDenseLu) {
  SKIP_WITHOUT_FFTW();
  geometry::Layout ring = geometry::test::layout_of(
      {{2, 0, 8, 1.6}, {2, 6.4, 8, 8}, {2, 0, 3.6, 8}, {6.4, 0, 8, 8}, {0, 6.8, 2, 7.6}});
  const geometry::Mesh mesh = geometry::make_mesh(ring, 0.4);
  const GreensTable greens(Slab{4.4, 0.02, 1.6e-3, {}}, 2.4e9, required_rho_max(mesh.grid()));
  const InteractionTables tables = make_interaction_tables(greens, mesh);
  const ImpedanceMatrix z = assemble_impedance(mesh, tables);
  auto op = std::make_shared<ConvolutionOperator>(mesh, tables);
  std::vector<cd> diagonal;
  for (int m = 0; m < z.n; ++m) diagonal.push_back(z(m, m));
  const auto n = static_cast<index_t>(z.n);
  auto a = std::make_shared<FunctionOperator<cd>>(
      n,
      host_apply<cd>(n,
                     [op, n](const cd* x, cd* y, index_t columns) {
                       for (index_t c = 0; c < columns; ++c)
                         op->apply({x + c * n, static_cast<std::size_t>(n)},
                                   {y + c * n, static_cast<std::size_t>(n)});
                     }),
      diagonal, static_cast<std::size_t>(op->footprint().kernels) * op->footprint().grid_points);
  auto backend = make_cpu_backend<cd>();
  SolverOptions o;
  o.method = Method::cocg;
  o.tolerance = 1e-12;
  o.max_iterations = 20000;
  Solver<cd> solver(*backend, a, o, MatrixTraits{true, false, false});
  std::mt19937 rng(3);
  std::normal_distribution<double> normal;
  std::vector<cd> b(static_cast<std::size_t>(z.n)), x;
  for (cd& v : b) v = cd(normal(rng), normal(rng));
  const SolveResult r = solver.solve(b, x);
  using RowMajor = Eigen::Matrix<cd, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Eigen::VectorXcd lu = Eigen::Map<const RowMajor>(z.values.data(), z.n, z.n)
                                  .partialPivLu()
                                  .solve(Eigen::Map<const Eigen::VectorXcd>(b.data(), z.n));
  const double error = (Eigen::Map<const Eigen::VectorXcd>(x.data(), z.n) - lu).norm() / lu.norm();
  std::printf("[convolution] COCG on the exact operator: %d iterations, error against LU %.1e\n",
              r.rhs[0].iterations, error);
  EXPECT_LT(error, 1e-9);
}

TEST(ConvolutionOperator, RefusesVectorsOfAnotherSize) {
  SKIP_WITHOUT_FFTW();
  const geometry::Mesh mesh = geometry::make_mesh(geometry::test::layout_of({{0, 0, 2, 1}}), 0.5);
  const GreensTable greens(Slab{3.38, 0.0, 0.508e-3, {}}, 3e9, required_rho_max(mesh.grid()));
  const ConvolutionOperator op(mesh, make_interaction_tables(greens, mesh));
  std::vector<cd> x(static_cast<std::size_t>(op.size()) + 1), y(x.size());
  EXPECT_THROW(op.apply(x, y), std::invalid_argument);
}

}  // namespace
}  // namespace pmom::mom
