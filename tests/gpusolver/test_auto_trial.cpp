// The timed trial of `--auto-trial` on the CPU backend: its estimates on hand-made trial
// results, its candidates, its options' errors, and a solve where the feature rule's first
// choice (CG) must break down and the trial must pick a method that converges. Every choice
// asserted is forced by convergence, never by speed, so none depends on the machine's timing.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>

#include "planarmom/gpusolver/auto_trial.hpp"
#include "planarmom/gpusolver/backends.hpp"
#include "support/systems.hpp"

namespace pmom {
namespace {

using test::indefinite_system;
using test::IndefiniteSystem;

AutoOptions with_trial() {
  AutoOptions o;
  o.choose_method = o.choose_format = o.trial = true;
  return o;
}

SolveResult result_with(Outcome outcome, int iterations, std::vector<double> history,
                        double seconds) {
  SolveResult r;
  r.method = Method::bicgstab;
  r.iterations = iterations;
  r.seconds = seconds;
  RhsResult c;
  c.outcome = outcome;
  c.iterations = iterations;
  c.true_residual = history.back();
  c.history = std::move(history);
  r.rhs.push_back(c);
  return r;
}

// The estimate is arithmetic on the numbers given: 1e-14 relative covers the rounding of pow
// and log.
TEST(AutoTrial, EstimatesTheSolveFromTheBestResidual) {
  // Best residual 1e-2 (not the last, 1e-1) after 20 iterations of 1 ms: a factor 10^(-1/10)
  // per iteration, so 70 iterations from 1 to 1e-7, 70 ms.
  const TrialMeasurement m =
      measure_trial(result_with(Outcome::max_iterations, 20, {1.0, 0.5, 1e-2, 1e-1}, 0.02), 1e-7);
  EXPECT_TRUE(m.ranked_out.empty()) << m.ranked_out;
  EXPECT_NEAR(m.rate, std::pow(10.0, -0.1), 1e-14);
  EXPECT_NEAR(m.estimated_iterations, 70.0, 70.0 * 1e-14);
  EXPECT_NEAR(m.estimated_seconds, 0.07, 0.07 * 1e-14);
  EXPECT_NE(describe(m).find("bicgstab/csr"), std::string::npos) << describe(m);
  // A time limit ends a trial as the iteration budget does.
  EXPECT_NEAR(
      measure_trial(result_with(Outcome::time_limit, 20, {1.0, 1e-2}, 0.02), 1e-7).estimated_seconds,
      0.07, 0.07 * 1e-14);
}

TEST(AutoTrial, RanksOutBreakdownsAndResidualsThatDoNotFall) {
  const TrialMeasurement broke =
      measure_trial(result_with(Outcome::breakdown_sigma, 1, {1.0, 0.5}, 0.001), 1e-7);
  EXPECT_EQ(broke.ranked_out, to_string(Outcome::breakdown_sigma));
  EXPECT_TRUE(std::isinf(broke.estimated_seconds));
  const TrialMeasurement rising =
      measure_trial(result_with(Outcome::max_iterations, 30, {1.0, 2.0, 5.0}, 0.001), 1e-7);
  EXPECT_EQ(rising.ranked_out, "residual did not fall");
  EXPECT_TRUE(std::isinf(rising.estimated_seconds));
  EXPECT_NE(describe(rising).find("ranked out"), std::string::npos) << describe(rising);
}

TEST(AutoTrial, ACandidateThatConvergedCostsWhatItTook) {
  const TrialMeasurement m =
      measure_trial(result_with(Outcome::converged, 6, {1.0, 1e-3, 1e-8}, 0.004), 1e-7);
  EXPECT_TRUE(m.ranked_out.empty());
  EXPECT_EQ(m.estimated_iterations, 6);
  EXPECT_EQ(m.estimated_seconds, 0.004);
}

TEST(AutoTrial, CandidatesFollowTheFeatureRule) {
  MatrixFeatures f;
  f.rows = 1000;
  f.mean_row_length = 5;
  f.max_row_length = 6;
  f.diagonals = 5;
  f.dia_fill = 1.01;
  AutoChoice c;
  c.methods = {Method::bicg, Method::bicgstab};
  c.format = Format::csr;
  const SolverOptions so;
  using M = std::vector<Method>;
  using F = std::vector<Format>;
  const TrialCandidates cpu = trial_candidates(c, f, false, so, with_trial());
  EXPECT_EQ(cpu.methods, (M{Method::bicg, Method::bicgstab}));
  EXPECT_EQ(cpu.formats, (F{Format::csr}));  // the CPU kernels walk rows
  EXPECT_EQ(trial_candidates(c, f, true, so, with_trial()).formats,
            (F{Format::csr, Format::sellp, Format::dia}));  // 5 diagonals, fill 1.01
  f.max_row_length = 16;  // over 3 x the mean: HYB joins
  f.dia_fill = 3;         // too much padding: DIA does not
  EXPECT_EQ(trial_candidates(c, f, true, so, with_trial()).formats,
            (F{Format::csr, Format::sellp, Format::hyb}));
  // Every row strictly dominant: Jacobi converges, so it joins, before Gauss-Seidel.
  f.strictly_dominant_rows = 1.0;
  c.methods.push_back(Method::gauss_seidel);
  EXPECT_EQ(trial_candidates(c, f, false, so, with_trial()).methods,
            (M{Method::bicg, Method::bicgstab, Method::jacobi, Method::gauss_seidel}));
  // What the caller named stays alone.
  SolverOptions named;
  named.method = Method::cg;
  named.format = Format::ellr;
  AutoOptions format_only = with_trial();
  format_only.choose_method = false;
  EXPECT_EQ(trial_candidates(c, f, true, named, format_only).methods, (M{Method::cg}));
  AutoOptions method_only = with_trial();
  method_only.choose_format = false;
  EXPECT_EQ(trial_candidates(c, f, true, named, method_only).formats, (F{Format::ellr}));
}

TEST(AutoTrial, OptionsAreCheckedWithTheFlagToChange) {
  auto message = [](const AutoOptions& o) {
    try {
      validate(o);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  AutoOptions nothing_to_choose;
  nothing_to_choose.trial = true;
  EXPECT_NE(message(nothing_to_choose).find("--solver auto or --format auto"), std::string::npos)
      << message(nothing_to_choose);
  AutoOptions no_iterations = with_trial();
  no_iterations.trial_iterations = 0;
  EXPECT_NE(message(no_iterations).find("--auto-trial-iterations"), std::string::npos)
      << message(no_iterations);
  AutoOptions no_time = with_trial();
  no_time.trial_seconds = 0;
  EXPECT_NE(message(no_time).find("--auto-trial-ms"), std::string::npos) << message(no_time);
  EXPECT_EQ(message(with_trial()), "no error");

  // solve_automatically checks them before it solves.
  const IndefiniteSystem sys = indefinite_system(2);
  auto backend = make_cpu_backend<double>();
  std::vector<double> x;
  EXPECT_THROW(solve_automatically<double>(*backend, sys.a, sys.b, x, 1, {}, no_iterations),
               std::invalid_argument);
}

// The case: the feature rule's first choice fails. CG breaks down (by construction,
// see indefinite_system), so the trial ranks it out and picks BiCGSTAB, whose solution must
// match dense LU. Tolerance: the solve stops at ‖b − Ax‖/‖b‖ <= 1e-12, so the error is at most
// cond(A) × 1e-12 relative; the check allows 10 times that (cond(A) computed here).
TEST(AutoTrial, PicksAMethodThatConvergesWhereTheRuleWouldBreakDown) {
  const IndefiniteSystem sys = indefinite_system(20);  // n = 120
  const test::Dense<double> dense = test::to_dense(sys.a);
  const Eigen::VectorXd b = Eigen::Map<const Eigen::VectorXd>(sys.b.data(), sys.b.size());
  const Eigen::VectorXd want = dense.partialPivLu().solve(b);
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(dense);
  const double cond = svd.singularValues()(0) / svd.singularValues().tail(1)(0);

  const MatrixFeatures f = matrix_features(sys.a);
  ASSERT_EQ(choose_automatically(f, false).methods.front(), Method::cg)
      << "the feature rule should pick CG here: " << describe(f);

  SolverOptions so;
  so.tolerance = 1e-12;
  // The default budget (BiCGSTAB converges within it), and a budget of 4 iterations that ends
  // before (its residual has fallen to about 0.6), so that the pick solves afresh on its
  // trial's operator. A generous time limit keeps a loaded machine from changing what runs.
  for (const int budget : {30, 4}) {
    AutoOptions o = with_trial();
    o.trial_iterations = budget;
    o.trial_seconds = 60;
    auto backend = make_cpu_backend<double>();
    std::vector<double> x;
    const SolveResult r = solve_automatically<double>(*backend, sys.a, sys.b, x, 1, so, o);
    ASSERT_EQ(r.rhs.size(), 1u);
    EXPECT_EQ(r.method, Method::bicgstab) << "budget " << budget;
    EXPECT_EQ(r.rhs[0].outcome, Outcome::converged) << to_string(r.rhs[0].outcome);
    const Eigen::VectorXd got = Eigen::Map<const Eigen::VectorXd>(x.data(), x.size());
    EXPECT_LE((got - want).norm() / want.norm(), 10 * cond * so.tolerance)
        << "budget " << budget << ", cond " << cond;
  }

  // Without the trial the rule's CG breaks down first and the fallback reaches BiCGSTAB too:
  // the trial changes how the choice is made, not what converges.
  auto backend = make_cpu_backend<double>();
  std::vector<double> x;
  AutoOptions rule_only;
  rule_only.choose_method = rule_only.choose_format = true;
  const SolveResult r = solve_automatically<double>(*backend, sys.a, sys.b, x, 1, so, rule_only);
  EXPECT_EQ(r.method, Method::bicgstab);
  EXPECT_TRUE(r.all_converged());
}

// A named method on the CPU leaves one candidate (CSR): the trial is skipped and the solve is
// the named method's.
TEST(AutoTrial, OneCandidateSkipsTheTrial) {
  const IndefiniteSystem sys = indefinite_system(2);
  SolverOptions so;
  so.method = Method::bicgstab;
  AutoOptions o = with_trial();
  o.choose_method = false;
  auto backend = make_cpu_backend<double>();
  std::vector<double> x;
  const SolveResult r = solve_automatically<double>(*backend, sys.a, sys.b, x, 1, so, o);
  EXPECT_EQ(r.method, Method::bicgstab);
  EXPECT_EQ(r.format, Format::csr);
  EXPECT_TRUE(r.all_converged());
}

}  // namespace
}  // namespace pmom
