// Option checks, strict inverse diagonal and sweep ordering of the relaxation methods.
#include "relaxation.hpp"

#include <boost/log/trivial.hpp>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "planarmom/gpusolver/convert.hpp"

namespace pmom {
namespace {

bool is_sweep_method(Method m) { return m == Method::gauss_seidel; }
bool is_relaxation(Method m) { return m == Method::jacobi || m == Method::gauss_seidel; }

std::string omega_text(double omega) {
  std::ostringstream os;
  os << omega;
  return os.str();
}

}  // namespace

bool needs_sweeps(Method resolved, const SolverOptions& options) {
  return is_sweep_method(resolved) ||
         (!is_relaxation(resolved) && options.preconditioner == Preconditioner::ssor);
}

void check_relaxation_options(Method resolved, const SolverOptions& options) {
  const double omega = options.omega;
  if (resolved == Method::jacobi && !(omega > 0 && std::isfinite(omega)))
    throw std::invalid_argument("jacobi: the relaxation factor omega must be > 0, got " +
                                omega_text(omega));
  if (!needs_sweeps(resolved, options)) return;
  if (!(omega > 0 && omega < 2))
    throw std::invalid_argument(
        (is_sweep_method(resolved) ? "gauss-seidel" : "SSOR") +
        std::string(": the relaxation factor omega must lie in (0, 2), where SOR sweeps can "
                    "converge; got ") +
        omega_text(omega));
  if (!is_sweep_method(resolved) && resolved != Method::cg && resolved != Method::cocg)
    throw std::invalid_argument(
        "SSOR preconditioning runs with cg (Hermitian A) or cocg (complex symmetric A), whose "
        "single recurrence keeps M symmetric; the solver is " + to_string(resolved) +
        (options.method == Method::automatic ? " (auto's choice for this matrix)" : "") +
        ": choose --solver cg or cocg, or another preconditioner");
}

template <class T> std::vector<T> inverse_diagonal_or_throw(const Csr<T>& a, const std::string& who) {
  std::vector<T> inv = diagonal(a);
  std::size_t zeros = 0;
  index_t first = -1;
  for (std::size_t i = 0; i < inv.size(); ++i) {
    if (inv[i] == T(0)) {
      if (zeros++ == 0) first = static_cast<index_t>(i);
    } else {
      inv[i] = T(1) / inv[i];
    }
  }
  if (zeros > 0)
    throw std::invalid_argument(who + " divides by the diagonal, but a_ii = 0 in " +
                                std::to_string(zeros) + " row(s), the first row " +
                                std::to_string(first) + "; use a Krylov solver instead");
  return inv;
}

template <class T>
SweepSystem<T>::SweepSystem(Backend<T>& backend, const Csr<T>& a, SweepOrder order,
                            const std::string& who)
    : order_(order) {
  if (order_ == SweepOrder::automatic)
    order_ = backend.sequential_sweeps() ? SweepOrder::natural : SweepOrder::multicolour;
  if (order_ == SweepOrder::natural && !backend.sequential_sweeps())
    throw std::invalid_argument(who + ": natural-order sweeps go row after row, which the " +
                                backend.name() + " backend does not do; use the multicolour "
                                "order (--ordering multicolour or auto)");
  if (order_ == SweepOrder::multicolour) {
    colouring_ = greedy_colouring(a);
    permuted_ = permute_symmetric(a, std::span<const index_t>(colouring_.permutation));
  }
  const Csr<T>& m = matrix(a);
  sweeper_ = backend.make_sweeper(m, inverse_diagonal_or_throw(m, who), colouring_.colour_ptr);
  BOOST_LOG_TRIVIAL(info) << who << ": " << to_string(order_) << " order"
                          << (order_ == SweepOrder::multicolour
                                  ? ", " + std::to_string(colouring_.colours) +
                                        " colours (greedy colouring of A + A^T)"
                                  : std::string())
                          << " on the " << backend.name() << " backend";
}

template <class T> std::vector<T> SweepSystem<T>::to_solver_order(std::span<const T> v) const {
  if (!permuted_) return {v.begin(), v.end()};
  const std::vector<index_t>& p = colouring_.permutation;
  const std::size_t n = p.size();
  std::vector<T> out(v.size());
  for (std::size_t c = 0; c + n <= v.size() && n > 0; c += n)
    for (std::size_t k = 0; k < n; ++k) out[c + k] = v[c + static_cast<std::size_t>(p[k])];
  return out;
}

template <class T> void SweepSystem<T>::to_caller_order(std::vector<T>& v) const {
  if (!permuted_) return;
  const std::vector<index_t>& p = colouring_.permutation;
  const std::size_t n = p.size();
  const std::vector<T> solver(v);
  for (std::size_t c = 0; c + n <= v.size() && n > 0; c += n)
    for (std::size_t k = 0; k < n; ++k) v[c + static_cast<std::size_t>(p[k])] = solver[c + k];
}

#define PMOM_INSTANTIATE(T) template std::vector<T> inverse_diagonal_or_throw(const Csr<T>&, const std::string&); \
 template class SweepSystem<T>;
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

}  // namespace pmom
