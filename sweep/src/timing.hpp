// The sweep's stage timer: seconds on the steady clock since a start.
#pragma once

#include <chrono>

namespace pmom::sweep {

using clock = std::chrono::steady_clock;

inline double seconds_since(clock::time_point start) {
  return std::chrono::duration<double>(clock::now() - start).count();
}

}  // namespace pmom::sweep
