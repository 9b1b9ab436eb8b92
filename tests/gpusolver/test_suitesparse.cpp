// The solvers on the real SuiteSparse matrices of ../shared/matrices, complex and real
// (skipped with a message where that folder is absent, as in a user's clone).
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <set>
#include <string>

#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/gpusolver/solver.hpp"
#include "planarmom/io/load_matrix.hpp"
#include "support/independent_residual.hpp"
#include "support/suitesparse.hpp"

namespace pmom {
namespace {

// Every method that applies to the matrix, from b = A·1 computed by Eigen. A "converged" must
// be a true one: ‖b − Ax‖/‖b‖ recomputed by Eigen from the file's own entries within 10x of
// the tolerance (the recurrence residual that stopped the solver may drift from the true one,
// but not by more than that on these matrices).
template <class T>
void solve_all_methods(const std::string& name, const io::MatrixMarketMatrix& m,
                       const std::filesystem::path& file, std::set<std::string>& converged) {
  const Csr<T> a = io::to_csr_matrix<T>(m, file);
  const test::SparseC reference = test::eigen_matrix(m);
  const std::vector<T> b = test::times_ones<T>(reference);
  auto backend = make_cpu_backend<T>();
  for (const Method method : test::applicable_methods(analyse(a))) {
    SolverOptions o;
    o.method = method;
    o.tolerance = 1e-7;
    o.max_iterations = 3000;
    std::vector<T> x;
    const SolveResult r = Solver<T>(*backend, a, o).solve(b, x);
    const std::string pair = name + " " + to_string(method);
    SCOPED_TRACE(pair);
    const double residual = test::relative_residual<T>(reference, b, x);
    std::cout << pair << ": " << to_string(r.rhs[0].outcome) << " after " << r.rhs[0].iterations
              << " iterations, |b - Ax|/|b| " << residual << '\n';
    if (r.rhs[0].outcome != Outcome::converged) continue;
    converged.insert(pair);
    EXPECT_LE(residual, 10 * o.tolerance);
  }
}

TEST(SuiteSparse, PinnedPairsConvergeToATrueResidual) {
  if (!std::filesystem::is_directory(test::shared_matrices))
    GTEST_SKIP() << "shared matrices not present at " << test::shared_matrices
                 << " (they come with the project's CI checkout, not with a clone)";
  std::set<std::string> converged;
  for (const auto& e : std::filesystem::directory_iterator(test::shared_matrices)) {
    if (e.path().extension() != ".mtx") continue;
    const io::MatrixMarketMatrix m = io::read_matrix_market(e.path());
    if (m.entries.rows != m.entries.cols) continue;
    const std::string name = e.path().stem().string();
    if (io::is_complex_field(m))
      solve_all_methods<std::complex<double>>(name, m, e.path(), converged);
    else
      solve_all_methods<double>(name, m, e.path(), converged);
  }
  // A pair that newly converges is fine; one that stops is a regression.
  for (const std::string& pair : test::cpu_converging_pairs)
    EXPECT_TRUE(converged.contains(pair)) << pair << " no longer converges";
  for (const std::string& pair : converged)
    if (!test::cpu_converging_pairs.contains(pair))
      std::cout << "newly converging: " << pair << '\n';
}

}  // namespace
}  // namespace pmom
