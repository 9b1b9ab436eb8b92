// The size check of the dense input, shared by sparsify and the dense error check.
#include "dense_pairs.hpp"

#include <stdexcept>

namespace pmom::sparsify::detail {

void check_dense_input(std::span<const cplx> z, index_t n, const std::string& who) {
  if (n <= 0) throw std::invalid_argument(who + ": the matrix size n must be positive, got " +
                                          std::to_string(n));
  const auto expected = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  if (z.size() != expected)
    throw std::invalid_argument(who + ": n = " + std::to_string(n) + " needs n² = " +
                                std::to_string(expected) + " row-major values, got " +
                                std::to_string(z.size()));
}

}  // namespace pmom::sparsify::detail
