// The compile-time lane counts of the row kernels (a row summed by TPR lanes of a warp),
// shared by the SpMV and the relaxation sweeps.
#pragma once

#include <type_traits>

namespace pmom::cuda {

// Calls f(std::integral_constant<int, TPR>) for a lanes-per-row count: 2, 4, 8, 16, and 32
// for anything else (the SpMV handles its 128-lane groups before calling this).
template <class F> void with_tpr(int tpr, F&& f) {
  switch (tpr) {
    case 2: f(std::integral_constant<int, 2>{}); break;
    case 4: f(std::integral_constant<int, 4>{}); break;
    case 8: f(std::integral_constant<int, 8>{}); break;
    case 16: f(std::integral_constant<int, 16>{}); break;
    default: f(std::integral_constant<int, 32>{}); break;
  }
}

}  // namespace pmom::cuda
