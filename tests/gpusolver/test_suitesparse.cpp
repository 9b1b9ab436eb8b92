// The solvers on the real SuiteSparse matrices of ../shared/matrices, complex and real
// (skipped with a message where that folder is absent, as in a user's clone).
#include <gtest/gtest.h>

#include <filesystem>

#include "planarmom/bench/matrix_bench.hpp"

namespace pmom {
namespace {

const std::filesystem::path shared_matrices =
    std::filesystem::path(PLANARMOM_SOURCE_DIR) / ".." / "shared" / "matrices";

// Every converged run's true residual must be within 10x of the tolerance: the recurrence
// residual that stopped the solver may drift from b - Ax, but not by more than that.
TEST(SuiteSparse, ConvergedRunsHaveTrueResidualNearTolerance) {
  if (!std::filesystem::is_directory(shared_matrices))
    GTEST_SKIP() << "shared matrices not present at " << shared_matrices
                 << " (they come with the project's CI checkout, not with a clone)";
  bench::BenchOptions o;
  o.inputs = {shared_matrices};
  o.warmup = 0;
  o.repetitions = 1;
  o.solver.tolerance = 1e-7;
  o.solver.max_iterations = 3000;
  const auto rows = bench::run_bench(o);
  ASSERT_FALSE(rows.empty());
  int converged = 0;
  for (const auto& r : rows) {
    SCOPED_TRACE(r.matrix + " " + to_string(r.method));
    if (r.outcome == Outcome::converged) {
      ++converged;
      EXPECT_LE(r.true_residual, 10 * o.solver.tolerance);
    }
  }
  EXPECT_GE(converged, 1);
}

}  // namespace
}  // namespace pmom
