// Host-side set-up of the relaxation methods (Jacobi, Gauss-Seidel) and of SSOR
// preconditioning: their option checks, the diagonal they divide by, and the sweep order with
// the backend's sweeper over A in that order.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "planarmom/gpusolver/colouring.hpp"
#include "planarmom/gpusolver/solver.hpp"

namespace pmom {

// Throws std::invalid_argument for an ω out of range or SSOR with a method it does not fit.
void check_relaxation_options(Method resolved, const SolverOptions& options);

// 1/a_ii of every row; a zero diagonal entry is an error naming `who` and the row, since the
// relaxation methods divide by it.
template <class T> std::vector<T> inverse_diagonal_or_throw(const Csr<T>& a, const std::string& who);

// A as the sweeps see it. Natural order: A itself. Multicolour: P A Pᵀ with each colour a
// contiguous row range; vectors move between the caller's row order and this one.
template <class T> class SweepSystem {
 public:
  // Resolves `order` (automatic: natural where the backend sweeps row after row), colours
  // and permutes A if multicolour, makes the backend's sweeper, and logs the choice.
  SweepSystem(Backend<T>& backend, const Csr<T>& a, SweepOrder order, const std::string& who);

  [[nodiscard]] SweepOrder order() const { return order_; }
  [[nodiscard]] index_t colours() const { return colouring_.colours; }
  // A in the solver's row order (`a` is the matrix given to the constructor).
  [[nodiscard]] const Csr<T>& matrix(const Csr<T>& a) const { return permuted_ ? *permuted_ : a; }
  [[nodiscard]] const Sweeper<T>& sweeper() const { return *sweeper_; }

  // Column-major n x k blocks from the caller's row order to the solver's, and back in place.
  [[nodiscard]] std::vector<T> to_solver_order(std::span<const T> v) const;
  void to_caller_order(std::vector<T>& v) const;

 private:
  SweepOrder order_;
  Colouring colouring_;  // multicolour only
  std::optional<Csr<T>> permuted_;
  std::unique_ptr<Sweeper<T>> sweeper_;
};

#define PMOM_DECLARE(T) extern template class SweepSystem<T>;
PMOM_FOR_EACH_VALUE_TYPE(PMOM_DECLARE)
#undef PMOM_DECLARE

}  // namespace pmom
