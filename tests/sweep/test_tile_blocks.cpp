// The sweep's block Jacobi groups: its tiles, and COCG with block Jacobi on them against COCG
// with Jacobi on the coupler's Z.
#include <gtest/gtest.h>

#include <complex>
#include <set>
#include <vector>

#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/gpusolver/preconditioners/block_jacobi.hpp"
#include "planarmom/gpusolver/solver.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/deembed.hpp"
#include "planarmom/mom/greens_table.hpp"
#include "planarmom/mom/table_plan.hpp"
#include "planarmom/sweep/tile_blocks.hpp"
#include "support/coupler.hpp"

namespace pmom::sweep {
namespace {

using cd = std::complex<double>;

TEST(TileBlocks, HoldEveryFunctionOnceAndGrowToTheLimit) {
  const geometry::Mesh mesh = test::coupler_example_mesh();
  const auto n = static_cast<index_t>(mesh.basis().size());
  for (const int tile : {1, 4, 9, 30}) {
    std::set<index_t> seen;
    for (const auto& b : tile_blocks(mesh, tile)) {
      EXPECT_TRUE(std::is_sorted(b.begin(), b.end()));
      for (const index_t i : b) EXPECT_TRUE(seen.insert(i).second);
    }
    EXPECT_EQ(seen.size(), static_cast<std::size_t>(n));
  }
  const int tile = tile_for(mesh, 100);
  std::size_t biggest = 0, next = 0;
  for (const auto& b : tile_blocks(mesh, tile)) biggest = std::max(biggest, b.size());
  for (const auto& b : tile_blocks(mesh, tile + 1)) next = std::max(next, b.size());
  EXPECT_LE(biggest, 100u);
  EXPECT_GT(next, 100u);  // the largest such tile
  EXPECT_THROW((void)tile_blocks(mesh, 0), std::invalid_argument);
}

// On the coupler's dense Z at 3 GHz (every entry kept, ports shorted): COCG with the tiles'
// blocks reaches the same solution as with Jacobi, to the tolerance, in fewer than half the
// iterations (839 and 141 for tiles of 16 cells when measured, docs/PERFORMANCE.md v0.12).
TEST(TileBlocks, CocgOnTheCouplerConvergesInFewerIterations) {
  const geometry::Mesh mesh = test::coupler_example_mesh();
  const auto n = static_cast<index_t>(mesh.basis().size());
  const auto& sub = mesh.layout().substrate;
  const mom::GreensTable greens(mom::Slab{sub.eps_r, sub.loss_tangent, sub.height_mm * 1e-3, {}},
                                3e9, mom::required_rho_max(mesh.grid()));
  const mom::ImpedanceMatrix z =
      mom::assemble_impedance(mesh, mom::evaluate_tables(mom::make_table_plan(mesh), greens));
  const Csr<cd> csr = test::dense_csr(z.values, n);
  const std::vector<cd> b = mom::port_excitations(mesh);
  const index_t ports = static_cast<index_t>(mesh.ports().size());
  auto backend = make_cpu_backend<cd>();
  SolverOptions o;
  o.method = Method::cocg;
  o.tolerance = 1e-9;
  o.max_iterations = 5000;
  Solver<cd> jacobi(*backend, csr, o);
  std::vector<cd> x_jacobi;
  const SolveResult rj = jacobi.solve(b, x_jacobi, ports);
  o.preconditioner = Preconditioner::none;
  Solver<cd> blocked(*backend, csr, o);
  BlockJacobi m(*backend, tile_blocks(mesh, 16), n);
  m.update([&z](index_t i, index_t j) { return z(i, j); });
  blocked.set_preconditioner(m.inverse());
  std::vector<cd> x_block;
  const SolveResult rb = blocked.solve(b, x_block, ports);
  ASSERT_TRUE(rj.all_converged());
  ASSERT_TRUE(rb.all_converged());
  EXPECT_LT(2 * rb.iterations, rj.iterations);
  double diff = 0, norm = 0;
  for (std::size_t k = 0; k < x_block.size(); ++k) {
    diff = std::max(diff, std::abs(x_block[k] - x_jacobi[k]));
    norm = std::max(norm, std::abs(x_jacobi[k]));
  }
  // Both within 1e-9 of b in the residual; Z's condition number (~1e3 here) lets the
  // solutions differ by a few 1e-7 of their size.
  EXPECT_LT(diff, 1e-6 * norm);
}

}  // namespace
}  // namespace pmom::sweep
