// A dense row-major matrix as a CSR holding every entry: what the preconditioner tests solve.
#pragma once

#include <utility>
#include <vector>

#include "planarmom/gpusolver/csr.hpp"

namespace pmom::test {

template <class T> Csr<T> dense_csr(std::vector<T> row_major, index_t n) {
  Csr<T> csr;
  csr.rows = csr.cols = n;
  for (index_t i = 0; i < n; ++i) {
    for (index_t j = 0; j < n; ++j) csr.col_idx.push_back(j);
    csr.row_ptr.push_back(static_cast<index_t>(csr.col_idx.size()));
  }
  csr.values = std::move(row_major);
  return csr;
}

}  // namespace pmom::test
