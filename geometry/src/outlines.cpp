// The outlines of the drawing shapes that are not drawn as polygons: a path of a width
// (Boost.Geometry's buffer of its centre line, mitred), a circle and an arc of a width.
#include <algorithm>
#include <cmath>
#include <numbers>

#include <boost/geometry/geometries/linestring.hpp>

#include "boost_geometry.hpp"
#include "format.hpp"
#include "planarmom/geometry/error.hpp"

namespace pmom::geometry {

namespace bg = boost::geometry;
namespace buffer = boost::geometry::strategy::buffer;
using detail::num;

namespace {

// Points on the circle of `radius` about `centre` from angle a to b (radians), `segments`
// chords, both ends included.
std::vector<Point> arc_points(Point centre, double radius, double a, double b, int segments) {
  std::vector<Point> points;
  for (int k = 0; k <= segments; ++k) {
    const double t = a + (b - a) * k / segments;
    points.push_back({centre.x + radius * std::cos(t), centre.y + radius * std::sin(t)});
  }
  return points;
}

int segments_for(double sweep_rad) {
  return std::max(8, static_cast<int>(std::ceil(kCircleSegments * sweep_rad / (2 * std::numbers::pi))));
}

}  // namespace

std::vector<Polygon> path_outline(const std::vector<Point>& points, double width_mm,
                                  PathEnds ends, int index) {
  const auto fail = [&](const std::string& what) {
    throw GeometryError("polygon " + std::to_string(index) + " (a path) " + what, Item::polygon,
                        index);
  };
  if (!(width_mm > 0) || !std::isfinite(width_mm)) fail("needs a width > 0 mm, got " + num(width_mm));
  bg::model::linestring<detail::BgPoint> line;
  for (const Point& p : points) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) fail("has a non-finite coordinate");
    if (line.empty() || p.x != line.back().x() || p.y != line.back().y()) line.emplace_back(p.x, p.y);
  }
  if (line.size() < 2) fail("needs at least two distinct points");
  const double half = 0.5 * width_mm;
  if (ends == PathEnds::extended) {  // each end half a width further along its segment
    const auto extend = [half](detail::BgPoint& end, const detail::BgPoint& next) {
      const double dx = end.x() - next.x(), dy = end.y() - next.y(), length = std::hypot(dx, dy);
      end = {end.x() + half * dx / length, end.y() + half * dy / length};
    };
    extend(line.front(), line[1]);
    extend(line.back(), line[line.size() - 2]);
  }
  detail::BgMultiPolygon out;
  const buffer::distance_symmetric<double> distance(half);
  if (ends == PathEnds::round) {
    bg::buffer(line, out, distance, buffer::side_straight(), buffer::join_miter(),
               buffer::end_round(kCircleSegments), buffer::point_circle(kCircleSegments));
  } else {
    bg::buffer(line, out, distance, buffer::side_straight(), buffer::join_miter(),
               buffer::end_flat(), buffer::point_square());
  }
  if (out.empty()) fail("has no area");
  return detail::from_boost(out, ShapeKind::path);
}

Polygon circle_outline(Point centre, double radius_mm) {
  std::vector<Point> ring = arc_points(centre, radius_mm, 0, 2 * std::numbers::pi, kCircleSegments);
  ring.pop_back();  // the first again
  return {{ring}, ShapeKind::circle};
}

Polygon arc_outline(Point centre, double radius_mm, double width_mm, double start_deg,
                    double stop_deg, int index) {
  const auto fail = [&](const std::string& what) {
    throw GeometryError("polygon " + std::to_string(index) + " (an arc) " + what, Item::polygon,
                        index);
  };
  if (!(width_mm > 0) || !std::isfinite(width_mm)) fail("needs a width > 0 mm, got " + num(width_mm));
  if (!(width_mm < 2 * radius_mm))
    fail("is " + num(width_mm) + " mm wide, not less than twice its radius of " + num(radius_mm) +
         " mm (a disc is a circle)");
  if (!std::isfinite(start_deg) || !std::isfinite(stop_deg) || !(stop_deg > start_deg))
    fail("needs stop_deg > start_deg, got " + num(start_deg) + " and " + num(stop_deg));
  const double outer = radius_mm + 0.5 * width_mm, inner = radius_mm - 0.5 * width_mm;
  if (stop_deg - start_deg >= 360) {
    Polygon ring = circle_outline(centre, outer);
    ring.rings.push_back(circle_outline(centre, inner).rings.front());
    ring.kind = ShapeKind::arc;
    return ring;
  }
  const double a = start_deg * std::numbers::pi / 180, b = stop_deg * std::numbers::pi / 180;
  const int segments = segments_for(b - a);
  std::vector<Point> ring = arc_points(centre, outer, a, b, segments);
  const std::vector<Point> back = arc_points(centre, inner, b, a, segments);
  ring.insert(ring.end(), back.begin(), back.end());
  return {{ring}, ShapeKind::arc};
}

}  // namespace pmom::geometry
