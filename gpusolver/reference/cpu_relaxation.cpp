// SOR sweeps and the Jacobi update of the reference backend. A natural-order sweep is the true
// sequential Gauss-Seidel (right-hand sides in parallel); a multicolour sweep runs the rows of
// one colour in parallel, which is exact because they do not couple.
#include "cpu_relaxation.hpp"

#include <stdexcept>
#include <string>

#include "cpu_parallel.hpp"

namespace pmom::cpu {
namespace {

void check_block(index_t rows, index_t cols, index_t want_rows, index_t want_cols,
                 const char* kernel, const char* name) {
  if (rows != want_rows || cols != want_cols)
    throw std::invalid_argument(std::string(kernel) + ": block " + name + " is " +
                                std::to_string(rows) + " x " + std::to_string(cols) +
                                ", expected " + std::to_string(want_rows) + " x " +
                                std::to_string(want_cols));
}

std::vector<index_t> running(const Block<int>& status) {
  std::vector<index_t> active;
  for (index_t k = 0; k < status.cols(); ++k)
    if (status.data()[k] == rhs_running) active.push_back(k);
  return active;
}

// x_i += ω d_i (b_i − Σ_j a_ij x_j). FromZero: x_i is taken as zero and only the entries left
// of the diagonal (j < i, rows already swept) enter the sum.
template <bool FromZero, class T>
void relax_row(const Csr<T>& a, index_t i, T omega_d, const T* b, T* x) {
  T s = b[i];
  for (index_t e = a.row_ptr[i]; e < a.row_ptr[i + 1]; ++e) {
    const index_t j = a.col_idx[e];
    if constexpr (FromZero)
      if (j >= i) break;  // columns are sorted
    s -= a.values[e] * x[j];
  }
  x[i] = FromZero ? omega_d * s : x[i] + omega_d * s;
}

}  // namespace

template <class T>
CpuSweeper<T>::CpuSweeper(const Csr<T>& a, std::span<const T> inv_diag,
                          std::span<const index_t> colour_ptr)
    : a_(a), inv_diag_(inv_diag.begin(), inv_diag.end()),
      colour_ptr_(colour_ptr.begin(), colour_ptr.end()) {}

template <class T>
void CpuSweeper<T>::sweep(SweepDirection direction, bool from_zero, real_t<T> omega,
                          const Block<T>& b, Block<T>& x, const Block<int>& status) const {
  const char* kernel = "sor_sweep";
  const index_t n = a_.rows, k = status.cols();
  check_block(status.rows(), k, 1, k, kernel, "status");
  check_block(b.rows(), b.cols(), n, k, kernel, "b");
  check_block(x.rows(), x.cols(), n, k, kernel, "x");
  if (from_zero && direction == SweepDirection::backward)
    throw std::invalid_argument("sor_sweep: a sweep from zero must go forward");
  const bool forward = direction == SweepDirection::forward;
  const std::vector<index_t> active = running(status);
  const auto count = static_cast<index_t>(active.size());

  const auto run = [&]<bool FromZero>(std::bool_constant<FromZero>) {
    const auto row = [&](index_t i, index_t c) {
      relax_row<FromZero>(a_, i, omega * inv_diag_[i], b.column(c), x.column(c));
    };
    if (colour_ptr_.empty()) {
      // Row after row; only the right-hand sides are independent.
      const int team = count > 1 ? team_size(a_.nnz() * static_cast<std::int64_t>(count)) : 1;
#pragma omp parallel for schedule(static) num_threads(team) if (team > 1)
      for (index_t c = 0; c < count; ++c)
        for (index_t s = 0; s < n; ++s) row(forward ? s : n - 1 - s, active[c]);
      return;
    }
    const auto colours = static_cast<index_t>(colour_ptr_.size()) - 1;
    for (index_t step = 0; step < colours; ++step) {
      const index_t colour = forward ? step : colours - 1 - step;
      const index_t lo = colour_ptr_[colour], hi = colour_ptr_[colour + 1];
      const std::int64_t work =
          (static_cast<std::int64_t>(hi - lo) + a_.row_ptr[hi] - a_.row_ptr[lo]) * count;
      const int team = team_size(work);
#pragma omp parallel for schedule(static) num_threads(team) if (team > 1)
      for (index_t i = lo; i < hi; ++i)
        for (index_t c = 0; c < count; ++c) row(i, active[c]);
    }
  };
  if (from_zero) run(std::true_type{});
  else run(std::false_type{});
}

template <class T>
void diagonal_update(const Block<T>& d, const Block<T>& r, Block<T>& x, const Block<int>& status) {
  const char* kernel = "diagonal_update";
  const index_t n = x.rows(), k = status.cols();
  check_block(status.rows(), k, 1, k, kernel, "status");
  check_block(x.rows(), x.cols(), n, k, kernel, "x");
  check_block(r.rows(), r.cols(), n, k, kernel, "r");
  check_block(d.rows(), d.cols(), n, 1, kernel, "d");
  const std::vector<index_t> active = running(status);
  sweep_columns<NoSum, 0>(n, active, [&](index_t c) {
    return [dd = d.data(), rc = r.column(c), xc = x.column(c)](index_t i, auto&) {
      xc[i] += dd[i] * rc[i];
    };
  });
}

#define PMOM_INSTANTIATE(T) template class CpuSweeper<T>; \
 template void diagonal_update(const Block<T>&, const Block<T>&, Block<T>&, const Block<int>&);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

}  // namespace pmom::cpu
