// The largest cell size that puts every rectangle edge on a grid line.
#include <algorithm>
#include <cmath>

#include "format.hpp"
#include "planarmom/geometry/cell_size.hpp"
#include "planarmom/geometry/error.hpp"

namespace pmom::geometry {

double largest_dividing_cell(const std::vector<Rect>& rects, double max_cell_mm) {
  if (!(max_cell_mm > 0.0) || !std::isfinite(max_cell_mm)) {
    throw GeometryError("the maximum cell size must be > 0 mm, got " + detail::num(max_cell_mm),
                        Item::mesh);
  }
  if (rects.empty()) throw GeometryError("the layout has no rectangles");
  double ox = rects.front().x0, oy = rects.front().y0;
  for (const auto& r : rects) {
    ox = std::min(ox, r.x0);
    oy = std::min(oy, r.y0);
  }
  std::vector<double> offsets;
  for (const auto& r : rects) {
    for (const double d : {r.x0 - ox, r.x1 - ox, r.y0 - oy, r.y1 - oy}) {
      if (d > kGridToleranceMm) offsets.push_back(d);
    }
  }
  // Any dividing cell divides the smallest offset, so it is smallest / n for an integer n;
  // the first n whose cell fits under the maximum and divides the rest gives the largest.
  const double smallest = *std::min_element(offsets.begin(), offsets.end());
  const double n_first = std::max(1.0, std::ceil(smallest / max_cell_mm - 1e-12));
  constexpr double kMaxRefinement = 1e3;  // finer cells would make N absurd anyway
  for (double n = n_first; n <= n_first * kMaxRefinement; n += 1.0) {
    const double cell = smallest / n;
    if (cell > max_cell_mm) continue;  // rounding in n_first
    const bool divides = std::all_of(offsets.begin(), offsets.end(), [&](double d) {
      return std::abs(d - cell * std::round(d / cell)) <= kGridToleranceMm;
    });
    if (divides) return cell;
  }
  throw GeometryError("no cell size between " + detail::num(max_cell_mm / kMaxRefinement) +
                      " and " + detail::num(max_cell_mm) +
                      " mm puts every rectangle edge on the grid", Item::mesh);
}

}  // namespace pmom::geometry
