// The reference backend's sparse operator: A on the host in any Format, plus what the Aᴴ
// product needs (a stored conjugate transpose in the same format, or the transposed kernel).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "planarmom/gpusolver/csr.hpp"
#include "planarmom/gpusolver/dia.hpp"
#include "planarmom/gpusolver/ellr.hpp"
#include "planarmom/gpusolver/hyb.hpp"
#include "planarmom/gpusolver/operator.hpp"
#include "planarmom/gpusolver/sellp.hpp"

namespace pmom::cpu {

// Row views: for_each_in(lo, hi, f) calls f(i, j, a_ij) for the stored entries of rows
// [lo, hi) in the order that streams the format's arrays, and work_before(i) counts the work of
// rows [0, i) (entries read plus one per row) so the kernels can split rows into ranges of
// equal work.
template <class T> struct CsrRows {
  Csr<T> m;

  [[nodiscard]] index_t rows() const { return m.rows; }
  [[nodiscard]] index_t cols() const { return m.cols; }
  [[nodiscard]] std::int64_t work_before(index_t i) const {
    return static_cast<std::int64_t>(i) + m.row_ptr[i];
  }
  template <class F> void for_each_in(index_t lo, index_t hi, F&& f) const {
    for (index_t i = lo; i < hi; ++i)
      for (index_t k = m.row_ptr[i]; k < m.row_ptr[i + 1]; ++k) f(i, m.col_idx[k], m.values[k]);
  }
};

// HYB with its COO overflow indexed by row: a row range is its ELL slots plus a COO range, so
// the row-parallel kernels need no atomics. The ELL part is walked slot by slot, each slot a
// contiguous run of the range's rows; row by row it would be ell_width strided streams.
template <class T> struct HybRows {
  Hyb<T> m;
  std::vector<index_t> coo_row_ptr;

  explicit HybRows(Hyb<T> hyb);
  [[nodiscard]] index_t rows() const { return m.rows; }
  [[nodiscard]] index_t cols() const { return m.cols; }
  [[nodiscard]] std::int64_t work_before(index_t i) const {
    return static_cast<std::int64_t>(i) * (1 + m.ell_width) + coo_row_ptr[i];
  }
  template <class F> void for_each_in(index_t lo, index_t hi, F&& f) const {
    for (index_t w = 0; w < m.ell_width; ++w) {
      const std::size_t slot = static_cast<std::size_t>(w) * static_cast<std::size_t>(m.rows);
      const index_t* col = m.ell_col.data() + slot;
      const T* val = m.ell_val.data() + slot;
      for (index_t i = lo; i < hi; ++i)
        if (col[i] != Hyb<T>::padding) f(i, col[i], val[i]);
    }
    for (index_t k = coo_row_ptr[lo]; k < coo_row_ptr[hi]; ++k)
      f(m.coo.row_idx[k], m.coo.col_idx[k], m.coo.values[k]);
  }
};

// ELLPACK-R slot by slot like HYB's ELL part, each slot only as far as the longest row of the
// range: row_length, not the padding, says which rows a slot still holds.
template <class T> struct EllrRows {
  Ellr<T> m;
  std::vector<index_t> row_ptr;  // prefix sums of m.row_length

  explicit EllrRows(Ellr<T> ellr);
  [[nodiscard]] index_t rows() const { return m.rows; }
  [[nodiscard]] index_t cols() const { return m.cols; }
  [[nodiscard]] std::int64_t work_before(index_t i) const {
    return static_cast<std::int64_t>(i) + row_ptr[i];
  }
  template <class F> void for_each_in(index_t lo, index_t hi, F&& f) const {
    const index_t* length = m.row_length.data();
    const index_t width = lo < hi ? *std::max_element(length + lo, length + hi) : 0;
    for (index_t w = 0; w < width; ++w) {
      const std::size_t slot = static_cast<std::size_t>(w) * static_cast<std::size_t>(m.rows);
      const index_t* col = m.col.data() + slot;
      const T* val = m.values.data() + slot;
      for (index_t i = lo; i < hi; ++i)
        if (w < length[i]) f(i, col[i], val[i]);
    }
  }
};

// SELL-P row by row in the matrix's order: row i's slots start at its stored position and lie
// slice_rows apart up to its slice's end, so a row range needs no knowledge of the σ-windows.
template <class T> struct SellpRows {
  Sellp<T> m;
  std::vector<index_t> position;   // stored row of row i (inverse of m.row_of)
  std::vector<std::int64_t> work;  // work_before(i): rows [0, i) and their entries

  explicit SellpRows(Sellp<T> sellp);
  [[nodiscard]] index_t rows() const { return m.rows; }
  [[nodiscard]] index_t cols() const { return m.cols; }
  [[nodiscard]] std::int64_t work_before(index_t i) const { return work[i]; }
  template <class F> void for_each_in(index_t lo, index_t hi, F&& f) const {
    const index_t b = m.slice_rows;
    for (index_t i = lo; i < hi; ++i) {
      const index_t p = position[i];
      const index_t end = m.slice_ptr[p / b + 1];
      for (index_t at = m.slice_ptr[p / b] + p % b; at < end && m.col[at] != Sellp<T>::padding;
           at += b)
        f(i, m.col[at], m.values[at]);
    }
  }
};

// DIA diagonal by diagonal, each a contiguous run of the range's rows and of x; a periodic
// diagonal's columns wrap around to 0 at cols.
template <class T> struct DiaRows {
  Dia<T> m;

  [[nodiscard]] index_t rows() const { return m.rows; }
  [[nodiscard]] index_t cols() const { return m.cols; }
  [[nodiscard]] std::int64_t work_before(index_t i) const {
    return static_cast<std::int64_t>(i) * (1 + m.diagonals());
  }
  template <class F> void for_each_in(index_t lo, index_t hi, F&& f) const {
    if (lo >= hi) return;
    for (index_t d = 0; d < m.diagonals(); ++d) {
      const T* val = m.values.data() + static_cast<std::size_t>(d) * static_cast<std::size_t>(m.rows);
      const index_t offset = m.offset[d];
      if (m.periodic) {
        index_t j = m.column(lo, d);
        for (index_t i = lo; i < hi; ++i) {
          f(i, j, val[i]);
          if (++j == m.cols) j = 0;
        }
      } else {
        // Rows whose column i + offset lies in [0, cols).
        const auto first = static_cast<index_t>(std::clamp<std::int64_t>(-std::int64_t{offset}, lo, hi));
        const auto last = static_cast<index_t>(std::clamp<std::int64_t>(std::int64_t{m.cols} - offset, lo, hi));
        for (index_t i = first; i < last; ++i) f(i, i + offset, val[i]);
      }
    }
  }
};

template <class T>
using StoredMatrix = std::variant<CsrRows<T>, HybRows<T>, EllrRows<T>, SellpRows<T>, DiaRows<T>>;

template <class T> class CpuOperator final : public Operator<T> {
 public:
  // Expects a valid Csr.
  CpuOperator(const Csr<T>& a, const OperatorOptions& options);

  [[nodiscard]] index_t rows() const override { return rows_; }
  [[nodiscard]] index_t cols() const override { return cols_; }
  [[nodiscard]] std::size_t nnz() const override { return nnz_; }
  [[nodiscard]] Format format() const override { return format_; }

  // y = alpha op(A) x + beta y for ncols contiguous columns of x and y (leading dimensions:
  // op(A)'s column and row counts); y is not read when beta == 0. The transposed kernel uses
  // scratch kept in the operator, so one operator must not run two Aᴴ products at once.
  void apply(Transpose op, const T* x, T* y, index_t ncols, T alpha, T beta) const;

  // Backend::csr_values and inverse_diagonal for this operator.
  T* csr_values();
  void inverse_diagonal(T* out) const;

 private:
  using Matrix = StoredMatrix<T>;

  index_t rows_;
  index_t cols_;
  std::size_t nnz_;
  Format format_;
  AdjointMode adjoint_mode_;
  Matrix a_;
  std::optional<Matrix> adjoint_;   // AdjointMode::stored with need_adjoint only
  mutable std::vector<T> scratch_;  // per-thread partial outputs of the transposed kernel
};

#define PMOM_DECLARE(T) extern template class CpuOperator<T>;
PMOM_FOR_EACH_VALUE_TYPE(PMOM_DECLARE)
#undef PMOM_DECLARE

}  // namespace pmom::cpu
