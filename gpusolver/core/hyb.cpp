// Hyb<T>::nnz and the explicit instantiations of the HYB storage.
#include "planarmom/gpusolver/hyb.hpp"

#include <algorithm>

namespace pmom {

template <class T> std::size_t Hyb<T>::nnz() const {
  const auto used = std::count_if(ell_col.begin(), ell_col.end(),
                                  [](index_t j) { return j != padding; });
  return static_cast<std::size_t>(used) + coo.nnz();
}

#define PMOM_INSTANTIATE(T) template struct Hyb<T>;
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

}  // namespace pmom
