// A polygon's checks (Boost.Geometry's validity, with the crossing located for the message),
// its naming and the point-in-polygon test.
#include "planarmom/geometry/polygon.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "boost_geometry.hpp"
#include "format.hpp"
#include "planarmom/geometry/error.hpp"

namespace pmom::geometry {

using detail::num;

namespace {

std::string point_text(Point p) { return "(" + num(p.x) + ", " + num(p.y) + ")"; }

[[noreturn]] void fail(const Polygon& polygon, int index, const std::string& what) {
  throw GeometryError(describe_polygon(polygon, index) + " " + what, Item::polygon, index);
}

// The ring without repeated consecutive vertices (the closing one included).
std::vector<Point> distinct(const std::vector<Point>& ring) {
  std::vector<Point> out;
  for (const Point& p : ring)
    if (out.empty() || p.x != out.back().x || p.y != out.back().y) out.push_back(p);
  while (out.size() > 1 && out.front().x == out.back().x && out.front().y == out.back().y)
    out.pop_back();
  return out;
}

double cross(Point o, Point a, Point b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

// Whether segments ab and cd share a point (touching included).
bool segments_meet(Point a, Point b, Point c, Point d) {
  const double d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)))
    return true;
  const auto on = [](Point p, Point q, Point r) {  // r on segment pq, given collinear
    return std::min(p.x, q.x) <= r.x && r.x <= std::max(p.x, q.x) && std::min(p.y, q.y) <= r.y &&
           r.y <= std::max(p.y, q.y);
  };
  return (d1 == 0 && on(c, d, a)) || (d2 == 0 && on(c, d, b)) || (d3 == 0 && on(a, b, c)) ||
         (d4 == 0 && on(a, b, d));
}

// Two edges of the polygon that meet other than at their shared vertex, for the message.
std::optional<std::string> crossing(const Polygon& polygon) {
  struct Edge {
    Point a, b;
    std::size_t ring, k, n;
  };
  std::vector<Edge> edges;
  for (std::size_t r = 0; r < polygon.rings.size(); ++r) {
    const std::vector<Point> ring = distinct(polygon.rings[r]);
    for (std::size_t k = 0; k < ring.size(); ++k)
      edges.push_back({ring[k], ring[(k + 1) % ring.size()], r, k, ring.size()});
  }
  for (std::size_t e = 0; e < edges.size(); ++e) {
    for (std::size_t f = e + 1; f < edges.size(); ++f) {
      const Edge &p = edges[e], &q = edges[f];
      const bool adjacent = p.ring == q.ring && (q.k == p.k + 1 || (p.k == 0 && q.k + 1 == q.n));
      if (adjacent || !segments_meet(p.a, p.b, q.a, q.b)) continue;
      return "its edge from " + point_text(p.a) + " to " + point_text(p.b) + " meets the edge from " +
             point_text(q.a) + " to " + point_text(q.b) + " mm";
    }
  }
  return std::nullopt;
}

}  // namespace

std::string_view to_string(ShapeKind kind) {
  switch (kind) {
    case ShapeKind::polygon: return "polygon";
    case ShapeKind::path: return "path";
    case ShapeKind::circle: return "circle";
    case ShapeKind::arc: return "arc";
  }
  return "?";
}

std::string describe_polygon(const Polygon& polygon, int index) {
  std::string text = "polygon " + std::to_string(index);
  if (polygon.kind != ShapeKind::polygon) text += " (a " + std::string(to_string(polygon.kind)) + ")";
  if (polygon.rings.empty() || polygon.rings.front().empty()) return text;
  return text + " (" + std::to_string(polygon.rings.front().size()) + " vertices from " +
         point_text(polygon.rings.front().front()) + " mm)";
}

void validate_polygon(const Polygon& polygon, int index) {
  if (polygon.rings.empty()) fail(polygon, index, "has no vertices");
  for (const auto& ring : polygon.rings) {
    for (const Point& p : ring)
      if (!std::isfinite(p.x) || !std::isfinite(p.y)) fail(polygon, index, "has a non-finite coordinate");
    if (distinct(ring).size() < 3)
      fail(polygon, index, "has fewer than three distinct vertices: a polygon needs an area");
  }
  detail::BgPolygon shape = detail::to_boost(polygon);
  boost::geometry::correct(shape);
  std::string why;
  const bool valid = boost::geometry::is_valid(shape, why);
  // A crossing first: a symmetric bow tie's signed area is zero too.
  if (!valid)
    if (const auto where = crossing(polygon)) fail(polygon, index, "crosses itself: " + *where);
  if (std::abs(boost::geometry::area(shape)) <= 0.0) fail(polygon, index, "has zero area");
  if (!valid) fail(polygon, index, "is not a simple polygon: " + why);
}

bool contains(const Polygon& polygon, Point p) {
  bool inside = false;
  for (const auto& ring : polygon.rings) {
    for (std::size_t k = 0, n = ring.size(); k < n; ++k) {
      const Point a = ring[k], b = ring[(k + 1) % n];
      if ((a.y <= p.y) != (b.y <= p.y) && p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y))
        inside = !inside;
    }
  }
  return inside;
}

}  // namespace pmom::geometry
