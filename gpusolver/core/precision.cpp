// Single-precision solves of double systems and mixed-precision iterative refinement, on any
// backend pair made by name; the Krylov iterations are the Solver's own, in single_t<T>.
#include "planarmom/gpusolver/precision.hpp"

#include <algorithm>
#include <boost/log/trivial.hpp>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/gpusolver/convert.hpp"

namespace pmom {

template <class T>
PrecisionSolver<T>::PrecisionSolver(const std::string& backend, const Csr<T>& a,
                                    SolverOptions options, Precision precision,
                                    RefinementOptions refinement)
    : precision_(precision), options_(options), refinement_(refinement), a_(a) {
  if (refinement_.inner_tolerance <= 0 || refinement_.inner_tolerance >= 1 ||
      refinement_.max_refinements < 1 || refinement_.min_reduction <= 0 ||
      refinement_.min_reduction >= 1)
    throw std::invalid_argument("mixed precision: the inner tolerance and the least reduction "
                                "per step must lie in (0, 1), refinements >= 1");
  backend_ = make_backend<T>(backend);
  if (precision_ == Precision::double_precision) {
    solver_ = std::make_unique<Solver<T>>(*backend_, a_, options_);
    return;
  }
  single_backend_ = make_backend<Single>(backend);
  SolverOptions inner = options_;
  if (precision_ == Precision::mixed) {
    inner.tolerance = refinement_.inner_tolerance;
    inner.record_history = false;
  }
  single_solver_ = std::make_unique<Solver<Single>>(*single_backend_, convert_values<Single>(a_),
                                                    inner);
  OperatorOptions op;
  op.need_adjoint = false;
  op_ = backend_->make_operator(a_, op);
}

template <class T> PrecisionSolver<T>::~PrecisionSolver() = default;

template <class T> std::string PrecisionSolver<T>::backend_name() const { return backend_->name(); }

template <class T> Method PrecisionSolver<T>::method() const {
  return solver_ ? solver_->method() : single_solver_->method();
}

template <class T>
SolveResult PrecisionSolver<T>::solve(std::span<const T> b, std::vector<T>& x, index_t nrhs) {
  switch (precision_) {
    case Precision::double_precision: return solver_->solve(b, x, nrhs);
    case Precision::single_precision: return solve_single(b, x, nrhs);
    case Precision::mixed: return refine(b, x, nrhs);
  }
  throw std::logic_error("PrecisionSolver: unknown precision");
}

namespace {

template <class To, class From> std::vector<To> convert(std::span<const From> v, double scale = 1) {
  std::vector<To> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = To(v[i] * static_cast<real_t<From>>(scale));
  return out;
}

template <class T> std::vector<double> norms2(std::span<const T> v, index_t n, index_t k) {
  std::vector<double> out(k, 0.0);
  for (index_t c = 0; c < k; ++c) {
    for (index_t i = 0; i < n; ++i) out[c] += abs2(v[static_cast<std::size_t>(c) * n + i]);
    out[c] = std::sqrt(out[c]);
  }
  return out;
}

}  // namespace

template <class T>
void PrecisionSolver<T>::residuals(std::span<const T> b, std::span<const T> x, index_t nrhs,
                                   std::vector<T>& r, std::vector<double>& norm2,
                                   std::vector<double>& norm_inf) {
  const index_t n = a_.rows;
  // Kept between calls: refinement evaluates a residual every step.
  if (x_block_.cols() != nrhs) {
    x_block_ = backend_->template allocate<T>(n, nrhs);
    r_block_ = backend_->template allocate<T>(n, nrhs);
  }
  backend_->template upload<T>(x, x_block_);
  backend_->template upload<T>(b, r_block_);
  backend_->spmv(*op_, Transpose::none, x_block_, r_block_, T(-1), T(1));
  r = backend_->download(r_block_);
  norm2 = norms2<T>(r, n, nrhs);
  norm_inf.assign(nrhs, 0.0);
  for (index_t c = 0; c < nrhs; ++c)
    for (index_t i = 0; i < n; ++i)
      norm_inf[c] = std::max<double>(norm_inf[c], std::abs(r[static_cast<std::size_t>(c) * n + i]));
}


template <class T>
SolveResult PrecisionSolver<T>::solve_single(std::span<const T> b, std::vector<T>& x,
                                             index_t nrhs) {
  std::vector<Single> xs = convert<Single, T>(x);
  SolveResult result = single_solver_->solve(convert<Single, T>(b), xs, nrhs);
  x = convert<T, Single>(xs);
  std::vector<T> r;
  std::vector<double> norm2, norm_inf;
  residuals(b, x, nrhs, r, norm2, norm_inf);
  const std::vector<double> bnorm = norms2(b, a_.rows, nrhs);
  for (index_t c = 0; c < nrhs; ++c) {
    result.rhs[c].true_residual = bnorm[c] > 0 ? norm2[c] / bnorm[c] : 0.0;
    result.rhs[c].true_residual_inf = norm_inf[c];
  }
  return result;
}

template <class T>
SolveResult PrecisionSolver<T>::refine(std::span<const T> b, std::vector<T>& x, index_t nrhs) {
  const index_t n = a_.rows;
  check_solve_input(n, b, x, nrhs);
  const auto start = std::chrono::steady_clock::now();
  SolveResult result;
  result.method = single_solver_->method();
  result.format = options_.format;
  result.rhs.resize(nrhs);
  const std::vector<double> bnorm = norms2(b, n, nrhs);
  std::vector<bool> done(nrhs, false);
  std::vector<double> previous(nrhs, std::numeric_limits<double>::infinity());
  std::vector<T> r, last_x = x;
  const std::vector<T> x0 = x;
  std::vector<double> norm2, norm_inf;
  for (int step = 0;; ++step) {
    residuals(b, x, nrhs, r, norm2, norm_inf);
    std::vector<index_t> active;
    for (index_t c = 0; c < nrhs; ++c) {
      if (done[c]) continue;
      RhsResult& res = result.rhs[c];
      const double rel = bnorm[c] > 0 ? norm2[c] / bnorm[c] : 0.0;
      const auto finish = [&](Outcome o) {
        res.outcome = o;
        done[c] = true;
      };
      if (rel <= options_.tolerance) {
        res.recurrence_residual = rel;
        if (options_.record_history) res.history.push_back(rel);
        finish(Outcome::converged);
      } else if (!std::isfinite(rel) || rel > refinement_.min_reduction * previous[c]) {
        // The single-precision correction no longer resolves the error. A step that made
        // the residual worse is undone.
        if (!(rel < previous[c])) {
          const auto col = static_cast<std::ptrdiff_t>(c) * n;
          std::copy_n(last_x.begin() + col, n, x.begin() + col);
        }
        finish(std::isfinite(std::min(rel, previous[c])) ? Outcome::stagnation
                                                         : Outcome::not_finite);
      } else {
        res.recurrence_residual = rel;
        if (options_.record_history) res.history.push_back(rel);
        previous[c] = rel;
        if (step == refinement_.max_refinements) finish(Outcome::max_iterations);
        else active.push_back(c);
      }
    }
    if (active.empty()) break;
    // Each correction solves A d = r/‖r‖ in single precision: unit scale keeps r's
    // magnitude inside float's range however small the residual has become.
    const auto m = static_cast<index_t>(active.size());
    std::vector<Single> rs(static_cast<std::size_t>(n) * m), d;
    for (index_t j = 0; j < m; ++j) {
      const index_t c = active[j];
      const auto src = std::span<const T>(r).subspan(static_cast<std::size_t>(c) * n, n);
      const std::vector<Single> col = convert<Single, T>(src, 1.0 / norm2[c]);
      std::copy(col.begin(), col.end(), rs.begin() + static_cast<std::ptrdiff_t>(j) * n);
    }
    const SolveResult inner = single_solver_->solve(rs, d, m);
    last_x = x;
    for (index_t j = 0; j < m; ++j) {
      const index_t c = active[j];
      RhsResult& res = result.rhs[c];
      res.iterations += inner.rhs[j].iterations;
      res.refinements = step + 1;
      const auto scale = static_cast<real_t<T>>(norm2[c]);
      for (index_t i = 0; i < n; ++i)
        x[static_cast<std::size_t>(c) * n + i] +=
            scale * T(d[static_cast<std::size_t>(j) * n + i]);
      BOOST_LOG_TRIVIAL(debug) << "refinement " << step + 1 << ", column " << c << ": inner "
                               << to_string(inner.rhs[j].outcome) << " after "
                               << inner.rhs[j].iterations << " iterations";
    }
  }
  std::vector<index_t> stagnated;
  for (index_t c = 0; c < nrhs; ++c)
    if (result.rhs[c].outcome != Outcome::converged) stagnated.push_back(c);
  if (refinement_.finish_in_double && !stagnated.empty())
    finish_in_double(b, x, x0, stagnated, result);
  backend_->synchronize();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  residuals(b, x, nrhs, r, norm2, norm_inf);
  for (index_t c = 0; c < nrhs; ++c) {
    RhsResult& res = result.rhs[c];
    res.true_residual = bnorm[c] > 0 ? norm2[c] / bnorm[c] : 0.0;
    res.true_residual_inf = norm_inf[c];
    result.iterations = std::max(result.iterations, res.iterations);
  }
  return result;
}

template <class T>
void PrecisionSolver<T>::finish_in_double(std::span<const T> b, std::vector<T>& x,
                                          const std::vector<T>& x0,
                                          const std::vector<index_t>& columns,
                                          SolveResult& result) {
  const index_t n = a_.rows;
  if (!solver_) solver_ = std::make_unique<Solver<T>>(*backend_, a_, options_);
  // From the refined iterate first; where that fails (BiCGSTAB's breakdowns depend on the
  // start), from the caller's initial guess, so mixed never fails where double alone would
  // not.
  std::vector<index_t> left = columns;
  const std::vector<T>* refined = &x;
  for (const std::vector<T>* start : {refined, &x0}) {
    if (left.empty()) break;
    const auto m = static_cast<index_t>(left.size());
    std::vector<T> bm(static_cast<std::size_t>(n) * m), xm(bm.size());
    for (index_t j = 0; j < m; ++j) {
      const auto from = static_cast<std::ptrdiff_t>(left[j]) * n;
      const auto to = static_cast<std::ptrdiff_t>(j) * n;
      std::copy_n(b.begin() + from, n, bm.begin() + to);
      std::copy_n(start->begin() + from, n, xm.begin() + to);
    }
    const SolveResult d = solver_->solve(bm, xm, m);
    std::vector<index_t> failed;
    for (index_t j = 0; j < m; ++j) {
      RhsResult& res = result.rhs[left[j]];
      BOOST_LOG_TRIVIAL(info) << "mixed precision: column " << left[j] << " ended ("
                              << to_string(res.outcome) << ") after " << res.refinements
                              << " refinements; double from the "
                              << (start == refined ? "refined iterate" : "initial guess") << ": "
                              << to_string(d.rhs[j].outcome) << " after "
                              << d.rhs[j].iterations << " iterations";
      res.iterations += d.rhs[j].iterations;
      res.finished_in_double = true;
      if (d.rhs[j].outcome != Outcome::converged && start == refined) {
        failed.push_back(left[j]);
        continue;
      }
      res.outcome = d.rhs[j].outcome;
      res.recurrence_residual = d.rhs[j].recurrence_residual;
      std::copy_n(xm.begin() + static_cast<std::ptrdiff_t>(j) * n, n,
                  x.begin() + static_cast<std::ptrdiff_t>(left[j]) * n);
    }
    left = std::move(failed);
  }
}

template class PrecisionSolver<double>;
template class PrecisionSolver<std::complex<double>>;

}  // namespace pmom
