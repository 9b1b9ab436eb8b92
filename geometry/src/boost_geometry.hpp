// The polygon types of Boost.Geometry that the geometry module hands its checks and path
// outlines to, and the conversions from and to its own Polygon.
#pragma once

#include <boost/geometry.hpp>
#include <boost/geometry/geometries/multi_polygon.hpp>
#include <boost/geometry/geometries/point_xy.hpp>
#include <boost/geometry/geometries/polygon.hpp>

#include "planarmom/geometry/polygon.hpp"

namespace pmom::geometry::detail {

using BgPoint = boost::geometry::model::d2::point_xy<double>;
using BgPolygon = boost::geometry::model::polygon<BgPoint>;  // clockwise, closed
using BgMultiPolygon = boost::geometry::model::multi_polygon<BgPolygon>;

// The rings as drawn (the first the outline, the others holes), each closed; orientation as
// given (boost::geometry::correct fixes it).
inline BgPolygon to_boost(const Polygon& polygon) {
  BgPolygon out;
  for (std::size_t r = 0; r < polygon.rings.size(); ++r) {
    auto& ring = r == 0 ? out.outer() : out.inners().emplace_back();
    for (const Point& p : polygon.rings[r]) ring.emplace_back(p.x, p.y);
    if (!polygon.rings[r].empty()) ring.emplace_back(polygon.rings[r].front().x, polygon.rings[r].front().y);
  }
  return out;
}

// Each polygon's rings, without the closing vertex.
inline std::vector<Polygon> from_boost(const BgMultiPolygon& shapes, ShapeKind kind) {
  std::vector<Polygon> out;
  const auto ring_points = [](const auto& ring) {
    std::vector<Point> points;
    for (std::size_t k = 0; k + 1 < ring.size(); ++k) points.push_back({ring[k].x(), ring[k].y()});
    return points;
  };
  for (const BgPolygon& shape : shapes) {
    Polygon& p = out.emplace_back();
    p.kind = kind;
    p.rings.push_back(ring_points(shape.outer()));
    for (const auto& inner : shape.inners()) p.rings.push_back(ring_points(inner));
  }
  return out;
}

}  // namespace pmom::geometry::detail
