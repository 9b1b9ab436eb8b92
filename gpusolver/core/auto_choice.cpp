// The automatic choice. The rules are few and each rests on a measurement of the seed
// matrices on a GPU (docs/BENCHMARKS.md, "Automatic choice"): the methods that exploit
// symmetry do one SpMV per iteration, BiCG failed less often and ran faster than BiCGSTAB on
// most general matrices, Jacobi beat the Krylov methods on strongly dominant matrices, DIA was
// the best format on few-diagonal matrices of millions of rows, and HYB won exactly where a
// few rows are far longer than the mean. Where asked, a timed trial (auto_trial.cpp) decides
// among the rule's candidates instead.
#include "planarmom/gpusolver/auto_choice.hpp"

#include <algorithm>
#include <boost/log/trivial.hpp>
#include <cmath>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "planarmom/gpusolver/auto_trial.hpp"

namespace pmom {
namespace {

// DIA pays while it stores few padding zeros, and only where SpMV is bound by memory
// bandwidth: it saves the column indices, a third of CSR's bytes per real entry. Below about a
// million rows the matrix sits in a GPU's L2 and launch latency rules; there DIA's
// per-diagonal loop lost to CSR (docs/BENCHMARKS.md, "Automatic choice"). HYB pays
// where a few rows would make CSR's lane groups (sized for the mean row) or ELL's width (the
// longest row) badly unbalanced.
constexpr index_t dia_min_rows = 1'000'000;
constexpr double hyb_row_ratio = 10.0;
constexpr double jacobi_dominance = 2.0;

std::string first_failure(const SolveResult& r) {
  for (const RhsResult& c : r.rhs)
    if (c.outcome != Outcome::converged) return to_string(c.outcome);
  return "converged";
}

}  // namespace

AutoChoice choose_automatically(const MatrixFeatures& f, bool device) {
  AutoChoice c;
  std::ostringstream why;
  const MatrixTraits& t = f.traits;
  if (t.hermitian && t.positive_real_diagonal) {
    c.methods = {Method::cg, Method::bicgstab};
    why << "Hermitian with a positive diagonal: cg, then bicgstab";
  } else if (t.complex_symmetric) {
    c.methods = {Method::cocg, Method::bicgstab};
    why << "A^T = A: cocg (BiCG's iterates at one SpMV each), then bicgstab";
  } else {
    c.methods = {Method::bicg, Method::bicgstab};
    why << "no symmetry: bicg, then bicgstab";
  }
  if (f.min_dominance >= jacobi_dominance) {
    // Contraction by 1/2 or better per step at one SpMV: fewer passes over A than a Krylov
    // method's two SpMVs and reductions per iteration.
    c.methods.insert(c.methods.begin(), Method::jacobi);
    why << "; first jacobi (every |a_ii| at least " << jacobi_dominance
        << " times its row's other entries)";
  } else if (f.strictly_dominant_rows == 1.0 && f.zero_diagonal_rows == 0) {
    c.methods.push_back(Method::gauss_seidel);
    why << ", then gauss-seidel (strictly diagonally dominant, so it converges)";
  }
  if (!device) {
    c.format = Format::csr;
    why << "; csr (the cpu kernels walk rows)";
  } else if (f.rows >= dia_min_rows && f.diagonals <= MatrixFeatures::max_counted_diagonals &&
             f.dia_fill <= auto_dia_fill_limit) {
    c.format = Format::dia;
    why << "; dia (" << f.diagonals << " diagonals, " << f.dia_fill << " values per entry)";
  } else if (f.max_row_length > hyb_row_ratio * f.mean_row_length) {
    c.format = Format::hyb;
    why << "; hyb (longest row " << f.max_row_length << " against a mean of "
        << f.mean_row_length << ")";
  } else {
    c.format = Format::csr;
    why << "; csr";
  }
  c.reason = why.str();
  return c;
}

SolverOptions with_method(SolverOptions options, Method method) {
  if (options.preconditioner == Preconditioner::ssor && method != Method::cg &&
      method != Method::cocg)
    options.preconditioner = Preconditioner::jacobi;
  options.method = method;
  return options;
}

void validate(const AutoOptions& o) {
  if (o.trial && !o.choose_method && !o.choose_format)
    throw std::invalid_argument("--auto-trial needs --solver auto or --format auto: with the "
                                "solver and the format both named there is nothing to try");
  if (o.trial_iterations < 1)
    throw std::invalid_argument("--auto-trial-iterations must be at least 1 (got " +
                                std::to_string(o.trial_iterations) +
                                "): a rate needs an iteration to measure");
  if (!(o.trial_seconds > 0) || !std::isfinite(o.trial_seconds))
    throw std::invalid_argument("--auto-trial-ms must be a positive number of milliseconds (got " +
                                std::to_string(o.trial_seconds * 1e3) + ")");
}

template <class T>
FallbackSolver<T>::FallbackSolver(Backend<T>& backend, const Csr<T>& a, SolverOptions options,
                                  std::vector<Method> methods,
                                  std::shared_ptr<const Operator<T>> built)
    : backend_(backend), a_(a), options_(std::move(options)), methods_(std::move(methods)),
      built_(std::move(built)), solvers_(methods_.size()) {
  if (methods_.empty()) throw std::invalid_argument("FallbackSolver: no methods to try");
}

template <class T>
SolveResult FallbackSolver<T>::solve(std::span<const T> b, std::vector<T>& x, index_t nrhs) {
  const std::vector<T> guess = x;
  SolveResult result;
  double seconds = 0;
  for (std::size_t i = 0; i < methods_.size(); ++i) {
    const SolverOptions so = with_method(options_, methods_[i]);
    x = guess;
    if (!solvers_[i]) {
      // The shared operator serves every method that does not sweep.
      const bool share = built_ && !needs_sweeps(methods_[i], so);
      solvers_[i] = share ? std::make_unique<Solver<T>>(backend_, a_, so, built_)
                          : std::make_unique<Solver<T>>(backend_, a_, so);
    }
    result = solvers_[i]->solve(b, x, nrhs);
    seconds += result.seconds;
    if (result.all_converged() || i + 1 == methods_.size()) break;
    BOOST_LOG_TRIVIAL(info) << "auto: " << to_string(methods_[i]) << " ended with "
                            << first_failure(result) << "; trying " << to_string(methods_[i + 1]);
  }
  result.seconds = seconds;
  return result;
}

namespace {

template <class T> bool on_device(const Backend<T>& backend) {
  return backend.on_device();
}

// The feature rule's methods and format, logged; options' own where automatic does not choose
// (`choice` and `features` are then left alone).
template <class T>
std::vector<Method> rule_choice(Backend<T>& backend, const Csr<T>& a, SolverOptions& options,
                                const AutoOptions& automatic, AutoChoice& choice,
                                MatrixFeatures& features) {
  std::vector<Method> methods{options.method};
  if (!automatic.choose_method && !automatic.choose_format) return methods;
  features = matrix_features(a);
  choice = choose_automatically(features, on_device(backend));
  BOOST_LOG_TRIVIAL(info) << "auto: " << describe(features) << " -> " << choice.reason;
  if (automatic.choose_method) methods = choice.methods;
  if (automatic.choose_format) options.format = choice.format;
  return methods;
}

}  // namespace

template <class T>
FallbackSolver<T> make_automatic_solver(Backend<T>& backend, const Csr<T>& a,
                                        SolverOptions options, const AutoOptions& automatic) {
  validate(automatic);
  if (automatic.trial)
    throw std::invalid_argument("make_automatic_solver: the timed trial runs per solve; use "
                                "solve_automatically");
  AutoChoice c;
  MatrixFeatures f;
  std::vector<Method> methods = rule_choice(backend, a, options, automatic, c, f);
  return FallbackSolver<T>(backend, a, options, std::move(methods));
}

template <class T>
SolveResult solve_automatically(Backend<T>& backend, const Csr<T>& a, std::span<const T> b,
                                std::vector<T>& x, index_t nrhs, SolverOptions options,
                                const AutoOptions& automatic) {
  validate(automatic);
  AutoChoice c;
  MatrixFeatures f;
  std::vector<Method> methods = rule_choice(backend, a, options, automatic, c, f);
  std::optional<TrialPick<T>> pick;
  if (automatic.trial) {
    const TrialCandidates t = trial_candidates(c, f, on_device(backend), options, automatic);
    if (t.methods.size() * t.formats.size() > 1)
      pick = run_trial<T>(backend, a, b, x, nrhs, options, t, automatic);
    else
      BOOST_LOG_TRIVIAL(info) << "auto trial skipped: one candidate, nothing to compare";
  }
  if (!pick) return FallbackSolver<T>(backend, a, options, std::move(methods)).solve(b, x, nrhs);
  if (pick->solved) {
    x = std::move(pick->x);
    pick->result.seconds = pick->seconds;
    return std::move(pick->result);
  }
  options.format = pick->format;
  SolveResult result =
      FallbackSolver<T>(backend, a, options, pick->order, pick->built).solve(b, x, nrhs);
  result.seconds += pick->seconds;
  return result;
}

template class FallbackSolver<double>;
template class FallbackSolver<std::complex<double>>;
template FallbackSolver<double> make_automatic_solver(Backend<double>&, const Csr<double>&,
                                                      SolverOptions, const AutoOptions&);
template FallbackSolver<std::complex<double>> make_automatic_solver(
    Backend<std::complex<double>>&, const Csr<std::complex<double>>&, SolverOptions,
    const AutoOptions&);
template SolveResult solve_automatically(Backend<double>&, const Csr<double>&,
                                         std::span<const double>, std::vector<double>&, index_t,
                                         SolverOptions, const AutoOptions&);
template SolveResult solve_automatically(Backend<std::complex<double>>&,
                                         const Csr<std::complex<double>>&,
                                         std::span<const std::complex<double>>,
                                         std::vector<std::complex<double>>&, index_t,
                                         SolverOptions, const AutoOptions&);

}  // namespace pmom
