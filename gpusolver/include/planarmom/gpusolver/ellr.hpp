// ELLPACK-R storage (Vázquez, Fernández & Garzón 2011): column-major ELL plus each row's length,
// so a thread per row stops at its own length and never reads the padding.
#pragma once

#include <vector>

#include "planarmom/gpusolver/csr.hpp"

namespace pmom {

template <class T> struct Ellr {
  // Marks an unused slot (its value is zero); kernels stop at row_length before reaching one.
  static constexpr index_t padding = -1;

  index_t rows = 0;
  index_t cols = 0;
  index_t width = 0;                // the longest row
  std::vector<index_t> col;         // rows * width, slot k of row i at k * rows + i
  std::vector<T> values;            // same layout as col
  std::vector<index_t> row_length;  // row i fills its slots [0, row_length[i])

  [[nodiscard]] std::size_t nnz() const;
};

// Row i's entries in its first slots, in CSR order (ascending columns).
template <class T> Ellr<T> to_ellr(const Csr<T>& a);

#define PMOM_DECLARE(T) extern template struct Ellr<T>; \
 extern template Ellr<T> to_ellr(const Csr<T>&);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_DECLARE)
#undef PMOM_DECLARE

}  // namespace pmom
