// Compressed sparse row storage on the host, the canonical format every other format and
// every backend's device copy is built from.
#pragma once

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

#define PMOM_DECLARE(T) extern template struct Csr<T>;
PMOM_FOR_EACH_VALUE_TYPE(PMOM_DECLARE)
#undef PMOM_DECLARE

}  // namespace pmom
