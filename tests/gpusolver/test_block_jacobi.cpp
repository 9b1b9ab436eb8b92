// Block Jacobi: M⁻¹ from the host and from the backend (the backend's gather) undoes the
// blocks it was made of, and the solvers take it only where it fits (COCG, no Jacobi).
#include <gtest/gtest.h>

#include <complex>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/gpusolver/preconditioners/block_jacobi.hpp"
#include "planarmom/gpusolver/solver.hpp"
#include "support/dense_csr.hpp"
#include "support/gpu.hpp"

namespace pmom {
namespace {

using cd = std::complex<double>;

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

// Groups that miss an index or hold one twice are refused; a singular block is named when M⁻¹
// is made, and reading A on the backend needs its positions first.
TEST(BlockJacobi, RefusesBadGroupsAndNamesASingularBlock) {
  auto backend = make_cpu_backend<cd>();
  EXPECT_THROW(BlockJacobi(*backend, {{0, 1}, {1, 2}}, 3), std::invalid_argument);
  EXPECT_THROW(BlockJacobi(*backend, {{0, 1}}, 3), std::invalid_argument);
  BlockJacobi m(*backend, {{0, 1}, {2, 3}}, 4);
  EXPECT_THROW(m.update_on_backend(nullptr), std::logic_error);
  try {
    m.update([](index_t i, index_t j) { return i < 2 && i == j ? cd(1.0) : cd(0.0); });
    FAIL() << "the second block is zero";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("diagonal block 1 "), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace pmom
