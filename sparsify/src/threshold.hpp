// Resolving a ThresholdPolicy to the threshold t on pair magnitudes (rules in sparsify.hpp).
#pragma once

#include "dense_pairs.hpp"
#include "planarmom/sparsify/sparsify.hpp"

namespace pmom::sparsify::detail {

// Throws std::invalid_argument naming the policy and the range its value must lie in.
void check_policy(const ThresholdPolicy& policy);

// z must have passed check_dense_input and hold finite values only.
double resolve_threshold(std::span<const cplx> z, index_t n, const ThresholdPolicy& policy);

}  // namespace pmom::sparsify::detail
