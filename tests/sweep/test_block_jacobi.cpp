// The sweep's block preconditioner: its tiles, M⁻¹ from the host and from the backend (the
// backend's gather), and COCG with it against COCG with Jacobi on the coupler's Z.
#include <gtest/gtest.h>

#include <complex>
#include <random>
#include <set>
#include <vector>

#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/gpusolver/solver.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/deembed.hpp"
#include "planarmom/mom/greens_table.hpp"
#include "planarmom/mom/table_plan.hpp"
#include "planarmom/sweep/block_jacobi.hpp"
#include "support/coupler.hpp"
#include "support/gpu.hpp"

namespace pmom::sweep {
namespace {

using cd = std::complex<double>;

TEST(BlockJacobi, TilesHoldEveryFunctionOnceAndGrowToTheLimit) {
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

// A random complex symmetric matrix, dense row-major.
std::vector<cd> random_symmetric(index_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<cd> a(static_cast<std::size_t>(n) * n);
  for (index_t i = 0; i < n; ++i)
    for (index_t j = i; j < n; ++j) {
      const cd v(u(gen), u(gen));
      a[static_cast<std::size_t>(i) * n + j] = a[static_cast<std::size_t>(j) * n + i] =
          i == j ? v + cd(n, 0) : v;
    }
  return a;
}

// M⁻¹ applied to blockdiag(A) v gives v back, whether M⁻¹ came from the host or was gathered
// on the backend.
void check_inverse(Backend<cd>& backend) {
  const index_t n = 40;
  const std::vector<cd> a = random_symmetric(n, 7);
  // Interleaved blocks, to see that the order of the indices is kept.
  std::vector<std::vector<index_t>> blocks(3);
  for (index_t i = 0; i < n; ++i) blocks[static_cast<std::size_t>(i % 3)].push_back(i);
  std::vector<index_t> block_of(n);
  for (index_t i = 0; i < n; ++i) block_of[static_cast<std::size_t>(i)] = i % 3;
  std::vector<cd> v(n), mv(n, cd(0.0));
  for (index_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = cd(1.0 + i, -0.5 * i);
  for (index_t i = 0; i < n; ++i)
    for (index_t j = 0; j < n; ++j)
      if (block_of[static_cast<std::size_t>(i)] == block_of[static_cast<std::size_t>(j)])
        mv[static_cast<std::size_t>(i)] += a[static_cast<std::size_t>(i) * n + j] * v[static_cast<std::size_t>(j)];
  for (const bool gathered : {false, true}) {
    BlockJacobi m(backend, blocks, n);
    if (gathered) {
      Block<cd> values = backend.allocate<cd>(n * n, 1);
      backend.upload<cd>(a, values);
      m.set_positions([n](index_t i, index_t j) { return std::int64_t{i} * n + j; });
      m.update_on_backend(values.data());
    } else {
      m.update([&](index_t i, index_t j) { return a[static_cast<std::size_t>(i) * n + j]; });
    }
    Block<cd> x = backend.allocate<cd>(n, 1), y = backend.allocate<cd>(n, 1);
    backend.upload<cd>(mv, x);
    backend.spmv(*m.inverse(), Transpose::none, x, y);
    const std::vector<cd> back = backend.download(y);
    for (index_t i = 0; i < n; ++i)
      EXPECT_LT(std::abs(back[static_cast<std::size_t>(i)] - v[static_cast<std::size_t>(i)]),
                1e-12 * std::abs(v[static_cast<std::size_t>(i)]))
          << (gathered ? "gathered" : "host") << " entry " << i;
  }
}

TEST(BlockJacobi, InverseUndoesTheBlocksOnTheCpu) {
  auto backend = make_cpu_backend<cd>();
  check_inverse(*backend);
}

TEST(BlockJacobi, InverseUndoesTheBlocksOnTheGpu) {
  PMOM_REQUIRE_GPU();
  auto backend = make_cuda_backend<cd>();
  check_inverse(*backend);
}

TEST(BlockJacobi, GivenPreconditionerNeedsCocgAndNoJacobi) {
  auto backend = make_cpu_backend<cd>();
  const index_t n = 6;
  const std::vector<cd> a = random_symmetric(n, 3);
  const Csr<cd> csr = test::dense_csr(a, n);
  BlockJacobi m(*backend, {{0, 1, 2}, {3, 4, 5}}, n);
  SolverOptions o;
  o.method = Method::cocg;
  o.preconditioner = Preconditioner::jacobi;
  Solver<cd> with_jacobi(*backend, csr, o);
  EXPECT_THROW(with_jacobi.set_preconditioner(m.inverse()), std::invalid_argument);
  o.method = Method::bicg;
  o.preconditioner = Preconditioner::none;
  Solver<cd> bicg(*backend, csr, o);
  EXPECT_THROW(bicg.set_preconditioner(m.inverse()), std::invalid_argument);
}

// On the coupler's dense Z at 3 GHz (every entry kept, ports shorted): COCG with the tiles'
// blocks reaches the same solution as with Jacobi, to the tolerance, in fewer than half the
// iterations (839 and 141 for tiles of 16 cells when measured, docs/PERFORMANCE.md v0.12).
TEST(BlockJacobi, CocgOnTheCouplerConvergesInFewerIterations) {
  const geometry::Mesh mesh = test::coupler_example_mesh();
  const auto n = static_cast<index_t>(mesh.basis().size());
  const auto& sub = mesh.layout().substrate;
  const mom::GreensTable greens(mom::Slab{sub.eps_r, sub.loss_tangent, sub.height_mm * 1e-3},
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
