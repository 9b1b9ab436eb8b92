// The warning for polygons whose outline runs mostly at an angle to the grid: the staircase
// lengthens the current's path along such a trace, a first-order error that only a smaller
// cell reduces (docs/VALIDATION.md, "Slanted traces").
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "boost_geometry.hpp"
#include "format.hpp"
#include "mesh_detail.hpp"

namespace pmom::geometry::detail {

namespace {

// An edge along a grid axis (to a millionth of its length) has no steps.
bool slanted(Point a, Point b) {
  const double dx = std::abs(b.x - a.x), dy = std::abs(b.y - a.y);
  return std::min(dx, dy) > 1e-6 * std::hypot(dx, dy);
}

struct Outline {
  double area = 0, perimeter = 0, slanted = 0;  // mm², mm, mm
};

Outline outline_of(const Polygon& polygon) {
  BgPolygon shape = to_boost(polygon);
  boost::geometry::correct(shape);
  Outline o{boost::geometry::area(shape),
            static_cast<double>(boost::geometry::perimeter(shape)), 0};  // a long double
  for (const auto& ring : polygon.rings) {
    for (std::size_t k = 0; k < ring.size(); ++k) {
      const Point a = ring[k], b = ring[(k + 1) % ring.size()];
      if (slanted(a, b)) o.slanted += std::hypot(b.x - a.x, b.y - a.y);
    }
  }
  return o;
}

// The staircase's excess effective permittivity on a 45-degree trace times its width in cells
// (first order in the cell; measured in docs/VALIDATION.md, "Slanted traces").
constexpr double kStaircaseExcess = 0.53;

}  // namespace

std::vector<std::string> staircase_warnings(const Layout& layout, const Grid& grid) {
  std::vector<std::string> warnings;
  const double cell = std::min(grid.dx_mm, grid.dy_mm);
  for (std::size_t p = 0; p < layout.polygons.size(); ++p) {
    const Outline o = outline_of(layout.polygons[p]);
    if (o.slanted < 0.25 * o.perimeter) continue;  // a mitre's cut, a taper's ends: local
    // A long trace's width is twice its area over its perimeter (a ring's, a path's).
    const double across = 2 * o.area / o.perimeter / cell;
    const double excess = kStaircaseExcess / across;
    if (excess < 0.01) continue;
    warnings.push_back(
        describe_polygon(layout.polygons[p], static_cast<int>(p)) +
        " runs at an angle to the grid, " + num(std::round(across * 10) / 10) + " cells of " +
        cell_text(grid.cell()) + " mm across: its staircase lengthens the current's path, so "
        "it is electrically long (a 45-degree stretch by about " +
        num(std::round(excess * 1000) / 10) + "% in effective permittivity, halving as the cell "
        "halves; docs/VALIDATION.md, \"Slanted traces\"); use a smaller cell");
  }
  return warnings;
}

}  // namespace pmom::geometry::detail
