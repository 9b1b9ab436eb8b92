// `--solver auto` and `--format auto`: a ranked list of methods and a format chosen from the
// matrix's cheap features (matrix_features.hpp), and a solve that falls back to the next
// method when one fails, so auto never gives up where a listed method converges.
#pragma once

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

// Solves with options.method and options.format where given, or with the automatic choice
// where automatic.choose_method / choose_format say so (then those two options are ignored),
// by the trial where automatic.trial says so. The result is that of the attempt that converged
// (or of the last), with seconds summed over attempts and the trial's whole wall time added.
template <class T>
SolveResult solve_automatically(Backend<T>& backend, const Csr<T>& a, std::span<const T> b,
                                std::vector<T>& x, index_t nrhs, SolverOptions options,
                                const AutoOptions& automatic);

}  // namespace pmom
