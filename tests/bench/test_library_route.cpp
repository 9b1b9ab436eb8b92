// The library route's BiCGSTAB (cuSPARSE + cuBLAS, bench/cuda/baseline.cu) against the project's
// merged BiCGSTAB (Solver<T> on the CUDA backend) on the same systems: the same outcome, the
// iteration counts within rounding-driven drift, the same solution. Skipped with a message
// where no CUDA device is. The solver tests its residual after every iteration here
// (check_every = 1), as the library route does, so that the counts compare one to one.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <set>
#include <string>

#include "planarmom/bench/baseline.hpp"
#include "planarmom/bench/synthetic.hpp"
#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/io/load_matrix.hpp"
#include "support/gpu.hpp"
#include "support/independent_residual.hpp"
#include "support/suitesparse.hpp"
#include "support/systems.hpp"

namespace pmom {
namespace {

using cplx = std::complex<double>;

template <class T> double relative_difference(const std::vector<T>& x, const std::vector<T>& ref) {
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    diff += abs2(x[i] - ref[i]);
    norm += abs2(ref[i]);
  }
  return norm == 0 ? std::sqrt(diff) : std::sqrt(diff / norm);
}

// Both routes on A x = b from x₀ = 0; returns their results and solutions.
template <class T> struct Runs {
  bench::BaselineResult library;
  RhsResult merged;
  std::vector<T> x_library, x_merged;
};

template <class T> Runs<T> solve_both(const Csr<T>& a, const std::vector<T>& b, SolverOptions o) {
  o.method = Method::bicgstab;
  o.check_every = 1;
  auto gpu = make_cuda_backend<T>();
  Runs<T> runs;
  runs.library = bench::baseline_bicgstab<T>(a, b, runs.x_library, o);
  runs.merged = Solver<T>(*gpu, a, o).solve(b, runs.x_merged).rhs.at(0);
  return runs;
}

// A well-conditioned system (condition number near 5): the residual falls by a steady factor
// per iteration, so the different summation orders of cuBLAS and the fused kernels can move
// the crossing of the tolerance by an iteration, not more (2 allowed). Both solutions are
// within 1e-9 of the exact one at tolerance 1e-10 (systems.hpp), so they agree to 1e-8.
template <class T> void expect_same_on_generated_system(std::uint64_t seed) {
  const Csr<T> a = test::make_system<T>(test::SystemKind::general, 1500, seed);
  const auto bv = test::random_vector<T>(1500, seed + 1);
  const std::vector<T> b(bv.data(), bv.data() + bv.size());
  SolverOptions o;
  o.tolerance = 1e-10;
  const Runs<T> r = solve_both(a, b, o);
  EXPECT_EQ(r.library.outcome, Outcome::converged) << to_string(r.library.outcome);
  EXPECT_EQ(r.merged.outcome, Outcome::converged) << to_string(r.merged.outcome);
  EXPECT_GT(r.merged.iterations, 3);
  EXPECT_NEAR(r.library.iterations, r.merged.iterations, 2);
  EXPECT_LE(r.library.true_residual, o.tolerance);
  EXPECT_LE(relative_difference(r.x_library, r.x_merged), 1e-8);
}

TEST(LibraryRouteBicgstab, EqualsMergedOnComplexSystem) {
  PMOM_REQUIRE_GPU();
  expect_same_on_generated_system<cplx>(31);
}

TEST(LibraryRouteBicgstab, EqualsMergedOnRealSystem) {
  PMOM_REQUIRE_GPU();
  expect_same_on_generated_system<double>(32);
}

// The iteration limit ends both after exactly that many iterations.
TEST(LibraryRouteBicgstab, StopsAtTheIterationLimitAsTheSolverDoes) {
  PMOM_REQUIRE_GPU();
  const Csr<cplx> a = test::make_system<cplx>(test::SystemKind::general, 300, 33, 1.05);
  const auto bv = test::random_vector<cplx>(300, 34);
  SolverOptions o;
  o.max_iterations = 3;
  const Runs<cplx> r = solve_both(a, std::vector<cplx>(bv.data(), bv.data() + bv.size()), o);
  EXPECT_EQ(r.library.outcome, Outcome::max_iterations);
  EXPECT_EQ(r.merged.outcome, Outcome::max_iterations);
  EXPECT_EQ(r.library.iterations, 3);
  EXPECT_EQ(r.merged.iterations, 3);
  // Three iterations from the same start differ by rounding only.
  EXPECT_LE(relative_difference(r.x_library, r.x_merged), 1e-10);
}

// Real matrices, b = A·1 (Eigen, from the file's entries). A "converged" must be a true one:
// ‖b − Ax‖/‖b‖ recomputed by Eigen within the tolerance (both routes check the true residual
// before they stop). Every matrix on which the CPU's BiCGSTAB converges (support/suitesparse.hpp)
// must converge on both routes, except those where rounding decides whether BiCGSTAB breaks
// down (ρ = 0): on the H100 the library route broke down on tols1090 and orsirr_1 and the
// merged one on bcsstk13 and add20 (b = 1), and the merged one on 494_bus (b = A·1). Iteration
// counts and solutions are not compared on these ill-conditioned matrices: with b = A·1 two
// solutions that both meet the tolerance differed by up to 4% (bcsstk04, κ·2·tol) and the
// counts by 60% (tols1090, 185 against 114); the generated systems above compare both.
const std::set<std::string> rounding_decides = {"tols1090", "orsirr_1", "bcsstk13", "add20",
                                                "494_bus"};

template <class T>
void compare_on_matrix(const std::string& name, const io::MatrixMarketMatrix& m,
                       const std::filesystem::path& file, std::set<std::string>& both_converged) {
  const Csr<T> a = io::to_csr_matrix<T>(m, file);
  const test::SparseC reference = test::eigen_matrix(m);
  const std::vector<T> b = test::times_ones<T>(reference);
  SolverOptions o;
  o.max_iterations = 3000;
  const Runs<T> r = solve_both(a, b, o);
  SCOPED_TRACE(name);
  const double res_library = test::relative_residual<T>(reference, b, r.x_library);
  const double res_merged = test::relative_residual<T>(reference, b, r.x_merged);
  std::cout << name << ": merged " << to_string(r.merged.outcome) << " " << r.merged.iterations
            << " it, |b - Ax|/|b| " << res_merged << "; library " << to_string(r.library.outcome)
            << " " << r.library.iterations << " it, |b - Ax|/|b| " << res_library << '\n';
  const bool lib = r.library.outcome == Outcome::converged;
  const bool merged = r.merged.outcome == Outcome::converged;
  if (lib) {
    EXPECT_LE(res_library, o.tolerance);
  }
  if (merged) {
    EXPECT_LE(res_merged, o.tolerance);
  }
  if (test::cpu_converging_pairs.contains(name + " bicgstab") && !rounding_decides.contains(name)) {
    EXPECT_TRUE(lib) << "the library route did not converge: " << to_string(r.library.outcome);
    EXPECT_TRUE(merged) << "the merged route did not converge: " << to_string(r.merged.outcome);
  }
  if (lib && merged) both_converged.insert(name);
}

TEST(LibraryRouteBicgstab, EqualsMergedOnSharedAndSyntheticMatrices) {
  PMOM_REQUIRE_GPU();
  {
    const Csr<cplx> a = bench::synthetic_mom_matrix(2000);
    const std::vector<cplx> b(static_cast<std::size_t>(a.rows), cplx(1));
    SolverOptions o;
    const Runs<cplx> r = solve_both(a, b, o);
    EXPECT_EQ(r.library.outcome, Outcome::converged) << to_string(r.library.outcome);
    EXPECT_EQ(r.merged.outcome, Outcome::converged) << to_string(r.merged.outcome);
    EXPECT_LE(relative_difference(r.x_library, r.x_merged), 1e-5);
  }
  PMOM_GPU_SHARED_MATRICES();
  std::set<std::string> compared;
  for (const auto& e : std::filesystem::directory_iterator(test::shared_matrices)) {
    if (e.path().extension() != ".mtx") continue;
    const auto m = io::read_matrix_market(e.path());
    if (m.entries.rows != m.entries.cols) continue;
    const std::string name = e.path().stem().string();
    if (io::is_complex_field(m))
      compare_on_matrix<cplx>(name, m, e.path(), compared);
    else
      compare_on_matrix<double>(name, m, e.path(), compared);
  }
  std::cout << compared.size() << " matrices compared (both routes converged)\n";
}

// Sizes are checked before anything reaches the device.
TEST(LibraryRouteBicgstab, RejectsMismatchedSizes) {
  PMOM_GPU_OR_SKIP(bench::baseline_available(), "built without CUDA: no library route");
  const Csr<cplx> a = test::make_system<cplx>(test::SystemKind::general, 10, 1);
  const std::vector<cplx> b(9, cplx(1));
  std::vector<cplx> x;
  try {
    bench::baseline_bicgstab<cplx>(a, b, x, SolverOptions{});
    FAIL() << "a 10 x 10 matrix with 9 right-hand side values was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("b has 9"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace pmom
