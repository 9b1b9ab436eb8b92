// Dense (Eigen) matrices into a backend's blocks and back, for tests that check a backend's
// kernels against a reference computed on the host.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "planarmom/gpusolver/backend.hpp"
#include "support/random_matrix.hpp"

namespace pmom::test {

// A copy of h in backend memory.
template <class T, class U> Block<U> put(Backend<T>& be, const Dense<U>& h) {
  auto b = be.template allocate<U>(static_cast<index_t>(h.rows()), static_cast<index_t>(h.cols()));
  be.upload(std::span<const U>(h.data(), static_cast<std::size_t>(h.size())), b);
  return b;
}

// A copy of v in backend memory, one column (indices, weights: any value type).
template <class T, class U> Block<U> put(Backend<T>& be, const std::vector<U>& v) {
  auto b = be.template allocate<U>(static_cast<index_t>(v.size()), 1);
  be.upload(std::span<const U>(v), b);
  return b;
}

// A block's values on the host.
template <class T, class U> Dense<U> get(Backend<T>& be, const Block<U>& b) {
  const std::vector<U> v = be.download(b);
  return Eigen::Map<const Dense<U>>(v.data(), b.rows(), b.cols());
}

}  // namespace pmom::test
