// Coordinate (triplet) storage: the exchange format between readers, generators and the
// compressed formats. Entries may be in any order; duplicates are summed when compressing.
#pragma once

#include <vector>

#include "planarmom/gpusolver/scalar.hpp"

namespace pmom {

template <class T> struct Coo {
  index_t rows = 0;
  index_t cols = 0;
  std::vector<index_t> row_idx;
  std::vector<index_t> col_idx;
  std::vector<T> values;

  [[nodiscard]] std::size_t nnz() const { return values.size(); }
  void push_back(index_t i, index_t j, T v) {
    row_idx.push_back(i);
    col_idx.push_back(j);
    values.push_back(v);
  }
};

}  // namespace pmom
