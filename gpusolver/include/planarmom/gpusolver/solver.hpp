// Preconditioned Krylov solvers (BiCG, COCG, BiCGSTAB, CG) and the relaxation methods (Jacobi,
// Gauss-Seidel), each written once against Backend<T>, with per-right-hand-side stopping,
// outcome reporting and residual histories.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "planarmom/gpusolver/backend.hpp"
#include "planarmom/gpusolver/csr.hpp"

namespace pmom {

// auto: COCG when A is complex symmetric (Aᵀ = A), CG when A is Hermitian with a positive
// real diagonal, BiCG otherwise. jacobi and gauss_seidel are the stationary iterations
// x ← x + ω D⁻¹(b − Ax) and the SOR sweep (Gauss-Seidel at ω = 1); auto never picks them.
enum class Method { automatic, bicg, cocg, bicgstab, cg, jacobi, gauss_seidel };

// M of the Krylov methods. ssor: one forward and one backward SOR(ω) sweep from zero, M =
// (D + ωL) D⁻¹ (D + ωU) / (ω(2 − ω)); symmetric where A is, so CG and COCG only.
enum class Preconditioner { none, jacobi, ssor };

// Row order of the Gauss-Seidel and SSOR sweeps. natural: row after row (a backend with
// sequential sweeps only, the CPU); multicolour: rows grouped by a greedy colouring of
// A + Aᵀ, each colour updated in parallel; auto: natural where the backend can, else
// multicolour.
enum class SweepOrder { automatic, natural, multicolour };

// What BiCG's shadow residual starts as. conj(r₀) makes BiCG's iterates those of COCG on a
// complex symmetric A; r₀ makes them those of CG on a Hermitian one.
enum class ShadowStart { conj_residual, residual };

// residual_gap: the recurrence residual reached the tolerance, but the true residual b - Ax
// stayed above it through max_residual_replacements restarts. time_limit: the iterations ran
// past SolverOptions::time_limit.
enum class Outcome { converged, max_iterations, breakdown_rho, breakdown_sigma, breakdown_omega,
                     not_finite, stagnation, residual_gap, time_limit };

struct SolverOptions {
  Method method = Method::automatic;
  double tolerance = 1e-7;   // on ‖r‖₂ / ‖b‖₂, the EM BiCG paper's value
  int max_iterations = 10000;
  // The solve stops at its first check after `seconds` of iterating (Outcome::time_limit), but
  // not before `min_iterations`; seconds 0: no limit. What bounds the automatic choice's timed
  // trial (auto_trial.hpp), whose rate needs a few iterations whatever one costs.
  struct TimeLimit {
    double seconds = 0;
    int min_iterations = 0;
  } time_limit;
  // Iterations between the host's reads of the residual norms; 0: the backend's default
  // (1 on the CPU, 8 on CUDA). A column may thus run up to check_every - 1 iterations past
  // the one that met the tolerance; those count in its iterations.
  int check_every = 0;
  // Stagnation: the best residual has not dropped by 1% for this many iterations.
  int stagnation_window = 2000;
  Preconditioner preconditioner = Preconditioner::jacobi;  // the relaxation methods ignore it
  // Relaxation factor of the Jacobi and Gauss-Seidel iterations and of SSOR: > 0 for Jacobi,
  // in (0, 2) for the sweeps (outside it SOR diverges on every matrix).
  double omega = 1.0;
  SweepOrder ordering = SweepOrder::automatic;
  ShadowStart shadow_start = ShadowStart::conj_residual;
  // How every dot product and norm is summed (in T's precision): compensated sums cost a few
  // flops per term, nothing measurable in these bandwidth-bound kernels, and keep a float
  // solve's reductions accurate on long vectors.
  Summation summation = Summation::plain;
  bool record_history = true;
  // A converged recurrence is confirmed with b - Ax; if that is above the tolerance, r is
  // replaced by it and the column restarts, at most this many times.
  int max_residual_replacements = 10;
  // Let the backend record an iteration once and replay it (CUDA graphs); see StepLoop.
  bool use_graphs = true;
  Format format = Format::csr;
  AdjointMode adjoint = AdjointMode::stored;
  SellpOptions sellp;  // Format::sellp only
  DiaOptions dia;      // Format::dia only
};

struct RhsResult {
  Outcome outcome = Outcome::max_iterations;
  int iterations = 0;
  double recurrence_residual = 0;  // ‖r‖/‖b‖ of the solver's own recurrence
  double true_residual = 0;        // ‖b − Ax‖/‖b‖ recomputed at the end
  double true_residual_inf = 0;    // ‖b − Ax‖∞, absolute (the multi-algorithm paper's measure)
  int refinements = 0;             // outer steps of mixed-precision refinement (precision.hpp)
  bool finished_in_double = false; // mixed: refinement stagnated, the double solver finished
  std::vector<double> history;     // ‖r‖/‖b‖ at iteration 0 and at every check
};

struct SolveResult {
  Method method = Method::bicg;  // the method that ran (automatic resolved)
  Format format = Format::csr;   // the format it ran in
  std::vector<RhsResult> rhs;
  double seconds = 0;            // iterations only: no uploads, no final residual
  int iterations = 0;            // the largest over the right-hand sides
  [[nodiscard]] bool all_converged() const;
};

std::string to_string(Method m);
std::string to_string(Outcome o);
std::string to_string(Preconditioner p);
std::string to_string(SweepOrder o);
// These throw std::invalid_argument naming the choices.
Method parse_method(const std::string& name);
Preconditioner parse_preconditioner(const std::string& name);
SweepOrder parse_sweep_order(const std::string& name);

// Matrix properties the automatic choice and the kernels use, found once on the host.
struct MatrixTraits {
  bool complex_symmetric = false;  // Aᵀ = A
  bool hermitian = false;          // Aᴴ = A
  bool positive_real_diagonal = false;
};
template <class T> MatrixTraits analyse(const Csr<T>& a);

// Whether a resolved method with these options sweeps (Gauss-Seidel, or a Krylov method with
// SSOR): the runs that SolverOptions::ordering changes.
bool needs_sweeps(Method resolved, const SolverOptions& options);

// The operator a solve with these options runs on (format, adjoint handling); need_adjoint
// for the methods that multiply by Aᴴ (BiCG).
OperatorOptions operator_options(const SolverOptions& options, bool need_adjoint);

// What every solve(b, x, nrhs) checks first: b holds n x nrhs values (nrhs >= 1) and x as
// many, or none (then zeros). Throws std::invalid_argument saying which is off.
template <class T>
void check_solve_input(index_t n, std::span<const T> b, std::vector<T>& x, index_t nrhs) {
  const std::size_t size = static_cast<std::size_t>(n) * static_cast<std::size_t>(nrhs);
  if (nrhs < 1 || b.size() != size)
    throw std::invalid_argument("solve: right-hand side has " + std::to_string(b.size()) +
                                " values, expected " + std::to_string(n) + " x " +
                                std::to_string(nrhs));
  if (x.empty()) x.assign(size, T(0));
  if (x.size() != size)
    throw std::invalid_argument("solve: initial guess has " + std::to_string(x.size()) +
                                " values, expected " + std::to_string(size));
}

// Called after every check with (iteration, per-RHS relative residuals); for progress output.
using ProgressCallback = std::function<void(int, std::span<const double>)>;

template <class T> class SweepSystem;

template <class T> class Solver {
 public:
  // Uploads A (and Aᴴ if the method needs it) and the Jacobi diagonal to the backend; for
  // sweeps (Gauss-Seidel, SSOR) also the sweeper, in multicolour order A permuted so that
  // each colour is a contiguous row range (solutions come back in the caller's order).
  Solver(Backend<T>& backend, const Csr<T>& a, SolverOptions options);
  // The same on an operator already built from `a` on this backend with
  // operator_options(options, ...) (with an adjoint for BiCG), so that several solvers share
  // one; not for the sweeping runs (Gauss-Seidel, SSOR), whose operator is A reordered.
  Solver(Backend<T>& backend, const Csr<T>& a, SolverOptions options,
         std::shared_ptr<const Operator<T>> built);
  // A matrix that lives on the backend only, written there in place by its producer
  // (Backend::csr_values; the GPU fill): `a` is its operator (CSR, no stored adjoint; BiCG
  // needs it built with AdjointMode::transposed_kernel), `traits` the caller's word on its
  // symmetry. Krylov methods without sweeps only. The Jacobi diagonal is read from the operator:
  // call refresh() after rewriting the values.
  Solver(Backend<T>& backend, std::shared_ptr<const Operator<T>> a, SolverOptions options,
         const MatrixTraits& traits);
  ~Solver();
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;

  // Solves A X = B for the k columns of B (n x k column-major). x holds the initial guess
  // on entry (zeros if empty) and the solutions on return.
  SolveResult solve(std::span<const T> b, std::vector<T>& x, index_t nrhs = 1);

  [[nodiscard]] Method method() const { return method_; }
  [[nodiscard]] const MatrixTraits& traits() const { return traits_; }
  // The order the sweeps run in (automatic where the method does not sweep) and, for
  // multicolour, the number of colours (else 0).
  [[nodiscard]] SweepOrder ordering() const;
  [[nodiscard]] index_t colours() const;
  void set_progress(ProgressCallback cb) { progress_ = std::move(cb); }
  // Re-reads the Jacobi diagonal from the operator after its values were rewritten in place.
  // Throws std::logic_error for the sweeping methods and the Jacobi iteration.
  void refresh();
  // M⁻¹ given by the caller as an operator on this backend (e.g. the inverses of diagonal
  // blocks of A; its values may be rewritten in place between solves): each iteration then
  // applies z = M⁻¹ r. COCG and CG only (M must be complex symmetric, resp. Hermitian positive
  // definite, as A), with options.preconditioner none; throws std::invalid_argument otherwise.
  // nullptr takes it away.
  void set_preconditioner(std::shared_ptr<const Operator<T>> m_inverse);

 private:
  struct Workspace;
  void run_bicg_family(Workspace& w, Shadow shadow);
  void run_bicgstab(Workspace& w);
  void run_relaxation(Workspace& w);
  // The loop shared by every method: step() each iteration, the stopping test every
  // check_every iterations (prepare_check() first fills the monitor blocks where the steps do
  // not), and restart(columns) after a residual replacement.
  template <class Step, class Restart, class PrepareCheck = void (*)()>
  void iterate(Workspace& w, Step&& step, Restart&& restart,
               PrepareCheck&& prepare_check = [] {});
  std::vector<double> true_relative_residuals(Workspace& w);
  // Square A and sane tolerance, limits and check interval (0: the backend's).
  void check_options(index_t rows, index_t cols);

  Backend<T>& backend_;
  SolverOptions options_;
  MatrixTraits traits_;
  Method method_;
  index_t n_;
  std::shared_ptr<const Operator<T>> a_;
  Block<T> inv_diag_;  // M⁻¹ of Jacobi preconditioning; ω D⁻¹ for the Jacobi iteration
  std::unique_ptr<SweepSystem<T>> sweeps_;  // Gauss-Seidel and SSOR only
  std::shared_ptr<const Operator<T>> m_inverse_;  // set_preconditioner
  ProgressCallback progress_;
};

#define PMOM_DECLARE(T) extern template class Solver<T>;
PMOM_FOR_EACH_VALUE_TYPE(PMOM_DECLARE)
#undef PMOM_DECLARE

}  // namespace pmom
