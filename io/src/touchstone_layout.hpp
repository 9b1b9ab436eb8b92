// The order of S-parameters in a Touchstone 1.1 frequency point, shared by writer and reader.
#pragma once

#include <cstddef>

namespace pmom::io::touchstone_layout {

// A line holds at most this many complex pairs (files with 3 or more ports).
inline constexpr std::size_t kPairsPerLine = 4;

// Row-major index of the k-th pair of a point. Two-port files list S11 S21 S12 S22, column by
// column (a historical exception of the format); every other size lists rows in order.
constexpr std::size_t matrix_index(std::size_t k, std::size_t ports) {
  return ports == 2 ? (k % 2) * 2 + k / 2 : k;
}

// Whether the k-th pair starts a new line: each row of a 3-or-more-port matrix starts on a new
// line and wraps after kPairsPerLine pairs; 1- and 2-port points stay on one line.
constexpr bool starts_line(std::size_t k, std::size_t ports) {
  return ports >= 3 && k > 0 && (k % ports) % kPairsPerLine == 0;
}

}  // namespace pmom::io::touchstone_layout
