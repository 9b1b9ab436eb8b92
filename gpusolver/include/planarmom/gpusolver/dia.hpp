// DIA storage: each occupied diagonal stored as a row of values, one per matrix row, as in
// structured-grid solvers. A periodic variant folds column indices modulo the column count, so
// a periodic stencil's wrap-around corners share the diagonals of the band.
#pragma once

#include <cstdint>
#include <vector>

#include "planarmom/gpusolver/csr.hpp"

namespace pmom {

struct DiaOptions {
  // Offsets modulo cols: A(i, j) lies on the diagonal (j - i) mod cols, stored as the offset
  // of smallest magnitude (e.g. -1 rather than n - 1).
  bool periodic = false;
  // Refuse (std::invalid_argument) when rows * diagonals > max_fill * nnz: DIA stores a value
  // for every row of every occupied diagonal, so a scattered pattern would cost far more
  // memory and bandwidth than its entries.
  double max_fill = 10.0;
};

template <class T> struct Dia {
  index_t rows = 0;
  index_t cols = 0;
  bool periodic = false;
  // Ascending. Diagonal d holds A(i, j) at values[d * rows + i] with j = i + offset[d]
  // (mod cols when periodic); zero where j falls outside the matrix or A has no entry there.
  std::vector<index_t> offset;
  std::vector<T> values;

  [[nodiscard]] index_t diagonals() const { return static_cast<index_t>(offset.size()); }
  // Column of row i on diagonal d, or -1 outside the matrix (never when periodic).
  [[nodiscard]] index_t column(index_t i, index_t d) const {
    const std::int64_t j = static_cast<std::int64_t>(i) + offset[d];
    if (periodic) return static_cast<index_t>((j % cols + cols) % cols);
    return j >= 0 && j < cols ? static_cast<index_t>(j) : -1;
  }
};

template <class T> Dia<T> to_dia(const Csr<T>& a, const DiaOptions& options = {});

#define PMOM_DECLARE(T) extern template struct Dia<T>; \
 extern template Dia<T> to_dia(const Csr<T>&, const DiaOptions&);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_DECLARE)
#undef PMOM_DECLARE

}  // namespace pmom
