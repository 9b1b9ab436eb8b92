// Compressed sparse row storage on the host, the canonical format every other format and
// every backend's device copy is built from.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "planarmom/gpusolver/scalar.hpp"

namespace pmom {

template <class T> struct Csr {
  index_t rows = 0;
  index_t cols = 0;
  std::vector<index_t> row_ptr{0};  // rows + 1 offsets into col_idx/values
  std::vector<index_t> col_idx;     // sorted ascending within each row, no duplicates
  std::vector<T> values;

  [[nodiscard]] index_t nnz() const { return row_ptr.empty() ? 0 : row_ptr.back(); }
  [[nodiscard]] index_t row_length(index_t i) const { return row_ptr[i + 1] - row_ptr[i]; }

  // Throws std::invalid_argument naming the first broken invariant.
  void validate() const;
};

// Where entry (row, col) of a CSR pattern (columns sorted in each row) is stored in its
// col_idx and values, or −1 when the pattern does not hold it.
[[nodiscard]] inline std::int64_t csr_position(std::span<const index_t> row_ptr,
                                               std::span<const index_t> col_idx, index_t row,
                                               index_t col) {
  const auto first = col_idx.begin() + row_ptr[static_cast<std::size_t>(row)];
  const auto last = col_idx.begin() + row_ptr[static_cast<std::size_t>(row) + 1];
  const auto at = std::lower_bound(first, last, col);
  return at != last && *at == col ? at - col_idx.begin() : -1;
}

#define PMOM_DECLARE(T) extern template struct Csr<T>;
PMOM_FOR_EACH_VALUE_TYPE(PMOM_DECLARE)
#undef PMOM_DECLARE

}  // namespace pmom
