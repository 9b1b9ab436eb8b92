// The reference backend's relaxation kernels: SOR sweeps (row after row in natural order, or
// colour by colour with each colour's rows in parallel) and the Jacobi update.
#pragma once

#include <vector>

#include "planarmom/gpusolver/kernels/relaxation.hpp"

namespace pmom::cpu {

template <class T> class CpuSweeper final : public Sweeper<T> {
 public:
  // Expects a valid square Csr, inv_diag of its size and colour_ptr as Backend::make_sweeper.
  CpuSweeper(const Csr<T>& a, std::span<const T> inv_diag, std::span<const index_t> colour_ptr);

  [[nodiscard]] index_t rows() const override { return a_.rows; }

  // Backend::sor_sweep on the host blocks.
  void sweep(SweepDirection direction, bool from_zero, real_t<T> omega, const Block<T>& b,
             Block<T>& x, const Block<int>& status) const;

 private:
  Csr<T> a_;
  std::vector<T> inv_diag_;
  std::vector<index_t> colour_ptr_;  // empty: natural order
};

// Backend::diagonal_update on the host blocks.
template <class T>
void diagonal_update(const Block<T>& d, const Block<T>& r, Block<T>& x, const Block<int>& status);

#define PMOM_DECLARE(T) extern template class CpuSweeper<T>; \
 extern template void diagonal_update(const Block<T>&, const Block<T>&, Block<T>&, const Block<int>&);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_DECLARE)
#undef PMOM_DECLARE

}  // namespace pmom::cpu
