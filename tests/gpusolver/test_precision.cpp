// Single and mixed precision on the reference backend: compensated sums against exact ones,
// float and complex<float> solves against double ones and Eigen's LU, mixed-precision
// refinement reaching a double-precision tolerance that single precision alone cannot, and
// its stagnation on a matrix single precision cannot even represent.
#include <gtest/gtest.h>

#include <cmath>

#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/gpusolver/convert.hpp"
#include "planarmom/gpusolver/precision.hpp"
#include "support/summation_case.hpp"
#include "support/systems.hpp"

namespace pmom {
namespace {

using cplx = std::complex<double>;
using test::Dense;
using test::DenseVector;
using test::SystemKind;

using test::to_eigen;
using test::to_std;

template <class T> class SinglePrecision : public testing::Test {};
using SingleTypes = testing::Types<float, std::complex<float>>;
TYPED_TEST_SUITE(SinglePrecision, SingleTypes);

// A million float terms: plain summation (per-thread running sums) loses ~1e-4 and more;
// compensated summation must be exact to a few float ulps (1e-6 relative).
TYPED_TEST(SinglePrecision, CompensatedDotsAndNormsAreExactWherePlainOnesAreNot) {
  using T = TypeParam;
  const auto c = test::summation_case<T>();
  auto be = make_cpu_backend<T>();
  const auto n = static_cast<index_t>(c.x.rows());
  Block<T> x = be->template allocate<T>(n, 1), y = be->template allocate<T>(n, 1);
  be->template upload<T>(std::span<const T>(c.x.data(), c.x.size()), x);
  be->template upload<T>(std::span<const T>(c.y.data(), c.y.size()), y);
  Block<T> dot = be->template allocate<T>(1, 1);
  Block<real_t<T>> norm = be->template allocate<real_t<T>>(1, 1);
  double error[2], norm_error[2];
  for (const Summation s : {Summation::plain, Summation::compensated}) {
    be->dot(x, y, dot, true, s);
    be->norm2_squared(x, norm, s);
    error[static_cast<int>(s)] = test::dot_error(c, be->download(dot)[0]);
    norm_error[static_cast<int>(s)] = std::abs(be->download(norm)[0] - c.norm2) / c.norm2;
  }
  EXPECT_LE(error[1], 1e-6);
  EXPECT_LE(norm_error[1], 1e-6);
  // The case is hard for plain sums, or the check above would show nothing.
  EXPECT_GE(error[0], 1e-5);
  EXPECT_GE(norm_error[0], 1e-5);
}

// Cases: every Krylov method on the kind of matrix it is for.
struct Case {
  SystemKind kind;
  Method method;
};
const Case cases[] = {{SystemKind::general, Method::bicg},
                      {SystemKind::general, Method::bicgstab},
                      {SystemKind::complex_symmetric, Method::cocg},
                      {SystemKind::hermitian_positive_definite, Method::cg}};

// dominance 1.1: condition number near 20, so that float's 6e-8 rounding shows in the
// solution at ~1e-6 and double's does not.
template <class T> Csr<T> system(SystemKind kind, std::uint64_t seed) {
  return test::make_system<T>(kind, 400, seed, 1.1);
}

template <class T>
SolveResult solve_in(Precision p, const Case& c, const Csr<T>& a, const DenseVector<T>& b,
                     std::vector<T>& x, double tolerance, Summation summation = Summation::plain,
                     index_t nrhs = 1, RefinementOptions refinement = {}) {
  SolverOptions o;
  o.method = c.method;
  o.tolerance = tolerance;
  o.max_iterations = 2000;
  o.stagnation_window = 200;
  o.summation = summation;
  PrecisionSolver<T> solver("cpu", a, o, p, refinement);
  return solver.solve(to_std<T>(b), x, nrhs);
}

template <class T> class MixedPrecision : public testing::Test {};
using DoubleTypes = testing::Types<double, cplx>;
TYPED_TEST_SUITE(MixedPrecision, DoubleTypes);

// Single precision converges to its own 1e-5 (plain and compensated sums alike) and its
// answer is float-accurate: 1e-4 against LU (20 × float's rounding, with margin). Its
// residual is recomputed in double against the double matrix.
TYPED_TEST(MixedPrecision, SingleSolvesMatchLuToFloatAccuracy) {
  using T = TypeParam;
  for (const Case& c : cases)
    for (const Summation s : {Summation::plain, Summation::compensated}) {
      if (!is_complex_v<T> && c.kind == SystemKind::complex_symmetric) continue;
      const Csr<T> a = system<T>(c.kind, 5);
      const DenseVector<T> b = test::random_vector<T>(a.rows, 6);
      const DenseVector<T> ref = test::to_dense(a).partialPivLu().solve(b);
      std::vector<T> x;
      const SolveResult r = solve_in(Precision::single_precision, c, a, b, x, 1e-5, s);
      const std::string what = to_string(c.method) + " " + to_string(s);
      EXPECT_EQ(r.rhs[0].outcome, Outcome::converged) << what << ": " << to_string(r.rhs[0].outcome);
      EXPECT_LE(r.rhs[0].true_residual, 2e-5) << what;
      EXPECT_LE(test::relative_error(to_eigen(x), ref), 1e-4) << what;
      const DenseVector<T> res = b - test::to_dense(a) * to_eigen(x);
      EXPECT_NEAR(r.rhs[0].true_residual_inf, res.cwiseAbs().maxCoeff(), 1e-12 * b.norm());
    }
}

// 1e-12 is beyond single precision (it stagnates or runs out) but mixed refinement reaches it
// in a few outer steps, with the solution double-accurate: 1e-10 against LU (cond ~20).
TYPED_TEST(MixedPrecision, RefinementReachesDoubleToleranceWhereSingleCannot) {
  using T = TypeParam;
  for (const Case& c : cases) {
    if (!is_complex_v<T> && c.kind == SystemKind::complex_symmetric) continue;
    const Csr<T> a = system<T>(c.kind, 7);
    const index_t k = 3;
    DenseVector<T> b(a.rows * k);
    for (index_t j = 0; j < k; ++j) b.segment(j * a.rows, a.rows) = test::random_vector<T>(a.rows, 8 + j);
    std::vector<T> xs, xm;
    const SolveResult single = solve_in(Precision::single_precision, c, a, b, xs, 1e-12,
                                        Summation::plain, k);
    const SolveResult mixed = solve_in(Precision::mixed, c, a, b, xm, 1e-12, Summation::plain, k);
    const auto lu = test::to_dense(a).partialPivLu();
    for (index_t j = 0; j < k; ++j) {
      const std::string what = to_string(c.method) + " column " + std::to_string(j);
      EXPECT_NE(single.rhs[j].outcome, Outcome::converged) << what;
      EXPECT_EQ(mixed.rhs[j].outcome, Outcome::converged) << what << ": "
                                                          << to_string(mixed.rhs[j].outcome);
      EXPECT_LE(mixed.rhs[j].true_residual, 1e-12) << what;
      EXPECT_GE(mixed.rhs[j].refinements, 2) << what;
      EXPECT_FALSE(mixed.rhs[j].finished_in_double) << what;
      EXPECT_GT(mixed.rhs[j].iterations, 0) << what;
      const DenseVector<T> ref = lu.solve(DenseVector<T>(b.segment(j * a.rows, a.rows)));
      const DenseVector<T> got = to_eigen(xm).segment(j * a.rows, a.rows);
      EXPECT_LE(test::relative_error(got, ref), 1e-10) << what;
    }
  }
}

// Pairs of rows [1, 1; 1, 1 + 1e-8]: float rounds 1 + 1e-8 to 1, so its matrix is singular
// and no correction can help. Refinement alone must stop (stagnation or not finite), never
// return a NaN, and never leave the residual above where it started; with the double finish
// (the default) the double solver takes it to the tolerance, 1e-6 (the condition number,
// 4e8, puts double's attainable residual near 1e-16 × 4e8).
TEST(MixedPrecision, StopsWhereSingleCannotRepresentTheMatrixAndDoubleFinishes) {
  Coo<double> coo;
  const index_t n = 20;
  coo.rows = coo.cols = n;
  for (index_t i = 0; i < n; i += 2) {
    coo.push_back(i, i, 1);
    coo.push_back(i, i + 1, 1);
    coo.push_back(i + 1, i, 1);
    coo.push_back(i + 1, i + 1, 1 + 1e-8);
  }
  const Csr<double> a = to_csr(coo);
  const DenseVector<double> b = test::random_vector<double>(n, 3);
  const Case c{SystemKind::general, Method::bicgstab};
  RefinementOptions alone;
  alone.finish_in_double = false;
  std::vector<double> x;
  SolveResult r = solve_in(Precision::mixed, c, a, b, x, 1e-6, Summation::plain, 1, alone);
  EXPECT_TRUE(r.rhs[0].outcome == Outcome::stagnation || r.rhs[0].outcome == Outcome::not_finite)
      << to_string(r.rhs[0].outcome);
  EXPECT_FALSE(r.rhs[0].finished_in_double);
  for (double v : x) EXPECT_TRUE(std::isfinite(v));
  EXPECT_LE(r.rhs[0].true_residual, 1.0);  // x = 0 gives 1

  x.clear();
  r = solve_in(Precision::mixed, c, a, b, x, 1e-6);
  EXPECT_EQ(r.rhs[0].outcome, Outcome::converged) << to_string(r.rhs[0].outcome);
  EXPECT_TRUE(r.rhs[0].finished_in_double);
  EXPECT_LE(r.rhs[0].true_residual, 1e-6);
}

TEST(MixedPrecision, BadOptionsAndNamesSayWhatIsAllowed) {
  const Csr<double> a = test::make_system<double>(SystemKind::general, 10, 1);
  RefinementOptions bad;
  bad.inner_tolerance = 2;
  EXPECT_THROW(PrecisionSolver<double>("cpu", a, {}, Precision::mixed, bad), std::invalid_argument);
  bad = {};
  bad.min_reduction = 1;
  EXPECT_THROW(PrecisionSolver<double>("cpu", a, {}, Precision::mixed, bad), std::invalid_argument);
  EXPECT_EQ(parse_precision("mixed"), Precision::mixed);
  EXPECT_EQ(parse_summation("compensated"), Summation::compensated);
  try {
    parse_precision("quad");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("double, single, mixed"), std::string::npos) << e.what();
  }
}

TEST(MixedPrecision, ConversionRefusesValuesOutsideFloatRange) {
  Coo<double> coo;
  coo.rows = coo.cols = 2;
  coo.push_back(0, 0, 1);
  coo.push_back(1, 1, 1e39);
  try {
    convert_values<float>(to_csr(coo));
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("overflows"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("(1, 1)"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace pmom
