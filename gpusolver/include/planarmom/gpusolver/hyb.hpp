// HYB storage (Bell & Garland, SC'09): a column-major ELL part of fixed width for the bulk of
// each row plus a COO part for the overflow of long rows.
#pragma once

#include <vector>

#include "planarmom/gpusolver/coo.hpp"

namespace pmom {

template <class T> struct Hyb {
  // Marks an unused ELL slot; kernels skip it (its value is zero as well).
  static constexpr index_t padding = -1;

  index_t rows = 0;
  index_t cols = 0;
  index_t ell_width = 0;
  std::vector<index_t> ell_col;  // rows * ell_width, slot k of row i at k * rows + i; a row
                                 // fills its first slots, padding only follows
  std::vector<T> ell_val;        // same layout as ell_col
  Coo<T> coo;                    // overflow entries, sorted by row

  [[nodiscard]] std::size_t nnz() const;
};

struct HybOptions {
  // Bell & Garland: ELL pays while a slot column is filled in at least 1/relative_speed of the
  // rows, since an ELL entry costs about a third of a COO entry.
  double relative_speed = 3.0;
  // Rows below which ELL is not worth a slot column at all (Bell & Garland use 4096 for their
  // GPUs; 0 keeps the ELL part for every size, which the tests rely on).
  index_t breakeven_rows = 0;
};

#define PMOM_DECLARE(T) extern template struct Hyb<T>;
PMOM_FOR_EACH_VALUE_TYPE(PMOM_DECLARE)
#undef PMOM_DECLARE

}  // namespace pmom
