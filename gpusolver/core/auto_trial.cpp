// The timed trial behind `--auto-trial`, written once against Backend<T>.
//
// Budget: 30 iterations or 5 ms of iterating (but at least 8 iterations) per candidate,
// whichever comes first. Thirty iterations get past the first irregular steps of the Krylov
// methods (their residuals jump before they settle into a rate) and stay a small part of the
// seed matrices' solves, which take 100 to 5000 iterations; on a GPU a small matrix's iteration
// is bound by launch latency, so thirty cost about a millisecond, and 5 ms caps the trial where
// iterations are long (millions of rows, or the CPU; docs/BENCHMARKS.md, "Automatic choice").
//
// The trial is skipped, or cut short, where it cannot pay for itself:
//  - one candidate pair (the method named, and the format named or the CPU's CSR): nothing
//    to choose (solve_automatically);
//  - a candidate that converges within its trial is the solve: a small or easy matrix ends
//    with the first candidate;
//  - the next candidate runs only while the best one's estimated solve time exceeds what the
//    last trial took (its operator built, its run, its results read back): a trial cannot save
//    more than the solve costs.
//
// Each estimate is that of a solve from the start: the pick solves afresh on the operator its
// trial built. Going on from the trial's iterate would save its iterations, but restarts the
// Krylov recurrences (and BiCGSTAB's shadow residual), which on olm1000 turned BiCGSTAB's
// convergence into stagnation; a fresh solve is the pair as benchmarked.
#include "planarmom/gpusolver/auto_trial.hpp"

#include <algorithm>
#include <boost/log/trivial.hpp>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <map>
#include <optional>
#include <sstream>

namespace pmom {
namespace {

// The time limit stops no trial before this: a rate over fewer iterations is that of the
// first, irregular steps (and on CUDA the first check comes after 8 anyway).
constexpr int trial_min_iterations = 8;

// HYB joins the trial from a longest row 3 times the mean, below the rule's 10: the rule
// must be right without a measurement, the trial measures.
constexpr double hyb_trial_row_ratio = 3.0;

bool contains(const std::vector<Method>& v, Method m) {
  return std::find(v.begin(), v.end(), m) != v.end();
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

TrialCandidates trial_candidates(const AutoChoice& choice, const MatrixFeatures& f, bool device,
                                 const SolverOptions& options, const AutoOptions& automatic) {
  TrialCandidates t;
  if (automatic.choose_method) {
    t.methods = choice.methods;
    // Strict dominance in every row makes Jacobi converge. The rule puts it first only from a
    // contraction of 1/2 per step; below that it still won on fs_541_1 (docs/BENCHMARKS.md).
    if (f.strictly_dominant_rows == 1.0 && f.zero_diagonal_rows == 0 &&
        !contains(t.methods, Method::jacobi))
      t.methods.insert(std::find(t.methods.begin(), t.methods.end(), Method::gauss_seidel),
                       Method::jacobi);
  } else {
    t.methods = {options.method};
  }
  if (!automatic.choose_format) {
    t.formats = {options.format};
    return t;
  }
  t.formats = {choice.format};
  if (!device) return t;  // the CPU kernels walk rows: CSR
  auto add = [&](Format fmt) {
    if (std::find(t.formats.begin(), t.formats.end(), fmt) == t.formats.end())
      t.formats.push_back(fmt);
  };
  add(Format::csr);
  add(Format::sellp);  // within 5% of CSR or better on 14 of 32 seed matrices
  if (f.max_row_length > hyb_trial_row_ratio * f.mean_row_length) add(Format::hyb);
  if (f.diagonals <= MatrixFeatures::max_counted_diagonals && f.dia_fill <= auto_dia_fill_limit)
    add(Format::dia);
  return t;
}

TrialMeasurement measure_trial(const SolveResult& trial, double tolerance) {
  TrialMeasurement m;
  m.method = trial.method;
  m.format = trial.format;
  m.outcome = Outcome::converged;
  m.iterations = trial.iterations;
  m.seconds = trial.seconds;
  m.estimated_iterations = 0;
  for (const RhsResult& c : trial.rhs) {
    if (c.outcome == Outcome::converged) continue;
    if (m.outcome == Outcome::converged) m.outcome = c.outcome;
    const double start = c.history.empty() ? 0.0 : c.history.front();
    const double best =
        c.history.empty() ? 0.0 : *std::min_element(c.history.begin(), c.history.end());
    std::string out;
    if (c.outcome != Outcome::max_iterations && c.outcome != Outcome::time_limit)
      out = to_string(c.outcome);
    else if (!(best < start) || c.iterations == 0)
      out = "residual did not fall";
    const double rate = out.empty() ? std::pow(best / start, 1.0 / c.iterations) : 1.0;
    // At least the iterations run: a column below the tolerance by its recurrence but not by
    // b - Ax would otherwise count as done.
    const double needed =
        out.empty() ? std::max(std::log(tolerance / start) / std::log(rate), 1.0 * c.iterations)
                    : 0.0;
    if (!out.empty() || needed >= m.estimated_iterations) {
      m.start_residual = start;
      m.best_residual = best;
      m.rate = rate;
      m.estimated_iterations = needed;
    }
    if (!out.empty()) {
      m.ranked_out = out;
      break;
    }
  }
  if (m.outcome == Outcome::converged && !trial.rhs.empty()) {
    const RhsResult& c = trial.rhs.front();
    m.start_residual = c.history.empty() ? 0.0 : c.history.front();
    m.best_residual = c.true_residual;
    m.estimated_iterations = m.iterations;
  }
  if (!m.ranked_out.empty())
    m.estimated_iterations = std::numeric_limits<double>::infinity();
  m.estimated_seconds = m.outcome == Outcome::converged ? m.seconds
                        : m.ranked_out.empty() ? m.estimated_iterations * m.seconds / m.iterations
                                               : std::numeric_limits<double>::infinity();
  return m;
}

std::string describe(const TrialMeasurement& m) {
  std::ostringstream s;
  s << std::setprecision(3) << to_string(m.method) << "/" << to_string(m.format) << ": "
    << m.iterations << " it in " << m.seconds * 1e3 << " ms, residual " << m.start_residual
    << " -> " << m.best_residual;
  if (!m.ranked_out.empty())
    s << ", ranked out (" << m.ranked_out << ")";
  else if (m.outcome == Outcome::converged)
    s << ", converged";
  else
    s << " (" << m.rate << " per it), about " << m.estimated_iterations << " it ("
      << m.estimated_seconds * 1e3 << " ms) to the tolerance";
  return s.str();
}

template <class T>
TrialPick<T> run_trial(Backend<T>& backend, const Csr<T>& a, std::span<const T> b,
                       const std::vector<T>& guess, index_t nrhs, const SolverOptions& options,
                       const TrialCandidates& candidates, const AutoOptions& automatic) {
  const auto start = std::chrono::steady_clock::now();
  SolverOptions budget = options;
  budget.max_iterations = std::min(automatic.trial_iterations, options.max_iterations);
  budget.time_limit = {automatic.trial_seconds, trial_min_iterations};
  budget.record_history = true;  // history[0] is the starting residual the rate needs
  // One operator per format, shared by every method that does not sweep (and is named: auto
  // resolves inside the solver), with Aᴴ where BiCG is a candidate.
  const bool adjoint = contains(candidates.methods, Method::bicg);
  std::map<Format, std::shared_ptr<const Operator<T>>> built;

  struct Run {
    TrialMeasurement m;
    SolveResult result;
    std::vector<T> x;
    std::shared_ptr<const Operator<T>> op;
  };
  std::optional<Run> best;
  std::vector<TrialMeasurement> measured;
  double last_cost = 0;
  // Runs one pair; true when it converged within its trial (it is then the pick).
  auto run = [&](Method method, Format format) {
    const auto begun = std::chrono::steady_clock::now();
    SolverOptions so = with_method(budget, method);
    so.format = format;
    Run r;
    r.m.method = method;
    r.m.format = format;
    r.x = guess;
    try {
      if (method != Method::automatic && !needs_sweeps(method, so)) {
        std::shared_ptr<const Operator<T>>& slot = built[format];
        if (!slot) slot = backend.make_operator(a, operator_options(so, adjoint));
        r.op = slot;
      }
      Solver<T> solver(backend, a, so, r.op);
      r.result = solver.solve(b, r.x, nrhs);
      r.m = measure_trial(r.result, options.tolerance);
    } catch (const std::invalid_argument& e) {  // the method or the format refuses A
      r.m.ranked_out = e.what();
    }
    last_cost = seconds_since(begun);
    BOOST_LOG_TRIVIAL(info) << "auto trial: " << describe(r.m);
    measured.push_back(r.m);
    // One that converged is the solve already: no estimate can beat that.
    const bool converged = r.m.ranked_out.empty() && r.m.outcome == Outcome::converged;
    if (converged ||
        (r.m.ranked_out.empty() && (!best || r.m.estimated_seconds < best->m.estimated_seconds)))
      best = std::move(r);
    return converged;
  };
  std::string stop = "every candidate ran";
  auto worth_another = [&] {
    if (!best || best->m.estimated_seconds > last_cost) return true;
    std::ostringstream s;
    s << std::setprecision(3) << "stopped: the best would solve in about "
      << best->m.estimated_seconds * 1e3 << " ms, the last trial took " << last_cost * 1e3
      << " ms";
    stop = s.str();
    return false;
  };
  bool done = false;
  for (const Method method : candidates.methods)
    if (!worth_another() || (done = run(method, candidates.formats.front()))) break;
  if (best && !done)
    for (std::size_t i = 1; i < candidates.formats.size(); ++i)
      if (!worth_another() || (done = run(best->m.method, candidates.formats[i]))) break;
  if (done) stop = "no further trials";

  TrialPick<T> pick;
  std::ostringstream why;
  why << std::setprecision(3);
  if (best) {
    pick.method = best->m.method;
    pick.format = best->m.format;
    pick.solved = best->m.outcome == Outcome::converged;
    if (pick.solved) {
      pick.x = std::move(best->x);
      pick.result = std::move(best->result);
    }
    pick.built = best->op;
    why << "picked " << to_string(pick.method) << "/" << to_string(pick.format) << " ("
        << (pick.solved ? "converged within its trial" : "least estimated time");
  } else {
    pick.method = candidates.methods.front();
    pick.format = candidates.formats.front();
    why << "every candidate ranked out: solving in the feature rule's order ("
        << to_string(pick.method) << "/" << to_string(pick.format);
  }
  // Fall back on the untried or measured methods first, the ranked out ones last.
  auto ranked_out = [&](Method method) {
    bool ran = false, out = true;
    for (const TrialMeasurement& m : measured)
      if (m.method == method) {
        ran = true;
        out = out && !m.ranked_out.empty();
      }
    return ran && out;
  };
  pick.order = {pick.method};
  for (const bool last : {false, true})
    for (const Method method : candidates.methods)
      if (method != pick.method && ranked_out(method) == last) pick.order.push_back(method);
  pick.seconds = seconds_since(start);
  why << "; " << stop << "; trial " << pick.seconds * 1e3 << " ms in all)";
  BOOST_LOG_TRIVIAL(info) << "auto trial: " << why.str();
  return pick;
}

template TrialPick<double> run_trial(Backend<double>&, const Csr<double>&,
                                     std::span<const double>, const std::vector<double>&,
                                     index_t, const SolverOptions&, const TrialCandidates&,
                                     const AutoOptions&);
template TrialPick<std::complex<double>> run_trial(
    Backend<std::complex<double>>&, const Csr<std::complex<double>>&,
    std::span<const std::complex<double>>, const std::vector<std::complex<double>>&, index_t,
    const SolverOptions&, const TrialCandidates&, const AutoOptions&);

}  // namespace pmom
