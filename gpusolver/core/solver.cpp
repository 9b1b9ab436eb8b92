// The algorithms, written once against Backend<T>: the BiCG family (BiCG, COCG, CG differ
// only in their shadow vectors), BiCGSTAB and the relaxation methods (Jacobi, Gauss-Seidel),
// plus the host-side stopping test that turns per-RHS norms and kernel flags into outcomes.
#include <algorithm>
#include <boost/log/trivial.hpp>
#include <chrono>
#include <cstring>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "planarmom/gpusolver/convert.hpp"
#include "planarmom/gpusolver/solver.hpp"
#include "relaxation.hpp"

namespace pmom {
namespace {

Method resolve(Method requested, const MatrixTraits& t) {
  if (requested != Method::automatic) return requested;
  if (t.hermitian && t.positive_real_diagonal) return Method::cg;
  if (t.complex_symmetric) return Method::cocg;
  return Method::bicg;
}

// Per-column stopping logic: reads the monitor blocks, records histories, and decides.
class Monitor {
 public:
  Monitor(const SolverOptions& options, std::vector<double> bnorm, std::vector<RhsResult>& out)
      : options_(options), bnorm_(std::move(bnorm)), out_(out),
        best_(bnorm_.size(), std::numeric_limits<double>::infinity()),
        best_at_(bnorm_.size(), 0) {}

  // Records the norms and stops the columns that are done. Columns whose recurrence
  // residual reached the tolerance are not stopped but listed in `candidates`: the solver
  // confirms them with the true residual first. Returns true when `status` changed.
  bool check(int iteration, std::span<const double> rnorm2, std::vector<int>& status,
             std::vector<index_t>& candidates) {
    bool changed = false;
    candidates.clear();
    relative_.assign(rnorm2.size(), 0.0);
    for (std::size_t k = 0; k < rnorm2.size(); ++k) {
      RhsResult& res = out_[k];
      if (status[k] == rhs_stopped) continue;
      const double rel = bnorm_[k] > 0 ? std::sqrt(rnorm2[k]) / bnorm_[k] : 0.0;
      relative_[k] = rel;
      res.iterations = iteration;
      res.recurrence_residual = rel;
      if (options_.record_history) res.history.push_back(rel);
      std::optional<Outcome> stop;
      if (!std::isfinite(rel)) stop = Outcome::not_finite;
      else if (rel <= options_.tolerance) candidates.push_back(static_cast<index_t>(k));
      else if (status[k] == rhs_breakdown_rho) stop = Outcome::breakdown_rho;
      else if (status[k] == rhs_breakdown_sigma) stop = Outcome::breakdown_sigma;
      else if (status[k] == rhs_breakdown_omega) stop = Outcome::breakdown_omega;
      else if (stagnated(k, iteration, rel)) stop = Outcome::stagnation;
      else if (iteration >= options_.max_iterations) stop = Outcome::max_iterations;
      if (stop) {
        this->stop(k, *stop, status);
        changed = true;
      }
    }
    return changed;
  }

  void stop(std::size_t k, Outcome outcome, std::vector<int>& status) {
    out_[k].outcome = outcome;
    status[k] = rhs_stopped;
  }

  [[nodiscard]] double bnorm(std::size_t k) const { return bnorm_[k]; }

  [[nodiscard]] std::span<const double> relative() const { return relative_; }

 private:
  bool stagnated(std::size_t k, int iteration, double rel) {
    if (rel < 0.99 * best_[k]) {
      best_[k] = rel;
      best_at_[k] = iteration;
      return false;
    }
    return iteration - best_at_[k] >= options_.stagnation_window;
  }

  const SolverOptions& options_;
  std::vector<double> bnorm_;
  std::vector<RhsResult>& out_;
  std::vector<double> best_;
  std::vector<int> best_at_;
  std::vector<double> relative_;
};

}  // namespace

template <class T> struct Solver<T>::Workspace {
  Workspace(Backend<T>& be, index_t rows, index_t cols) : backend(be), n(rows), k(cols) {}
  Backend<T>& backend;
  index_t n;
  index_t k;
  Block<T> vectors() { return backend.template allocate<T>(n, k); }  // n x k
  Block<T> scalars() { return backend.template allocate<T>(1, k); }  // one per column
  Block<real_t<T>> scalars_real() { return backend.template allocate<real_t<T>>(1, k); }

  // ‖r‖² and the status words share one allocation, so that the stopping test reads both
  // with a single device-to-host copy.
  void allocate_monitor() {
    const std::size_t norms = static_cast<std::size_t>(k) * sizeof(real_t<T>);
    monitor_bytes = norms + static_cast<std::size_t>(k) * sizeof(int);
    const std::shared_ptr<void> storage = backend.allocate_bytes(monitor_bytes);
    rnorm2 = Block<real_t<T>>(storage, 1, k);
    status = Block<int>(std::shared_ptr<void>(storage, static_cast<char*>(storage.get()) + norms),
                        1, k);
  }
  // Reads both: ‖r‖² into the returned vector, the status words into `device_status`.
  std::vector<double> read_monitor(std::vector<int>& device_status) {
    std::vector<unsigned char> bytes(monitor_bytes);
    backend.copy_bytes(bytes.data(), rnorm2.data(), monitor_bytes, CopyKind::to_host);
    std::vector<real_t<T>> norms(static_cast<std::size_t>(k));
    std::memcpy(norms.data(), bytes.data(), norms.size() * sizeof(real_t<T>));
    device_status.resize(static_cast<std::size_t>(k));
    std::memcpy(device_status.data(), bytes.data() + norms.size() * sizeof(real_t<T>),
                device_status.size() * sizeof(int));
    return std::vector<double>(norms.begin(), norms.end());
  }
  std::size_t monitor_bytes = 0;

  Block<T> b, x, r;
  Block<T> t;  // scratch for b - Ax
  Block<real_t<T>> rnorm2;
  Block<int> status;
  std::vector<int> host_status;
  std::unique_ptr<Monitor> monitor;
  SolveResult result;
};

OperatorOptions operator_options(const SolverOptions& options, bool need_adjoint) {
  OperatorOptions op;
  op.format = options.format;
  op.adjoint = options.adjoint;
  op.need_adjoint = need_adjoint;
  op.sellp = options.sellp;
  op.dia = options.dia;
  return op;
}

template <class T>
Solver<T>::Solver(Backend<T>& backend, const Csr<T>& a, SolverOptions options)
    : Solver(backend, a, options, nullptr) {}

template <class T>
Solver<T>::Solver(Backend<T>& backend, const Csr<T>& a, SolverOptions options,
                  std::shared_ptr<const Operator<T>> built)
    : backend_(backend), options_(options), traits_(analyse(a)),
      method_(resolve(options.method, traits_)), n_(a.rows), a_(std::move(built)) {
  check_options(a.rows, a.cols);
  if (method_ == Method::cocg && !traits_.complex_symmetric)
    BOOST_LOG_TRIVIAL(warning) << "COCG forced on a matrix that is not complex symmetric "
                                  "(A^T != A): it will not converge to the right solution";
  if (method_ == Method::cg && !traits_.hermitian)
    BOOST_LOG_TRIVIAL(warning) << "CG forced on a matrix that is not Hermitian";
  check_relaxation_options(method_, options_);
  if (needs_sweeps(method_, options_))
    sweeps_ = std::make_unique<SweepSystem<T>>(
        backend_, a, options_.ordering, method_ == Method::gauss_seidel ? "gauss-seidel" : "SSOR");
  const Csr<T>& m = sweeps_ ? sweeps_->matrix(a) : a;

  if (!a_) {
    a_ = backend_.make_operator(m, operator_options(options_, method_ == Method::bicg));
  } else if (sweeps_ || a_->rows() != a.rows || a_->nnz() != static_cast<std::size_t>(a.nnz()) ||
             a_->format() != options_.format) {
    throw std::invalid_argument(
        "solver: the operator given was not built from this matrix in " +
        to_string(options_.format) +
        (sweeps_ ? " (or the method sweeps, and sweeps need the solver's own, reordered A)" : ""));
  }

  std::vector<T> inv;
  if (method_ == Method::jacobi) {
    inv = inverse_diagonal_or_throw(m, "jacobi");
    for (T& d : inv) d *= static_cast<real_t<T>>(options_.omega);
  } else {
    inv = diagonal(m);
    const bool jacobi = options_.preconditioner == Preconditioner::jacobi;
    std::size_t zeros = 0;
    for (T& d : inv) {
      if (!jacobi || d == T(0)) {
        zeros += jacobi ? 1 : 0;
        d = T(1);
      } else {
        d = T(1) / d;
      }
    }
    if (zeros > 0)
      BOOST_LOG_TRIVIAL(warning) << "Jacobi: " << zeros
                                 << " zero diagonal entries, left unscaled in those rows";
  }
  inv_diag_ = backend_.template allocate<T>(n_, 1);
  backend_.template upload<T>(inv, inv_diag_);
}

template <class T>
Solver<T>::Solver(Backend<T>& backend, std::shared_ptr<const Operator<T>> a,
                  SolverOptions options, const MatrixTraits& traits)
    : backend_(backend), options_(options), traits_(traits),
      method_(resolve(options.method, traits_)), n_(a ? a->rows() : 0), a_(std::move(a)) {
  if (!a_) throw std::invalid_argument("solver: no operator given");
  check_options(a_->rows(), a_->cols());
  check_relaxation_options(method_, options_);
  if (method_ == Method::jacobi || needs_sweeps(method_, options_))
    throw std::invalid_argument("solver: a matrix that lives on the backend only serves the "
                                "Krylov methods without sweeps, not " + to_string(method_) +
                                (options_.preconditioner == Preconditioner::ssor ? " with SSOR"
                                                                                  : ""));
  inv_diag_ = backend_.template allocate<T>(n_, 1);
  if (options_.preconditioner != Preconditioner::jacobi)
    backend_.template upload<T>(std::vector<T>(static_cast<std::size_t>(n_), T(1)), inv_diag_);
  refresh();
}

template <class T> void Solver<T>::refresh() {
  if (sweeps_ || method_ == Method::jacobi)
    throw std::logic_error("solver: refresh() serves the Krylov methods without sweeps");
  if (options_.preconditioner == Preconditioner::jacobi) backend_.inverse_diagonal(*a_, inv_diag_);
}

template <class T>
void Solver<T>::set_preconditioner(std::shared_ptr<const Operator<T>> m_inverse) {
  if (m_inverse) {
    if (method_ != Method::cocg && method_ != Method::cg)
      throw std::invalid_argument("solver: a given preconditioner serves COCG and CG, not " +
                                  to_string(method_));
    if (options_.preconditioner != Preconditioner::none)
      throw std::invalid_argument("solver: a given preconditioner replaces " +
                                  to_string(options_.preconditioner) +
                                  "; set the options' preconditioner to none");
    if (m_inverse->rows() != n_ || m_inverse->cols() != n_)
      throw std::invalid_argument("solver: the preconditioner is " +
                                  std::to_string(m_inverse->rows()) + " x " +
                                  std::to_string(m_inverse->cols()) + ", A is " +
                                  std::to_string(n_) + " x " + std::to_string(n_));
  }
  m_inverse_ = std::move(m_inverse);
}

template <class T> void Solver<T>::check_options(index_t rows, index_t cols) {
  if (rows != cols)
    throw std::invalid_argument("solver: matrix is " + std::to_string(rows) + " x " +
                                std::to_string(cols) + ", a square matrix is needed");
  if (options_.tolerance <= 0 || options_.max_iterations < 0 || options_.check_every < 0 ||
      !(options_.time_limit.seconds >= 0))
    throw std::invalid_argument("solver: tolerance must be > 0, max_iterations >= 0, "
                                "check_every >= 0 and time_limit.seconds >= 0");
  if (options_.check_every == 0) options_.check_every = backend_.default_check_interval();
}

template <class T> Solver<T>::~Solver() = default;

template <class T> SweepOrder Solver<T>::ordering() const {
  return sweeps_ ? sweeps_->order() : SweepOrder::automatic;
}

template <class T> index_t Solver<T>::colours() const { return sweeps_ ? sweeps_->colours() : 0; }

template <class T>
SolveResult Solver<T>::solve(std::span<const T> b, std::vector<T>& x, index_t nrhs) {
  check_solve_input(n_, b, x, nrhs);
  Workspace w(backend_, n_, nrhs);
  w.result.method = method_;
  w.result.format = options_.format;
  w.result.rhs.resize(nrhs);
  std::vector<double> bnorm(nrhs);
  for (index_t c = 0; c < nrhs; ++c) {
    double s = 0;
    for (index_t i = 0; i < n_; ++i) s += abs2(b[static_cast<std::size_t>(c) * n_ + i]);
    bnorm[c] = std::sqrt(s);
    // b = 0 has the exact solution 0; nothing to iterate on.
    if (s == 0) std::fill_n(x.begin() + static_cast<std::ptrdiff_t>(c) * n_, n_, T(0));
  }
  w.host_status.assign(nrhs, rhs_running);
  for (index_t c = 0; c < nrhs; ++c)
    if (bnorm[c] == 0 || !std::isfinite(bnorm[c])) {
      w.host_status[c] = rhs_stopped;
      w.result.rhs[c].outcome = bnorm[c] == 0 ? Outcome::converged : Outcome::not_finite;
    }
  w.monitor = std::make_unique<Monitor>(options_, bnorm, w.result.rhs);

  w.b = w.vectors();
  w.x = w.vectors();
  w.r = w.vectors();
  w.allocate_monitor();
  if (sweeps_) {
    backend_.template upload<T>(sweeps_->to_solver_order(b), w.b);
    backend_.template upload<T>(sweeps_->to_solver_order(x), w.x);
  } else {
    backend_.template upload<T>(b, w.b);
    backend_.template upload<T>(x, w.x);
  }
  backend_.template upload<int>(w.host_status, w.status);

  backend_.synchronize();
  const auto start = std::chrono::steady_clock::now();
  backend_.copy(w.b, w.r);
  backend_.spmv(*a_, Transpose::none, w.x, w.r, T(-1), T(1));

  switch (method_) {
    case Method::bicg: run_bicg_family(w, Shadow::explicit_vectors); break;
    case Method::cocg: run_bicg_family(w, Shadow::conjugate); break;
    case Method::cg: run_bicg_family(w, Shadow::same); break;
    case Method::bicgstab: run_bicgstab(w); break;
    case Method::jacobi:
    case Method::gauss_seidel: run_relaxation(w); break;
    case Method::automatic: throw std::logic_error("solve: method not resolved");
  }
  backend_.synchronize();
  w.result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const std::vector<double> true_rel = true_relative_residuals(w);
  const std::vector<T> residual = backend_.download(w.t);  // b - Ax, left there by the above
  x = backend_.download(w.x);
  if (sweeps_) sweeps_->to_caller_order(x);
  for (index_t c = 0; c < nrhs; ++c) {
    RhsResult& res = w.result.rhs[c];
    res.true_residual = true_rel[c];
    for (index_t i = 0; i < n_; ++i)
      res.true_residual_inf = std::max<double>(
          res.true_residual_inf, std::abs(residual[static_cast<std::size_t>(c) * n_ + i]));
    w.result.iterations = std::max(w.result.iterations, res.iterations);
  }
  return std::move(w.result);
}

namespace {

template <class T> void conjugate_on_host(Backend<T>& backend, const Block<T>& src, Block<T>& dst) {
  auto v = backend.download(src);
  for (T& e : v) e = conjugate(e);
  backend.template upload<T>(v, dst);
}

template <class T> void fill_ones(Backend<T>& backend, Block<T>& dst) {
  const std::vector<T> ones(dst.size(), T(1));
  backend.template upload<T>(ones, dst);
}

// Column and entry access for the rare host-side repairs (residual replacement).
template <class T, class U>
void copy_column(Backend<T>& backend, const Block<U>& src, Block<U>& dst, index_t k) {
  backend.copy_bytes(dst.column(k), src.column(k), static_cast<std::size_t>(dst.rows()) * sizeof(U),
                     CopyKind::within_backend);
}
template <class T, class U>
void set_column(Backend<T>& backend, Block<U>& dst, index_t k, std::span<const U> values) {
  backend.copy_bytes(dst.column(k), values.data(), values.size_bytes(), CopyKind::to_backend);
}
template <class T, class U> void set_entry(Backend<T>& backend, Block<U>& dst, index_t k, U v) {
  backend.copy_bytes(dst.data() + k, &v, sizeof(U), CopyKind::to_backend);
}
template <class T> std::vector<T> get_column(Backend<T>& backend, const Block<T>& src, index_t k) {
  std::vector<T> v(static_cast<std::size_t>(src.rows()));
  backend.copy_bytes(v.data(), src.column(k), v.size() * sizeof(T), CopyKind::to_host);
  return v;
}

}  // namespace

template <class T>
template <class Step, class Restart, class PrepareCheck>
void Solver<T>::iterate(Workspace& w, Step&& step, Restart&& restart,
                        PrepareCheck&& prepare_check) {
  std::vector<index_t> candidates, restarts;
  std::vector<int> replacements(static_cast<std::size_t>(w.k), 0);
  auto check = [&](int it) {
    prepare_check();
    std::vector<int> device_status;
    const std::vector<double> n2 = w.read_monitor(device_status);
    for (std::size_t k = 0; k < w.host_status.size(); ++k)
      if (w.host_status[k] != rhs_stopped) w.host_status[k] = device_status[k];
    bool changed = w.monitor->check(it, n2, w.host_status, candidates);
    if (!candidates.empty()) {
      // The recurrence residual drifts from b - Ax in finite precision (badly so for
      // BiCGSTAB on some matrices): confirm convergence with the true residual, and where it
      // is above the tolerance, replace r by it and restart that column's recurrences.
      const std::vector<double> true_rel = true_relative_residuals(w);
      restarts.clear();
      for (index_t k : candidates) {
        if (true_rel[k] <= options_.tolerance)
          w.monitor->stop(k, Outcome::converged, w.host_status);
        else if (replacements[k]++ < options_.max_residual_replacements)
          restarts.push_back(k);
        else
          w.monitor->stop(k, Outcome::residual_gap, w.host_status);
      }
      for (index_t k : restarts) {
        copy_column(backend_, w.t, w.r, k);
        w.host_status[k] = rhs_running;  // also clears a breakdown flag set meanwhile
      }
      backend_.template upload<int>(w.host_status, w.status);
      changed = false;
      if (!restarts.empty()) {
        BOOST_LOG_TRIVIAL(debug) << "iteration " << it << ": residual replaced in "
                                 << restarts.size() << " column(s)";
        restart(restarts);
      }
    }
    if (progress_) progress_(it, w.monitor->relative());
    if (changed) backend_.template upload<int>(w.host_status, w.status);
    return std::all_of(w.host_status.begin(), w.host_status.end(),
                       [](int st) { return st == rhs_stopped; });
  };
  if (check(0)) return;
  const auto start = std::chrono::steady_clock::now();
  auto out_of_time = [&](int it) {
    const SolverOptions::TimeLimit& limit = options_.time_limit;
    if (limit.seconds <= 0 || it < limit.min_iterations ||
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() <
            limit.seconds)
      return false;
    for (std::size_t k = 0; k < w.host_status.size(); ++k)
      if (w.host_status[k] != rhs_stopped) w.monitor->stop(k, Outcome::time_limit, w.host_status);
    return true;
  };
  const std::unique_ptr<StepLoop> loop =
      options_.use_graphs ? backend_.make_step_loop(step)
                          : std::make_unique<PlainStepLoop>(std::function<void()>(step));
  for (int it = 0; it < options_.max_iterations;) {
    const int steps = std::min(options_.check_every, options_.max_iterations - it);
    loop->run(steps);
    it += steps;
    if (check(it) || out_of_time(it)) return;
  }
}

// t = b - Ax for every column; returns ‖t‖/‖b‖ per column.
template <class T> std::vector<double> Solver<T>::true_relative_residuals(Workspace& w) {
  if (w.t.size() == 0) w.t = w.vectors();
  backend_.copy(w.b, w.t);
  backend_.spmv(*a_, Transpose::none, w.x, w.t, T(-1), T(1));
  auto norms = w.scalars_real();
  backend_.norm2_squared(w.t, norms, options_.summation);
  const auto n2 = backend_.download(norms);
  std::vector<double> rel(n2.size());
  for (std::size_t k = 0; k < rel.size(); ++k)
    rel[k] = w.monitor->bnorm(k) == 0 ? 0 : std::sqrt(static_cast<double>(n2[k])) / w.monitor->bnorm(k);
  return rel;
}

template <class T> void Solver<T>::run_bicg_family(Workspace& w, Shadow shadow) {
  auto vec = [&] { return w.vectors(); };
  auto scalar = [&] { return w.scalars(); };
  const bool expl = shadow == Shadow::explicit_vectors;
  Block<T> rt, pt, qt, p = vec(), q = vec();
  if (expl) {
    rt = vec();
    pt = vec();
    qt = vec();
    if (options_.shadow_start == ShadowStart::conj_residual) conjugate_on_host(backend_, w.r, rt);
    else backend_.copy(w.r, rt);
  }
  Block<T> rho = scalar(), rho_old = scalar(), sigma = scalar();
  fill_ones(backend_, rho_old);  // p = 0 at the start, so the first β only multiplies zeros

  BicgVectors<T> v;
  v.shadow = shadow;
  v.summation = options_.summation;
  v.inv_diag = &inv_diag_;
  v.x = &w.x;
  v.r = &w.r;
  v.rt = expl ? &rt : nullptr;
  v.p = &p;
  v.pt = expl ? &pt : nullptr;
  v.q = &q;
  v.qt = expl ? &qt : nullptr;
  v.rho = &rho;
  v.rho_old = &rho_old;
  v.sigma = &sigma;
  v.rnorm2 = &w.rnorm2;
  v.status = &w.status;
  backend_.bicg_reduce(v);

  // σ = p̃ᴴAp: explicitly for BiCG, pᵀAp for COCG (p̃ = conj p), pᴴAp for CG (p̃ = p).
  const Block<T>& sigma_left = expl ? pt : p;
  const bool conjugated = shadow != Shadow::conjugate;
  // SSOR (CG, COCG): z = M⁻¹r by a forward sweep from zero and a backward sweep, and
  // ρ = r̃ᴴz, before the directions. The fused kernels then run with a unit diagonal and see
  // z in place of r; the ρ bicg_update forms from r alone is overwritten here each step.
  // A given M⁻¹ (set_preconditioner) the same way, z = M⁻¹r by one product.
  const bool applies_m = sweeps_ || m_inverse_;
  Block<T> z;
  BicgVectors<T> vz = v;
  if (applies_m) {
    z = vec();
    vz.r = &z;
  }
  const auto omega = static_cast<real_t<T>>(options_.omega);
  auto precondition = [&] {
    if (m_inverse_) {
      backend_.spmv(*m_inverse_, Transpose::none, w.r, z);
    } else {
      const Sweeper<T>& s = sweeps_->sweeper();
      backend_.sor_sweep(s, SweepDirection::forward, true, omega, w.r, z, w.status);
      backend_.sor_sweep(s, SweepDirection::backward, false, omega, w.r, z, w.status);
    }
    backend_.dot(w.r, z, rho, conjugated, options_.summation);
  };
  auto step = [&] {
    if (applies_m) precondition();
    backend_.bicg_directions(applies_m ? vz : v);
    backend_.spmv(*a_, Transpose::none, p, q);
    if (expl) backend_.spmv(*a_, Transpose::conj_trans, pt, qt);
    backend_.dot(sigma_left, q, sigma, conjugated, options_.summation);
    backend_.bicg_update(v);
  };
  // A restarted column starts over from its (replaced) residual, as at iteration 0.
  auto restart = [&](std::span<const index_t> columns) {
    const std::vector<T> zeros(static_cast<std::size_t>(n_), T(0));
    for (index_t k : columns) {
      set_column<T, T>(backend_, p, k, zeros);
      if (expl) {
        set_column<T, T>(backend_, pt, k, zeros);
        std::vector<T> rk = get_column(backend_, w.r, k);
        if (options_.shadow_start == ShadowStart::conj_residual)
          for (T& e : rk) e = conjugate(e);
        set_column<T, T>(backend_, rt, k, rk);
      }
      set_entry(backend_, rho_old, k, T(1));
    }
    backend_.bicg_reduce(v);
  };
  iterate(w, step, restart);
}

template <class T> void Solver<T>::run_bicgstab(Workspace& w) {
  auto vec = [&] { return w.vectors(); };
  auto scalar = [&] { return w.scalars(); };
  Block<T> rhat = vec(), p = vec(), v_ = vec(), s = vec(), t = vec();
  // Without Jacobi, p̂ and ŝ are p and s: no diagonal pass, no extra vectors (backend.hpp).
  const bool jacobi = options_.preconditioner == Preconditioner::jacobi;
  Block<T> phat = jacobi ? vec() : p, shat = jacobi ? vec() : s;
  Block<T> rho = scalar(), rho_old = scalar(), alpha = scalar(),
           omega = scalar(), rhat_v = scalar(), t_s = scalar(), t_t = scalar();
  backend_.copy(w.r, rhat);
  fill_ones(backend_, rho_old);
  fill_ones(backend_, alpha);
  fill_ones(backend_, omega);
  backend_.dot(rhat, w.r, rho, true, options_.summation);
  backend_.norm2_squared(w.r, w.rnorm2, options_.summation);

  BicgstabVectors<T> v;
  v.summation = options_.summation;
  v.inv_diag = jacobi ? &inv_diag_ : nullptr;
  v.x = &w.x;
  v.r = &w.r;
  v.rhat = &rhat;
  v.p = &p;
  v.phat = &phat;
  v.v = &v_;
  v.s = &s;
  v.shat = &shat;
  v.t = &t;
  v.rho = &rho;
  v.rho_old = &rho_old;
  v.alpha = &alpha;
  v.omega = &omega;
  v.rhat_v = &rhat_v;
  v.t_s = &t_s;
  v.t_t = &t_t;
  v.rnorm2 = &w.rnorm2;
  v.status = &w.status;

  auto step = [&] {
    backend_.bicgstab_directions(v);
    backend_.spmv(*a_, Transpose::none, phat, v_);
    backend_.dot(rhat, v_, rhat_v, true, options_.summation);
    backend_.bicgstab_half_step(v);
    backend_.spmv(*a_, Transpose::none, shat, t);
    backend_.bicgstab_omega_dots(v);
    backend_.bicgstab_update(v);
  };
  // A restarted column takes its replaced residual as the new shadow r̂, as at iteration 0.
  auto restart = [&](std::span<const index_t> columns) {
    const std::vector<T> zeros(static_cast<std::size_t>(n_), T(0));
    for (index_t k : columns) {
      copy_column(backend_, w.r, rhat, k);
      set_column<T, T>(backend_, p, k, zeros);
      set_column<T, T>(backend_, v_, k, zeros);
      for (Block<T>* one : {&rho_old, &alpha, &omega}) set_entry(backend_, *one, k, T(1));
    }
    backend_.dot(rhat, w.r, rho, true, options_.summation);
    backend_.norm2_squared(w.r, w.rnorm2, options_.summation);
  };
  iterate(w, step, restart);
}

// Jacobi keeps r = b − Ax current (its update needs it: one SpMV per iteration), so a check
// only takes the norm. Gauss-Seidel sweeps x in place; b − Ax is formed at the checks only.
// Either way the monitored residual is the true one, and a confirmed convergence never
// needs a restart.
template <class T> void Solver<T>::run_relaxation(Workspace& w) {
  auto residual = [&] {
    backend_.copy(w.b, w.r);
    backend_.spmv(*a_, Transpose::none, w.x, w.r, T(-1), T(1));
  };
  auto norm = [&] { backend_.norm2_squared(w.r, w.rnorm2, options_.summation); };
  auto no_restart = [](std::span<const index_t>) {};
  if (method_ == Method::jacobi) {
    auto step = [&] {
      backend_.diagonal_update(inv_diag_, w.r, w.x, w.status);
      residual();
    };
    iterate(w, step, no_restart, norm);
    return;
  }
  const Sweeper<T>& s = sweeps_->sweeper();
  const auto omega = static_cast<real_t<T>>(options_.omega);
  auto sweep = [&] {
    backend_.sor_sweep(s, SweepDirection::forward, false, omega, w.b, w.x, w.status);
  };
  iterate(w, sweep, no_restart, [&] {
    residual();
    norm();
  });
}

#define PMOM_INSTANTIATE(T) template class Solver<T>;
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

}  // namespace pmom
