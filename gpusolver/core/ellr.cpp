// Conversion to ELLPACK-R and the explicit instantiations of its storage.
#include "planarmom/gpusolver/ellr.hpp"

#include <algorithm>
#include <numeric>

namespace pmom {

template <class T> std::size_t Ellr<T>::nnz() const {
  return static_cast<std::size_t>(
      std::accumulate(row_length.begin(), row_length.end(), std::int64_t{0}));
}

template <class T> Ellr<T> to_ellr(const Csr<T>& a) {
  Ellr<T> e;
  e.rows = a.rows;
  e.cols = a.cols;
  e.row_length.resize(static_cast<std::size_t>(a.rows));
  for (index_t i = 0; i < a.rows; ++i) {
    e.row_length[i] = a.row_length(i);
    e.width = std::max(e.width, e.row_length[i]);
  }
  const std::size_t slots = static_cast<std::size_t>(a.rows) * static_cast<std::size_t>(e.width);
  e.col.assign(slots, Ellr<T>::padding);
  e.values.assign(slots, T(0));
  for (index_t i = 0; i < a.rows; ++i) {
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const std::size_t at = static_cast<std::size_t>(k - a.row_ptr[i]) * a.rows + i;
      e.col[at] = a.col_idx[k];
      e.values[at] = a.values[k];
    }
  }
  return e;
}

#define PMOM_INSTANTIATE(T) template struct Ellr<T>; \
 template Ellr<T> to_ellr(const Csr<T>&);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

}  // namespace pmom
