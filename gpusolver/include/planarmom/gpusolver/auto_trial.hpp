// `--auto-trial`: a short timed run of each plausible (method, format) pair; its time per
// iteration and residual reduction rate estimate its time to the tolerance, and the automatic
// choice takes the least. Budget, candidates and when to stop early: auto_trial.cpp.
#pragma once

#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "planarmom/gpusolver/auto_choice.hpp"

namespace pmom {

// The pairs the trial may run: every method with the first format, then the best method
// with each further format (a format changes the time per iteration, not the rate).
struct TrialCandidates {
  std::vector<Method> methods;  // the feature rule's order
  std::vector<Format> formats;  // the feature rule's format first
};

// device: as for choose_automatically. Where a choice is the caller's (automatic says it is
// not chosen), the candidates hold options.method or options.format alone.
TrialCandidates trial_candidates(const AutoChoice& choice, const MatrixFeatures& f, bool device,
                                 const SolverOptions& options, const AutoOptions& automatic);

// What a trial run measured, and its estimate. Over several right-hand sides, the column
// that would take longest.
struct TrialMeasurement {
  Method method = Method::bicg;
  Format format = Format::csr;
  Outcome outcome = Outcome::max_iterations;  // the first column's that is not convergence
  int iterations = 0;
  double seconds = 0;         // iterating (SolveResult::seconds)
  double start_residual = 0;  // ‖r‖/‖b‖ at the start, and the least the trial reached
  double best_residual = 0;
  double rate = 1;            // residual factor per iteration: (best / start)^(1 / iterations)
  // A solve from the start to the tolerance at that rate (measured where it converged within
  // the trial); infinite where ranked out.
  double estimated_iterations = std::numeric_limits<double>::infinity();
  double estimated_seconds = std::numeric_limits<double>::infinity();
  std::string ranked_out;     // why it is no candidate; empty where it is one
};

// trial: a run with record_history on. The best residual is the least in the history: BiCG's
// and BiCGSTAB's residuals jump by orders of magnitude from one iteration to the next, and a
// trial ending on a jump says little about the rate.
TrialMeasurement measure_trial(const SolveResult& trial, double tolerance);

// One line for the log: "bicgstab/csr: 30 it in 1.2 ms, residual 1 -> 3.1e-03 (0.825 per it),
// about 92 it (3.7 ms) to the tolerance" or "...: ranked out (breakdown (p~^H A p = 0))".
std::string describe(const TrialMeasurement& m);

// The trial's pick: the pair with the least estimated time (or the first that converged
// within its trial, which is then the solve), with its operator for the solve.
template <class T> struct TrialPick {
  Method method = Method::bicg;
  Format format = Format::csr;
  bool solved = false;   // converged within its trial: `x` and `result` are the solve
  std::vector<T> x;
  SolveResult result;
  std::shared_ptr<const Operator<T>> built;  // its operator; null for a sweeping method
  std::vector<Method> order;  // the methods to fall back on, the pick first, ranked out last
  double seconds = 0;    // the trial's wall time: operators built, runs, downloads
};

template <class T>
TrialPick<T> run_trial(Backend<T>& backend, const Csr<T>& a, std::span<const T> b,
                       const std::vector<T>& guess, index_t nrhs, const SolverOptions& options,
                       const TrialCandidates& candidates, const AutoOptions& automatic);

}  // namespace pmom
