// `--solver auto` and `--format auto`: a ranked list of methods and a format chosen from the
// matrix's cheap features (matrix_features.hpp), and a solve that falls back to the next
// method when one fails, so auto never gives up where a listed method converges.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "planarmom/gpusolver/matrix_features.hpp"
#include "planarmom/gpusolver/solver.hpp"

namespace pmom {

// DIA is considered up to this many stored values per entry (padding included).
inline constexpr double auto_dia_fill_limit = 1.5;

struct AutoChoice {
  std::vector<Method> methods;  // tried in this order until one converges
  Format format = Format::csr;
  std::string reason;           // one line for the log: which features decided what
};

// device: the backend runs on a GPU (format choice matters there; the CPU kernels walk rows,
// so the CPU gets CSR).
AutoChoice choose_automatically(const MatrixFeatures& f, bool device);

// `options` set to run `method`: SSOR preconditioning fits cg and cocg only, so the other
// Krylov methods get Jacobi in its place.
SolverOptions with_method(SolverOptions options, Method method);

// What auto chooses, and whether a short timed trial of the candidates decides
// (auto_trial.hpp; the budget's defaults are explained in auto_trial.cpp).
struct AutoOptions {
  bool choose_method = false;  // --solver auto
  bool choose_format = false;  // --format auto
  bool trial = false;          // --auto-trial
  int trial_iterations = 30;   // per candidate, or
  double trial_seconds = 0.005;  // this much iterating, whichever comes first
};
// Throws std::invalid_argument naming the command-line flag to change.
void validate(const AutoOptions& options);

// The methods of a choice tried in order on one matrix until one converges, each method's
// solver built when first needed and then kept: repeated solves (time steps, benchmark
// repetitions) pay for the choice and the set-up once, as a solver built by hand does, and
// each still falls back the same way. options.format is the format every method runs in;
// `built`, where given, is an operator of it that the non-sweeping methods share.
template <class T> class FallbackSolver {
 public:
  FallbackSolver(Backend<T>& backend, const Csr<T>& a, SolverOptions options,
                 std::vector<Method> methods,
                 std::shared_ptr<const Operator<T>> built = nullptr);
  // As Solver::solve; seconds summed over the attempts.
  SolveResult solve(std::span<const T> b, std::vector<T>& x, index_t nrhs);

 private:
  Backend<T>& backend_;
  const Csr<T>& a_;
  SolverOptions options_;
  std::vector<Method> methods_;
  std::shared_ptr<const Operator<T>> built_;
  std::vector<std::unique_ptr<Solver<T>>> solvers_;  // one per method, built on first use
};

// The automatic choice from the matrix's features (no trial), made once: options.method and
// options.format where given, the choice where automatic says so. Throws std::invalid_argument
// where automatic.trial is set (the trial belongs to solve_automatically).
template <class T>
FallbackSolver<T> make_automatic_solver(Backend<T>& backend, const Csr<T>& a,
                                        SolverOptions options, const AutoOptions& automatic);

// Solves with options.method and options.format where given, or with the automatic choice
// where automatic.choose_method / choose_format say so (then those two options are ignored),
// by the trial where automatic.trial says so. The result is that of the attempt that converged
// (or of the last), with seconds summed over attempts and the trial's whole wall time added.
template <class T>
SolveResult solve_automatically(Backend<T>& backend, const Csr<T>& a, std::span<const T> b,
                                std::vector<T>& x, index_t nrhs, SolverOptions options,
                                const AutoOptions& automatic);

}  // namespace pmom
