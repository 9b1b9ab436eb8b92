// Hyb<T>::nnz and the explicit instantiations of the HYB storage.
#include "planarmom/gpusolver/hyb.hpp"

#include <algorithm>

namespace pmom {

template <class T> std::size_t Hyb<T>::nnz() const {
  const auto used = std::count_if(ell_col.begin(), ell_col.end(),
                                  [](index_t j) { return j != padding; });
  return static_cast<std::size_t>(used) + coo.nnz();
}

template struct Hyb<double>;
template struct Hyb<std::complex<double>>;

}  // namespace pmom
