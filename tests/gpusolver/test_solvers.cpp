// Krylov solvers on the reference backend: convergence to the dense solution on genuinely
// complex systems of every kind, COCG/CG equal to BiCG's iterates, outcome reporting
// (breakdowns, NaN, iteration limit), multi-RHS and initial guesses, all formats.
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/gpusolver/solver.hpp"
#include "support/in_place_values.hpp"
#include "support/systems.hpp"

namespace pmom {
namespace {

using cplx = std::complex<double>;
using test::DenseVector;
using test::SystemKind;

using test::to_eigen;
using test::to_std;

struct Case {
  SystemKind kind;
  Method method;
  Format format;
  AdjointMode adjoint;
};

std::string case_name(const testing::TestParamInfo<Case>& info) {
  const char* kinds[] = {"general", "complexsym", "hpd"};
  return std::string(kinds[static_cast<int>(info.param.kind)]) + "_" +
         to_string(info.param.method) + "_" +
         to_string(info.param.format) + "_" +
         (info.param.adjoint == AdjointMode::stored ? "stored" : "transposed");
}

class SolverConvergence : public testing::TestWithParam<Case> {};

// Tolerance 1e-10 on the residual; the systems have condition numbers near 5, so the
// solution must match Eigen's LU to 1e-8 relative (a factor 100 of margin for rounding).
template <class T> void expect_solves(const Case& c, index_t n, std::uint64_t seed) {
  const Csr<T> a = test::make_system<T>(c.kind, n, seed);
  const DenseVector<T> b = test::random_vector<T>(n, seed + 7);
  const DenseVector<T> ref = test::to_dense(a).partialPivLu().solve(b);

  auto backend = make_cpu_backend<T>();
  SolverOptions o;
  o.method = c.method;
  o.tolerance = 1e-10;
  o.max_iterations = 1000;
  o.format = c.format;
  o.adjoint = c.adjoint;
  o.dia.max_fill = 1e9;  // random sparse systems: DIA stores their many diagonals anyway
  Solver<T> solver(*backend, a, o);
  std::vector<T> x;
  const SolveResult r = solver.solve(to_std<T>(b), x);
  ASSERT_EQ(r.rhs.size(), 1u);
  EXPECT_EQ(r.rhs[0].outcome, Outcome::converged) << to_string(r.rhs[0].outcome);
  EXPECT_LE(r.rhs[0].true_residual, 1e-9);
  EXPECT_GT(r.rhs[0].iterations, 1);
  EXPECT_LE(test::relative_error(to_eigen(x), ref), 1e-8);
}

TEST_P(SolverConvergence, ComplexMatchesDenseSolve) { expect_solves<cplx>(GetParam(), 300, 11); }
TEST_P(SolverConvergence, RealMatchesDenseSolve) { expect_solves<double>(GetParam(), 300, 12); }

std::vector<Case> convergence_cases() {
  std::vector<Case> cases;
  const std::pair<SystemKind, std::vector<Method>> table[] = {
      {SystemKind::general, {Method::bicg, Method::bicgstab}},
      {SystemKind::complex_symmetric, {Method::bicg, Method::cocg, Method::bicgstab}},
      {SystemKind::hermitian_positive_definite, {Method::bicg, Method::cg, Method::bicgstab}}};
  for (const auto& [kind, methods] : table)
    for (Method m : methods)
      for (Format f : all_formats)
        for (AdjointMode adj : {AdjointMode::stored, AdjointMode::transposed_kernel})
          if (m == Method::bicg || adj == AdjointMode::stored) cases.push_back({kind, m, f, adj});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(AllKinds, SolverConvergence, testing::ValuesIn(convergence_cases()),
                         case_name);

template <class T> SolveResult run(const Csr<T>& a, std::span<const T> b, SolverOptions o,
                                   std::vector<T>& x, index_t nrhs = 1) {
  auto backend = make_cpu_backend<T>();
  Solver<T> solver(*backend, a, o);
  return solver.solve(b, x, nrhs);
}

// The residual norms of two methods that are the same algorithm in exact arithmetic agree
// to rounding; 1e-9 relative allows the different summation orders of the kernels.
void expect_same_iterates(const SolveResult& x, const SolveResult& y) {
  const auto& hx = x.rhs[0].history;
  const auto& hy = y.rhs[0].history;
  ASSERT_EQ(hx.size(), hy.size());
  ASSERT_GT(hx.size(), 5u);
  for (std::size_t i = 0; i < hx.size(); ++i)
    EXPECT_NEAR(hx[i], hy[i], 1e-9 * hx[0]) << "iteration " << i;
}

// Runs BiCG with the given shadow start and `other` on the same system; they must be the
// same algorithm: same residual history and the same solution.
void expect_equals_bicg(SystemKind kind, ShadowStart start, Method other, std::uint64_t seed) {
  const Csr<cplx> a = test::make_system<cplx>(kind, 250, seed, 1.1);
  const auto b = to_std<cplx>(test::random_vector<cplx>(250, seed + 1));
  SolverOptions o;
  o.tolerance = 1e-10;
  o.shadow_start = start;
  o.method = Method::bicg;
  std::vector<cplx> xb, xo;
  const SolveResult rb = run<cplx>(a, b, o, xb);
  o.method = other;
  const SolveResult ro = run<cplx>(a, b, o, xo);
  EXPECT_EQ(rb.method, Method::bicg);
  EXPECT_EQ(ro.method, other);
  expect_same_iterates(rb, ro);
  EXPECT_LE(test::relative_error(to_eigen(xb), to_eigen(xo)), 1e-9);
}

TEST(SolverIterates, CocgEqualsBicgWithConjugateShadowOnComplexSymmetric) {
  expect_equals_bicg(SystemKind::complex_symmetric, ShadowStart::conj_residual, Method::cocg, 5);
}

TEST(SolverIterates, CgEqualsBicgWithResidualShadowOnHermitian) {
  expect_equals_bicg(SystemKind::hermitian_positive_definite, ShadowStart::residual, Method::cg,
                     8);
}

// A unit diagonal makes Jacobi the identity: BiCGSTAB with it (p̂ = 1·p in separate vectors)
// and without it (p̂ and ŝ are p and s, no diagonal pass) do the same arithmetic but for
// FMA: the compiler fuses a multiply-add in one kernel's vectorised loop and not in another's
// (CMakeLists.txt, PLANARMOM_NATIVE), one rounding instead of two. So their histories agree to
// rounding grown over the iterations (measured 9e-13 after 7 on a κ ≈ 5 system; bar 1e-10)
// and their solutions to a few ulps (1.3e-16 of the largest; bar 1e-14), and both solve the
// system.
TEST(SolverIterates, BicgstabWithoutJacobiEqualsJacobiOnUnitDiagonal) {
  Csr<cplx> a = test::make_system<cplx>(SystemKind::general, 250, 17);
  for (index_t i = 0; i < a.rows; ++i) {
    cplx diag(0);
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      if (a.col_idx[k] == i) diag = a.values[k];
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      a.values[k] = a.col_idx[k] == i ? cplx(1.0) : a.values[k] / diag;
  }
  const DenseVector<cplx> b = test::random_vector<cplx>(250, 18);
  SolverOptions o;
  o.method = Method::bicgstab;
  o.tolerance = 1e-10;
  std::vector<cplx> xj, xn;
  const SolveResult rj = run<cplx>(a, to_std<cplx>(b), o, xj);
  o.preconditioner = Preconditioner::none;
  const SolveResult rn = run<cplx>(a, to_std<cplx>(b), o, xn);
  EXPECT_EQ(rj.rhs[0].outcome, Outcome::converged);
  EXPECT_EQ(rn.rhs[0].outcome, Outcome::converged);
  EXPECT_GT(rn.rhs[0].history.size(), 5u);
  ASSERT_EQ(rn.rhs[0].history.size(), rj.rhs[0].history.size());
  double worst_history = 0, worst_x = 0, size_x = 0;
  for (std::size_t k = 0; k < rn.rhs[0].history.size(); ++k)
    worst_history =
        std::max(worst_history, std::abs(rn.rhs[0].history[k] / rj.rhs[0].history[k] - 1));
  for (std::size_t k = 0; k < xn.size(); ++k) {
    worst_x = std::max(worst_x, std::abs(xn[k] - xj[k]));
    size_x = std::max(size_x, std::abs(xj[k]));
  }
  std::printf("[bicgstab] %zu iterations, residuals within %.3g, x within %.3g of its largest\n",
              rn.rhs[0].history.size(), worst_history, worst_x / size_x);
  EXPECT_LT(worst_history, 1e-10);
  EXPECT_LT(worst_x, 1e-14 * size_x);
  // As in SolverConvergence: condition number near 5, so 1e-10 in the residual is 1e-8 in x.
  const DenseVector<cplx> ref = test::to_dense(a).partialPivLu().solve(b);
  EXPECT_LE(test::relative_error(to_eigen(xn), ref), 1e-8);
}

TEST(SolverChoice, AutomaticPicksByStructure) {
  auto backend = make_cpu_backend<cplx>();
  auto method_for = [&](SystemKind kind) {
    return Solver<cplx>(*backend, test::make_system<cplx>(kind, 40, 3), SolverOptions{})
        .method();
  };
  EXPECT_EQ(method_for(SystemKind::general), Method::bicg);
  EXPECT_EQ(method_for(SystemKind::complex_symmetric), Method::cocg);
  EXPECT_EQ(method_for(SystemKind::hermitian_positive_definite), Method::cg);
}

// A = [[0, 1], [1, 0]], b = e₁: r̃₀ = r₀ = e₁, p = e₁, Ap = e₂, so p̃ᴴAp = 0 at once.
TEST(SolverOutcome, SigmaBreakdownIsReported) {
  Coo<cplx> coo;
  coo.rows = coo.cols = 2;
  coo.push_back(0, 1, 1.0);
  coo.push_back(1, 0, 1.0);
  const std::vector<cplx> b{1.0, 0.0};
  SolverOptions o;
  o.method = Method::bicg;
  std::vector<cplx> x;
  const SolveResult r = run<cplx>(to_csr(coo), b, o, x);
  EXPECT_EQ(r.rhs[0].outcome, Outcome::breakdown_sigma);
  EXPECT_EQ(r.rhs[0].iterations, 1);
  EXPECT_EQ(x[0], cplx(0.0));  // the broken step is not applied
}

// b = (1, i): r̃₀ = conj(r₀) gives ρ = Σ r_i² = 1 + i² = 0 while r₀ ≠ 0 (the classic COCG
// breakdown, inherited by BiCG with that shadow start).
TEST(SolverOutcome, RhoBreakdownIsReported) {
  Coo<cplx> coo;
  coo.rows = coo.cols = 2;
  coo.push_back(0, 0, 1.0);
  coo.push_back(1, 1, 1.0);
  const std::vector<cplx> b{1.0, cplx(0.0, 1.0)};
  for (Method m : {Method::bicg, Method::cocg}) {
    SolverOptions o;
    o.method = m;
    std::vector<cplx> x;
    const SolveResult r = run<cplx>(to_csr(coo), b, o, x);
    EXPECT_EQ(r.rhs[0].outcome, Outcome::breakdown_rho) << to_string(m);
  }
}

TEST(SolverOutcome, NanIsReported) {
  const Csr<cplx> a = test::make_system<cplx>(SystemKind::general, 20, 1);
  std::vector<cplx> b(20, 1.0);
  b[3] = cplx(std::nan(""), 0.0);
  std::vector<cplx> x;
  const SolveResult r = run<cplx>(a, b, SolverOptions{}, x);
  EXPECT_EQ(r.rhs[0].outcome, Outcome::not_finite);
}

TEST(SolverOutcome, IterationLimitIsReported) {
  const Csr<cplx> a = test::make_system<cplx>(SystemKind::general, 200, 2, 1.05);
  const auto b = to_std<cplx>(test::random_vector<cplx>(200, 3));
  for (Method m : {Method::bicg, Method::bicgstab}) {
    SolverOptions o;
    o.method = m;
    o.max_iterations = 3;
    std::vector<cplx> x;
    const SolveResult r = run<cplx>(a, b, o, x);
    EXPECT_EQ(r.rhs[0].outcome, Outcome::max_iterations);
    EXPECT_EQ(r.rhs[0].iterations, 3);
    EXPECT_EQ(r.rhs[0].history.size(), 4u);  // iteration 0 and three more
    EXPECT_GT(r.rhs[0].true_residual, 1e-7);
  }
}

TEST(SolverOutcome, StagnationIsReported) {
  // Singular A = diag(1, 1, 0) with b outside its range: the residual cannot fall below
  // |b₃|/‖b‖, so BiCGSTAB stalls (or breaks down); either way it must say so, not converge.
  Coo<cplx> coo;
  coo.rows = coo.cols = 3;
  coo.push_back(0, 0, 1.0);
  coo.push_back(1, 1, 2.0);
  coo.push_back(0, 1, 0.5);
  const std::vector<cplx> b{1.0, 1.0, 1.0};
  SolverOptions o;
  o.method = Method::bicgstab;
  o.stagnation_window = 20;
  std::vector<cplx> x;
  const SolveResult r = run<cplx>(to_csr(coo), b, o, x);
  EXPECT_NE(r.rhs[0].outcome, Outcome::converged);
  EXPECT_NE(r.rhs[0].outcome, Outcome::max_iterations);
  EXPECT_LT(r.rhs[0].iterations, 100);
}

// A tolerance below what double precision can deliver for b - Ax: the recurrence residual
// keeps falling past it, the true residual cannot, so every confirmation fails, the residual
// is replaced (restarting the recurrences) twice, and then the gap is reported.
TEST(SolverOutcome, ResidualGapIsReportedAfterReplacements) {
  const Csr<cplx> a = test::make_system<cplx>(SystemKind::general, 200, 41);
  const auto b = to_std<cplx>(test::random_vector<cplx>(200, 42));
  for (Method m : {Method::bicg, Method::bicgstab}) {
    SolverOptions o;
    o.method = m;
    o.tolerance = 1e-19;
    o.max_residual_replacements = 2;
    std::vector<cplx> x;
    const SolveResult r = run<cplx>(a, b, o, x);
    EXPECT_EQ(r.rhs[0].outcome, Outcome::residual_gap) << to_string(m);
    EXPECT_GT(r.rhs[0].true_residual, o.tolerance);
    EXPECT_LT(r.rhs[0].true_residual, 1e-13);  // the restarts kept x at full accuracy
  }
}

TEST(SolverMultiRhs, EqualsSingleSolvesEachWithItsOwnConvergence) {
  const index_t n = 150;
  const Csr<cplx> a = test::make_system<cplx>(SystemKind::general, n, 21);
  std::vector<cplx> block;
  std::vector<std::vector<cplx>> columns;
  for (int k = 0; k < 3; ++k) {
    auto col = to_std<cplx>(test::random_vector<cplx>(n, 30 + k));
    if (k == 1) col.assign(n, 0.0);  // b = 0 converges at once to x = 0
    if (k == 2) for (auto& v : col) v *= 1e-3;
    columns.push_back(col);
    block.insert(block.end(), col.begin(), col.end());
  }
  SolverOptions o;
  o.tolerance = 1e-10;
  std::vector<cplx> xb;
  const SolveResult rb = run<cplx>(a, block, o, xb, 3);
  ASSERT_EQ(rb.rhs.size(), 3u);
  EXPECT_EQ(rb.rhs[1].iterations, 0);
  for (int k = 0; k < 3; ++k) {
    std::vector<cplx> xs;
    const SolveResult rs = run<cplx>(a, columns[k], o, xs);
    EXPECT_EQ(rb.rhs[k].outcome, Outcome::converged);
    EXPECT_EQ(rb.rhs[k].iterations, rs.rhs[0].iterations) << "column " << k;
    const std::vector<cplx> xk(xb.begin() + k * n, xb.begin() + (k + 1) * n);
    EXPECT_LE(test::relative_error(to_eigen(xk), to_eigen(xs)), 1e-13) << "column " << k;
  }
}

TEST(SolverInitialGuess, ExactGuessConvergesWithoutIterating) {
  const Csr<cplx> a = test::make_system<cplx>(SystemKind::general, 100, 4);
  const DenseVector<cplx> xref = test::random_vector<cplx>(100, 5);
  const DenseVector<cplx> b = test::to_dense(a) * xref;
  std::vector<cplx> x = to_std<cplx>(xref);
  const SolveResult r = run<cplx>(a, to_std<cplx>(b), SolverOptions{}, x);
  EXPECT_EQ(r.rhs[0].outcome, Outcome::converged);
  EXPECT_EQ(r.rhs[0].iterations, 0);
}

// Without a diagonal the BiCGSTAB kernels write no p̂ or ŝ; separate blocks there would be left
// stale and then read by the SpMV, so the kernels refuse them.
TEST(SolverInput, BicgstabWithoutDiagonalNeedsHatsToBeTheVectors) {
  auto be = make_cpu_backend<cplx>();
  auto vec = [&] { return be->allocate<cplx>(5, 1); };
  auto one = [&] { return be->allocate<cplx>(1, 1); };
  Block<cplx> x = vec(), r = vec(), rhat = vec(), p = vec(), phat = vec(), v = vec(), s = vec(),
              t = vec();
  Block<cplx> rho = one(), rho_old = one(), alpha = one(), omega = one(), rhat_v = one(),
              t_s = one(), t_t = one();
  Block<double> rnorm2 = be->allocate<double>(1, 1);
  Block<int> status = be->allocate<int>(1, 1);
  BicgstabVectors<cplx> bv{.inv_diag = nullptr, .x = &x, .r = &r, .rhat = &rhat, .p = &p,
                           .phat = &phat, .v = &v, .s = &s, .shat = &s, .t = &t, .rho = &rho,
                           .rho_old = &rho_old, .alpha = &alpha, .omega = &omega,
                           .rhat_v = &rhat_v, .t_s = &t_s, .t_t = &t_t, .rnorm2 = &rnorm2,
                           .status = &status};
  try {
    be->bicgstab_directions(bv);
    FAIL() << "a separate phat was accepted without a diagonal";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("phat must be p"), std::string::npos) << e.what();
  }
  bv.phat = &p;
  EXPECT_NO_THROW(be->bicgstab_directions(bv));
}

TEST(SolverInput, RejectsWrongSizes) {
  const Csr<cplx> a = test::make_system<cplx>(SystemKind::general, 10, 4);
  auto backend = make_cpu_backend<cplx>();
  Solver<cplx> solver(*backend, a, SolverOptions{});
  std::vector<cplx> x;
  const std::vector<cplx> b(9, 1.0);
  EXPECT_THROW(solver.solve(b, x), std::invalid_argument);
  Csr<cplx> rect;
  rect.rows = 3;
  rect.cols = 4;
  rect.row_ptr.assign(4, 0);
  EXPECT_THROW(Solver<cplx>(*backend, rect, SolverOptions{}), std::invalid_argument);
}

}  // namespace
}  // namespace pmom

namespace pmom {
namespace {

// ‖b − Ax‖∞ against the same residual formed densely here. The two differ by the summation
// order only: a few ulps of the largest term, |a_ij x_j| ≤ ‖A‖max ‖x‖∞ times the row length.
TEST(SolverResidual, InfinityNormMatchesADenseResidual) {
  const Csr<cplx> a = test::make_system<cplx>(SystemKind::general, 200, 31);
  const DenseVector<cplx> b = test::random_vector<cplx>(200, 32);
  SolverOptions o;
  o.method = Method::bicgstab;
  o.tolerance = 1e-6;  // a loose stop, so that the residual is well above rounding
  std::vector<cplx> x;
  const SolveResult r = run<cplx>(a, to_std<cplx>(b), o, x);
  ASSERT_EQ(r.rhs[0].outcome, Outcome::converged);
  const DenseVector<cplx> res = b - test::to_dense(a) * to_eigen(x);
  const double want = res.cwiseAbs().maxCoeff();
  const double scale = test::to_dense(a).cwiseAbs().maxCoeff() * to_eigen(x).cwiseAbs().maxCoeff();
  EXPECT_GT(want, 1e-10);
  EXPECT_NEAR(r.rhs[0].true_residual_inf, want, 1e-13 * 200 * scale);
}

TEST(SolverInPlace, ValuesRewrittenOnTheBackendSolveAsTheHostMatrix) {
  auto backend = make_cpu_backend<cplx>();
  test::expect_in_place_values_solve_alike(*backend);
}

TEST(SolverInPlace, OperatorFromBackendBlocksSolvesAsTheHostMatrix) {
  auto backend = make_cpu_backend<cplx>();
  test::expect_csr_operator_from_blocks_solves_alike(*backend);
}

}  // namespace
}  // namespace pmom
