// Staircasing a polygon on the grid: a cell is metal when its centre lies inside (the even-odd
// rule of contains(), row by row: a centre exactly on an edge may go either way).
#include <algorithm>
#include <cmath>

#include "mesh_detail.hpp"

namespace pmom::geometry::detail {

int fill_polygon(const Grid& grid, const Polygon& polygon, std::vector<std::uint8_t>& metal) {
  int filled = 0;
  std::vector<double> xs;
  for (int j = 0; j < grid.ny; ++j) {
    const double yc = grid.y_line(j) + 0.5 * grid.dy_mm;
    xs.clear();
    for (const auto& ring : polygon.rings) {
      for (std::size_t k = 0, n = ring.size(); k < n; ++k) {
        const Point a = ring[k], b = ring[(k + 1) % n];
        if ((a.y <= yc) != (b.y <= yc)) xs.push_back(a.x + (yc - a.y) * (b.x - a.x) / (b.y - a.y));
      }
    }
    std::sort(xs.begin(), xs.end());
    // Closed rings cross a row an even number of times; a centre xc is inside when an odd number
    // of crossings lie beyond it: xs[2m] <= xc < xs[2m + 1].
    for (std::size_t m = 0; m + 1 < xs.size(); m += 2) {
      const auto first = [&](double x) {  // the first cell whose centre is at or beyond x
        return std::clamp(static_cast<int>(std::ceil((x - grid.x0) / grid.dx_mm - 0.5)), 0, grid.nx);
      };
      const int i0 = first(xs[m]), i1 = first(xs[m + 1]);
      for (int i = i0; i < i1; ++i) {
        std::uint8_t& cell = metal[static_cast<std::size_t>(j) * static_cast<std::size_t>(grid.nx) +
                                   static_cast<std::size_t>(i)];
        cell = 1;
        ++filled;
      }
    }
  }
  return filled;
}

}  // namespace pmom::geometry::detail
