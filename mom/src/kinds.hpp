// The kind codes of the offset tables (assembly.hpp) and the shapes they stand for: a rooftop
// kind is 9·minus + 3·plus + across, a charge kind 3·(edge along x) + (edge along y), each edge
// 0 none, 1 low, 2 high.
#pragma once

#include "planarmom/mom/assembly.hpp"

namespace pmom::mom {

inline geometry::Edge edge_of(int code) { return static_cast<geometry::Edge>(code); }

inline RooftopShape rooftop_shape(int kind) {
  return {edge_of(kind / 9), edge_of(kind / 3 % 3), edge_of(kind % 3)};
}
inline CellProfile cell_profile(int kind) { return {edge_of(kind / 3), edge_of(kind % 3)}; }

inline int rooftop_kind(const RooftopShape& r) {
  return 9 * static_cast<int>(r.minus) + 3 * static_cast<int>(r.plus) + static_cast<int>(r.across);
}
inline int charge_kind(geometry::Edge x, geometry::Edge y) {
  return 3 * static_cast<int>(x) + static_cast<int>(y);
}

}  // namespace pmom::mom
