// Metal of any outline: a polygon (possibly with holes), and the drawing shapes that become one
// (a path of a width, a circle, an arc of a width). The mesh staircases them on its uniform grid
// (a cell is metal when its centre lies inside), so the FFT operator keeps its grid.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "planarmom/geometry/named.hpp"

namespace pmom::geometry {

struct Point {
  double x = 0, y = 0;  // mm
};

// How the user drew a polygon: errors and the log name it by this and its index.
enum class ShapeKind { polygon, path, circle, arc };
[[nodiscard]] std::string_view to_string(ShapeKind kind);

// How a path ends: flush at its end points, extended by half its width, or round.
enum class PathEnds { flush, extended, round };
inline constexpr Named<PathEnds> kPathEndsNames[] = {
    {"flush", PathEnds::flush}, {"extended", PathEnds::extended}, {"round", PathEnds::round}};

// A region bounded by closed rings (no vertex repeated at the end), filled by the even-odd rule:
// the first ring is the outline, the others its holes (an annulus is two rings).
struct Polygon {
  std::vector<std::vector<Point>> rings;
  ShapeKind kind = ShapeKind::polygon;
  int layer = 0;  // the interface it lies on (layout.hpp's Rect::layer)
};

// "polygon 2 (5 vertices from (1, 2) mm)", the way errors name a polygon of the layout.
[[nodiscard]] std::string describe_polygon(const Polygon& polygon, int index);

// Throws GeometryError (Item::polygon, index) when a ring has a non-finite coordinate or fewer
// than three distinct vertices, the polygon has no area, crosses itself, or a hole is not
// inside the outline.
void validate_polygon(const Polygon& polygon, int index);

// Whether p lies inside (even-odd over all rings; a point on an edge may go either way).
[[nodiscard]] bool contains(const Polygon& polygon, Point p);

// The metal of a path of `width_mm` along `points` (mitred joints): one polygon, or several
// where the path crosses itself. Throws GeometryError (Item::polygon, index) for fewer than two
// distinct points or a width that is not positive.
[[nodiscard]] std::vector<Polygon> path_outline(const std::vector<Point>& points, double width_mm,
                                                PathEnds ends, int index);
// A disc of `radius_mm`, as a polygon of kCircleSegments sides whose vertices lie on the circle.
[[nodiscard]] Polygon circle_outline(Point centre, double radius_mm);
// A curved trace of `width_mm` whose centre line is the arc of `radius_mm` from start_deg to
// stop_deg (counter-clockwise from +x); a sweep of 360° or more is the full ring (an annulus).
// Throws GeometryError (Item::polygon, index) when the width is not below twice the radius.
[[nodiscard]] Polygon arc_outline(Point centre, double radius_mm, double width_mm,
                                  double start_deg, double stop_deg, int index);
// Sides of a full circle: its vertices' chords stray from the circle by 7.5e-5 of the radius.
inline constexpr int kCircleSegments = 256;

}  // namespace pmom::geometry
