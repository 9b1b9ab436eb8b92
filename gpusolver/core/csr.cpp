// Csr<T>::validate, the one place the CSR invariants every kernel relies on are checked.
#include "planarmom/gpusolver/csr.hpp"

#include <stdexcept>
#include <string>

namespace pmom {

namespace {

[[noreturn]] void fail(const std::string& what) {
  throw std::invalid_argument("invalid CSR matrix: " + what);
}

std::string str(std::size_t v) { return std::to_string(v); }
std::string str(index_t v) { return std::to_string(v); }

}  // namespace

template <class T> void Csr<T>::validate() const {
  if (rows < 0 || cols < 0) fail("negative dimensions " + str(rows) + " x " + str(cols));
  const auto expected_ptr = static_cast<std::size_t>(rows) + 1;
  if (row_ptr.size() != expected_ptr)
    fail("row_ptr has " + str(row_ptr.size()) + " entries, expected rows + 1 = " +
         str(expected_ptr));
  if (row_ptr.front() != 0) fail("row_ptr[0] is " + str(row_ptr.front()) + ", expected 0");
  for (index_t i = 0; i < rows; ++i)
    if (row_ptr[i + 1] < row_ptr[i])
      fail("row_ptr decreases at row " + str(i) + " (" + str(row_ptr[i]) + " then " +
           str(row_ptr[i + 1]) + ")");
  const auto end = static_cast<std::size_t>(row_ptr.back());
  if (col_idx.size() != end || values.size() != end)
    fail("row_ptr ends at " + str(end) + " but col_idx has " + str(col_idx.size()) +
         " and values " + str(values.size()) + " entries");
  for (index_t i = 0; i < rows; ++i) {
    for (index_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k) {
      const index_t j = col_idx[k];
      if (j < 0 || j >= cols)
        fail("column " + str(j) + " out of range [0, " + str(cols) + ") in row " + str(i));
      if (k > row_ptr[i] && j <= col_idx[k - 1])
        fail("columns not strictly increasing in row " + str(i) + " (" + str(col_idx[k - 1]) +
             " then " + str(j) + ")");
    }
  }
}

#define PMOM_INSTANTIATE(T) template struct Csr<T>;
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

}  // namespace pmom
