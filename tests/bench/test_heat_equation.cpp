// The heat equation's matrix (structure, symmetry, definiteness, against a dense Kronecker
// construction), its right-hand side, and the time stepping: the exact decay of the discrete
// sine mode, dense backward-Euler steps with a boundary value, the constant steady state, and
// the CUDA backend against the CPU one.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <cmath>
#include <numbers>

#include "planarmom/bench/heat_run.hpp"
#include "planarmom/gpusolver/backends.hpp"
#include "support/gpu.hpp"
#include "support/random_matrix.hpp"

namespace pmom::bench {
namespace {

using test::Dense;
using test::DenseVector;

HeatProblem problem(index_t n, double dt, double boundary = 0.0) {
  HeatProblem p;
  p.n = n;
  p.dt = dt;
  p.kappa = 1.0;
  p.boundary = boundary;
  return p;
}

DenseVector<double> as_eigen(const std::vector<double>& v) {
  return Eigen::Map<const DenseVector<double>>(v.data(), static_cast<Eigen::Index>(v.size()));
}

TEST(HeatMatrix, RowLengthsAtCornersEdgesAndInside) {
  for (index_t n : {1, 2, 3, 5, 8}) {
    const Csr<double> a = heat_matrix(problem(n, 1e-3));
    a.validate();
    ASSERT_EQ(a.rows, n * n);
    EXPECT_EQ(a.nnz(), 5 * n * n - 4 * n) << "n = " << n;
    for (index_t j = 0; j < n; ++j)
      for (index_t i = 0; i < n; ++i) {
        // One entry for the point, one per neighbour that is not on the boundary.
        const int expected = 1 + (i > 0) + (i < n - 1) + (j > 0) + (j < n - 1);
        EXPECT_EQ(a.row_length(i + n * j), expected) << "n = " << n << ", i = " << i
                                                     << ", j = " << j;
      }
  }
  // The counts the comment in heat_equation.hpp promises, on a 5 x 5 grid.
  const Csr<double> a = heat_matrix(problem(5, 1e-3));
  EXPECT_EQ(a.row_length(0), 3);       // corner
  EXPECT_EQ(a.row_length(24), 3);      // opposite corner
  EXPECT_EQ(a.row_length(2), 4);       // bottom edge
  EXPECT_EQ(a.row_length(2 * 5), 4);   // left edge
  EXPECT_EQ(a.row_length(12), 5);      // centre
}

// I + r (T ⊗ I + I ⊗ T) with T = tridiag(−1, 2, −1), built as a dense Kronecker sum: an
// independent construction of the same matrix. Entries are sums of at most two products of
// r with small integers, so 1e-15 relative is a few roundings.
TEST(HeatMatrix, EqualsTheDenseKroneckerSum) {
  const HeatProblem p = problem(4, 3e-3);
  const double r = mesh_ratio(p);
  EXPECT_DOUBLE_EQ(r, 3e-3 * 25);
  const index_t n = p.n;
  Dense<double> t = Dense<double>::Zero(n, n);
  for (index_t i = 0; i < n; ++i) {
    t(i, i) = 2;
    if (i > 0) t(i, i - 1) = t(i - 1, i) = -1;
  }
  Dense<double> want = Dense<double>::Identity(n * n, n * n);
  for (index_t j = 0; j < n; ++j)
    for (index_t i = 0; i < n; ++i)
      for (index_t l = 0; l < n; ++l)
        for (index_t k = 0; k < n; ++k) {
          // Row i + n j, column k + n l: x-neighbours share j = l, y-neighbours share i = k.
          const double kron = (j == l ? t(i, k) : 0.0) + (i == k ? t(j, l) : 0.0);
          want(i + n * j, k + n * l) += r * kron;
        }
  const Dense<double> got = test::to_dense(heat_matrix(p));
  EXPECT_LE((got - want).cwiseAbs().maxCoeff(), 1e-15 * want.cwiseAbs().maxCoeff());
}

// Symmetric bit for bit; strictly diagonally dominant with a positive diagonal, so by
// Gershgorin every eigenvalue is >= diagonal − off-diagonal sum = 1 (up to the rounding of
// 1 + 4r, hence the 1e-12). The smallest eigenvalue is the sine mode's, 1 + κΔt λ_h, which
// Eigen's symmetric eigensolver finds to about n² ε ‖A‖ (1e-12 relative allows for it).
TEST(HeatMatrix, SymmetricPositiveDefinite) {
  const HeatProblem p = problem(6, 2e-2);
  const Csr<double> a = heat_matrix(p);
  const Dense<double> d = test::to_dense(a);
  for (index_t i = 0; i < a.rows; ++i) {
    double off = 0, diagonal = 0;
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const index_t j = a.col_idx[k];
      EXPECT_EQ(a.values[k], d(j, i)) << "A(" << i << ", " << j << ") != A(" << j << ", " << i << ")";
      if (j == i) diagonal = a.values[k];
      else off += std::abs(a.values[k]);
    }
    EXPECT_GT(diagonal, 0);
    EXPECT_GT(diagonal - off, 1 - 1e-12) << "row " << i;
  }
  const Eigen::SelfAdjointEigenSolver<Dense<double>> eigen(d);
  const double smallest = eigen.eigenvalues().minCoeff();
  EXPECT_GE(smallest, 1 - 1e-12);
  EXPECT_NEAR(smallest, 1 / sine_mode_decay(p), 1e-12 * eigen.eigenvalues().maxCoeff());
}

TEST(HeatMatrix, RightHandSideCarriesTheBoundaryValue) {
  const HeatProblem one = problem(1, 1e-2, 3.0);
  std::vector<double> b;
  heat_rhs(one, {1.0}, b);
  // The single interior point has all four neighbours on the boundary.
  EXPECT_DOUBLE_EQ(b[0], 1.0 + 4 * mesh_ratio(one) * 3.0);

  const HeatProblem p = problem(3, 1e-2, 2.0);
  const double g = mesh_ratio(p) * 2.0;
  heat_rhs(p, std::vector<double>(9, 0.5), b);
  const std::vector<double> want{0.5 + 2 * g, 0.5 + g, 0.5 + 2 * g, 0.5 + g, 0.5,
                                 0.5 + g,     0.5 + 2 * g, 0.5 + g, 0.5 + 2 * g};
  for (std::size_t k = 0; k < 9; ++k) EXPECT_DOUBLE_EQ(b[k], want[k]) << "point " << k;
  EXPECT_THROW(heat_rhs(p, std::vector<double>(8, 0.0), b), std::invalid_argument);
}

TEST(HeatMatrix, RejectsBadProblems) {
  EXPECT_THROW(heat_matrix(problem(0, 1e-3)), std::invalid_argument);
  EXPECT_THROW(heat_matrix(problem(-3, 1e-3)), std::invalid_argument);
  EXPECT_THROW(heat_matrix(problem(20725, 1e-3)), std::invalid_argument);  // nnz > 2^31 − 1
  EXPECT_THROW(heat_matrix(problem(4, 0.0)), std::invalid_argument);
  EXPECT_THROW(heat_matrix(problem(4, -1e-3)), std::invalid_argument);
  EXPECT_THROW(heat_matrix(problem(4, std::nan(""))), std::invalid_argument);
  EXPECT_THROW(heat_matrix(problem(4, 1e-3, INFINITY)), std::invalid_argument);
  HeatProblem p = problem(4, 1e-3);
  p.kappa = 0;
  EXPECT_THROW(validate(p), std::invalid_argument);
  EXPECT_NO_THROW(validate(problem(20724, 1e-3)));
  auto backend = make_cpu_backend<double>();
  std::vector<double> u(16, 0.0);
  EXPECT_THROW(run_heat(problem(4, 1e-3), u, 0, *backend, {}), std::invalid_argument);
  std::vector<double> wrong(15, 0.0);
  EXPECT_THROW(run_heat(problem(4, 1e-3), wrong, 1, *backend, {}), std::invalid_argument);
}

// The discrete sine mode is an eigenvector of A with a constant diagonal, so the Jacobi-
// preconditioned Krylov space of the first step's residual is one-dimensional: CG ends after
// one iteration with the exact answer up to rounding (1e-14: a few ulps of the values after
// the sums of 5 terms). Later steps start from a field carrying the earlier steps' solver
// error; each step adds at most tol·‖b‖₂ (A's eigenvalues are >= 1, so earlier errors do not
// grow), which bounds the final max-norm error relative to the amplitude a by
// S · tol · ‖u₀‖₂ / a_final = S · tol · μ^{−S} (n+1)/2 (‖sine field‖₂ = a (n+1)/2).
TEST(HeatRun, SineModeDecaysExactly) {
  const HeatProblem p = problem(31, 1e-3);  // κΔt/h² = 1.024: the field decays 2% per step
  const std::vector<double> start = initial_field(p, HeatInitial::sine);
  const double mu = sine_mode_decay(p);
  auto backend = make_cpu_backend<double>();
  SolverOptions o;
  o.method = Method::cg;
  o.tolerance = 1e-13;

  std::vector<double> u = start;
  const HeatRunStats first = run_heat(p, u, 1, *backend, o);
  EXPECT_EQ(first.steps[0].iterations, 1);
  for (std::size_t k = 0; k < u.size(); ++k)
    ASSERT_NEAR(u[k], mu * start[k], 1e-14) << "point " << k;

  constexpr int more = 19;
  const HeatRunStats rest = run_heat(p, u, more, *backend, o);
  ASSERT_TRUE(rest.all_converged());
  const int steps = more + 1;
  const double factor = std::pow(mu, steps);
  const double bound = steps * o.tolerance / factor * (p.n + 1) / 2.0;
  double error = 0;
  for (std::size_t k = 0; k < u.size(); ++k)
    error = std::max(error, std::abs(u[k] - factor * start[k]));
  EXPECT_LE(error / factor, bound);  // the amplitude of the start field is 1 (at the centre)
  // The rate behind μ is λ_h = 2π² (sin x / x)², x = πh/2: just below the continuous 2π², by
  // at most 2π² · π²h²/12 (from sin x / x >= 1 − x²/6).
  const double lambda_h = (1 / mu - 1) / (p.kappa * p.dt);
  const double lambda = 2 * std::numbers::pi * std::numbers::pi;
  const double h = 1.0 / (p.n + 1);
  EXPECT_LT(lambda_h, lambda);
  EXPECT_LE(lambda - lambda_h, lambda * std::numbers::pi * std::numbers::pi * h * h / 12);
}

// A Gaussian with the boundary held at 0.5, stepped by dense LU: each CG step leaves a
// residual of at most tol·‖b‖₂ and A⁻¹ has norm <= 1, so after S steps the fields differ by at
// most S · tol · max‖b‖₂ (twice that covers the rounding of both sides).
TEST(HeatRun, MatchesDenseBackwardEuler) {
  const HeatProblem p = problem(7, 1e-2, 0.5);
  const std::vector<double> start = initial_field(p, HeatInitial::gaussian);
  const Dense<double> a = test::to_dense(heat_matrix(p));
  const Eigen::PartialPivLU<Dense<double>> lu(a);
  constexpr int steps = 5;
  std::vector<double> ref = start, b;
  double max_b = 0;
  for (int s = 0; s < steps; ++s) {
    heat_rhs(p, ref, b);
    max_b = std::max(max_b, as_eigen(b).norm());
    const DenseVector<double> next = lu.solve(as_eigen(b));
    ref.assign(next.data(), next.data() + next.size());
  }
  auto backend = make_cpu_backend<double>();
  SolverOptions o;
  o.method = Method::cg;
  o.tolerance = 1e-12;
  std::vector<double> u = start;
  const HeatRunStats stats = run_heat(p, u, steps, *backend, o);
  ASSERT_TRUE(stats.all_converged());
  EXPECT_EQ(stats.steps.size(), static_cast<std::size_t>(steps));
  EXPECT_EQ(stats.unknowns, 49);
  EXPECT_EQ(stats.nnz, 5u * 49 - 4 * 7);
  EXPECT_EQ(stats.method, Method::cg);
  EXPECT_LE((as_eigen(u) - as_eigen(ref)).norm(), 2 * steps * o.tolerance * max_b);
  // Heat flows in from the boundary: the corner point warms towards 0.5.
  EXPECT_GT(u[0], start[0]);
}

// The constant field equal to the boundary value is the steady state: b − A u = 0 in exact
// arithmetic, so the warm-started solve stops at once and the field stays (to rounding).
TEST(HeatRun, BoundaryValueIsTheSteadyState) {
  const HeatProblem p = problem(5, 1e-2, 3.0);
  std::vector<double> u(25, 3.0);
  auto backend = make_cpu_backend<double>();
  SolverOptions o;
  o.method = Method::cg;
  const HeatRunStats stats = run_heat(p, u, 2, *backend, o);
  EXPECT_TRUE(stats.all_converged());
  EXPECT_EQ(stats.iterations(), 0);
  for (double v : u) EXPECT_NEAR(v, 3.0, 1e-14);
  EXPECT_EQ(stats.seconds_per_iteration(), 0.0);
}

// The CUDA backend against the CPU one: each solves every step to tol, so by the bound of
// MatchesDenseBackwardEuler both lie within S · tol · max‖b‖₂ of the exact steps.
TEST(HeatRun, CudaMatchesCpu) {
  PMOM_REQUIRE_GPU();
  const HeatProblem p = problem(100, 1e-3);
  const std::vector<double> start = initial_field(p, HeatInitial::square);
  SolverOptions o;
  o.method = Method::cg;
  o.tolerance = 1e-11;
  constexpr int steps = 3;
  auto cpu = make_cpu_backend<double>();
  auto cuda = make_cuda_backend<double>();
  std::vector<double> u_cpu = start, u_cuda = start, b;
  ASSERT_TRUE(run_heat(p, u_cpu, steps, *cpu, o).all_converged());
  const HeatRunStats stats = run_heat(p, u_cuda, steps, *cuda, o);
  ASSERT_TRUE(stats.all_converged());
  EXPECT_EQ(stats.backend, cuda->name());
  // With the boundary at 0, ‖A⁻¹‖ <= 1 makes the first right-hand side the largest.
  heat_rhs(p, start, b);
  EXPECT_LE((as_eigen(u_cuda) - as_eigen(u_cpu)).norm(),
            2 * 2 * steps * o.tolerance * as_eigen(b).norm());
}

}  // namespace
}  // namespace pmom::bench
