// The one message of host_lu.hpp's two implementations for a singular matrix.
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>

namespace pmom::cpu {

inline void check_reciprocal_condition(double rcond, const char* who) {
  if (!(rcond > 0) || !std::isfinite(rcond))
    throw std::runtime_error(std::string(who) + ": the matrix is singular (reciprocal condition "
                             "number estimate " + std::to_string(rcond) + ")");
}

}  // namespace pmom::cpu
