// Polygons, paths, circles and arcs: their outlines, their staircase on the grid (a cell is
// metal when its centre lies inside) converging as the cell shrinks, a rectangle drawn as a
// polygon meshing exactly as the rectangle, and bad polygons named in one line at their line.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "geometry/layouts.hpp"
#include "planarmom/geometry/config_yaml.hpp"
#include "planarmom/geometry/mesh.hpp"
#include "planarmom/geometry/polygon.hpp"
#include "planarmom/geometry/svg.hpp"

namespace pmom::geometry {
namespace {

using test::expect_error;
using test::layout_of;
using test::port;

Polygon polygon_of(std::vector<Point> ring) { return {{std::move(ring)}, ShapeKind::polygon}; }

// The outline's area less its holes'.
double area(const Polygon& p) {
  double total = 0;
  for (std::size_t r = 0; r < p.rings.size(); ++r) {
    const auto& ring = p.rings[r];
    double twice = 0;
    for (std::size_t k = 0; k < ring.size(); ++k) {
      const Point a = ring[k], b = ring[(k + 1) % ring.size()];
      twice += a.x * b.y - b.x * a.y;
    }
    total += (r == 0 ? 0.5 : -0.5) * std::abs(twice);
  }
  return total;
}

double metal_area(const Mesh& mesh) {
  return mesh.metal_cell_count() * mesh.grid().dx_mm * mesh.grid().dy_mm;
}

// A rectangle drawn as a polygon (either orientation, any starting vertex) gives the very mesh
// the rectangle does: the same grid, cells, rooftops and ports.
TEST(Polygons, RectangleAsPolygonMeshesAsTheRectangle) {
  const std::vector<Port> ports = {port("P1", 0, 0.6, Direction::pos_x, 4),
                                   port("P2", 12, 0.6, Direction::neg_x, 4)};
  const Mesh rect = make_mesh(layout_of({{0, 0, 12, 1.2}, {5.6, 1.2, 6.4, 4}}, ports), 0.2);
  for (const bool clockwise : {false, true}) {
    Layout drawn = layout_of({}, ports);
    std::vector<Point> line{{12, 0}, {12, 1.2}, {0, 1.2}, {0, 0}};
    std::vector<Point> stub{{5.6, 1.2}, {6.4, 1.2}, {6.4, 4}, {5.6, 4}};
    if (clockwise) {
      std::reverse(line.begin(), line.end());
      std::reverse(stub.begin(), stub.end());
    }
    drawn.polygons = {polygon_of(line), polygon_of(stub)};
    const Mesh poly = make_mesh(drawn, 0.2);
    ASSERT_EQ(poly.grid().nx, rect.grid().nx);
    ASSERT_EQ(poly.grid().ny, rect.grid().ny);
    EXPECT_EQ(poly.grid().x0, rect.grid().x0);
    EXPECT_EQ(poly.grid().y0, rect.grid().y0);
    for (int j = 0; j < rect.grid().ny; ++j)
      for (int i = 0; i < rect.grid().nx; ++i)
        ASSERT_EQ(poly.is_metal({i, j}), rect.is_metal({i, j})) << i << ", " << j;
    ASSERT_EQ(poly.basis().size(), rect.basis().size());
    for (std::size_t k = 0; k < rect.basis().size(); ++k) {
      EXPECT_EQ(poly.basis()[k].centre.x, rect.basis()[k].centre.x);
      EXPECT_EQ(poly.basis()[k].centre.y, rect.basis()[k].centre.y);
      EXPECT_EQ(poly.basis()[k].across, rect.basis()[k].across);
    }
    ASSERT_EQ(poly.ports().size(), 2u);
    EXPECT_EQ(poly.ports()[1].line, rect.ports()[1].line);
    EXPECT_EQ(poly.ports()[1].samples.size(), rect.ports()[1].samples.size());
  }
}

// The staircase's area error falls as the cell shrinks: a disc of radius 3 mm and a 45° mitred
// bend, each cell halved twice. A staircase of a curved or slanted edge misplaces at most half
// a cell along the edge, so |error| <= perimeter * cell / 2, and on average much less; the
// bound is what is asserted, and that the error at the finest cell is below the coarsest's.
TEST(Polygons, StaircaseAreaConvergesAsTheCellShrinks) {
  const double r = 3.0;
  Layout disc = layout_of({});
  disc.polygons = {circle_outline({10, 10}, r)};
  EXPECT_NEAR(area(disc.polygons[0]), std::numbers::pi * r * r, 2e-4 * std::numbers::pi * r * r);
  Layout bend = layout_of({});
  // A 1.2 mm strip along x turning up along y, its outer corner cut at 45°.
  bend.polygons = {polygon_of({{0, 0}, {6, 0}, {7.2, 1.2}, {7.2, 8}, {6, 8}, {6, 1.2}, {0, 1.2}})};
  for (const Layout* layout : {&disc, &bend}) {
    const Polygon& p = layout->polygons[0];
    double perimeter = 0;
    for (std::size_t k = 0; k < p.rings[0].size(); ++k) {
      const Point a = p.rings[0][k], b = p.rings[0][(k + 1) % p.rings[0].size()];
      perimeter += std::hypot(b.x - a.x, b.y - a.y);
    }
    double first = 0, last = 0;
    for (const double cell : {0.4, 0.2, 0.1}) {
      const double error = std::abs(metal_area(make_mesh(*layout, cell)) - area(p));
      EXPECT_LE(error, 0.5 * perimeter * cell) << "cell " << cell;
      (cell == 0.4 ? first : last) = error;
    }
    EXPECT_LT(last, first);
  }
}

TEST(Polygons, PathsCirclesAndArcsHaveTheirAreas) {
  // A path along x then up: two segments 0.8 mm wide, mitred at the joint (the square corner).
  // Boost.Geometry's buffer places its joints to ~1e-7 mm: the areas to 1e-6 mm².
  const std::vector<Polygon> l = path_outline({{0, 0}, {5, 0}, {5, 4}}, 0.8, PathEnds::flush, 0);
  ASSERT_EQ(l.size(), 1u);
  EXPECT_NEAR(area(l[0]), 0.8 * 5 + 0.8 * 4, 1e-6);
  const auto ext = path_outline({{0, 0}, {3, 4}}, 1.0, PathEnds::extended, 0);
  EXPECT_NEAR(area(ext[0]), 1.0 * 6, 1e-6);  // 5 mm long plus half a width at each end
  const Polygon ring = arc_outline({0, 0}, 5, 1, 0, 360, 0);
  ASSERT_EQ(ring.rings.size(), 2u);  // an annulus: outline and hole
  const double exact = std::numbers::pi * (5.5 * 5.5 - 4.5 * 4.5);
  EXPECT_NEAR(area(ring), exact, 2e-4 * exact);
  const Polygon quarter = arc_outline({0, 0}, 5, 1, 0, 90, 0);
  EXPECT_NEAR(area(quarter), exact / 4, 2e-4 * exact);
  // The annulus meshes with its hole empty.
  Layout layout = layout_of({});
  layout.polygons = {ring};
  const Mesh mesh = make_mesh(layout, 0.25);
  const Cell centre{static_cast<int>(std::floor((0 - mesh.grid().x0) / 0.25)),
                    static_cast<int>(std::floor((0 - mesh.grid().y0) / 0.25))};
  EXPECT_FALSE(mesh.is_metal(centre));
  EXPECT_NEAR(metal_area(mesh), exact, 0.05 * exact);
}

TEST(Polygons, BadPolygonsAreNamed) {
  expect_error<GeometryError>([] { validate_polygon(polygon_of({{0, 0}, {1, 0}}), 2); },
                              "polygon 2 (2 vertices from (0, 0) mm) has fewer than three "
                              "distinct vertices");
  expect_error<GeometryError>(
      [] { validate_polygon(polygon_of({{0, 0}, {1, 0}, {1, 0}, {0, 0}}), 0); },
      "has fewer than three distinct vertices");
  expect_error<GeometryError>([] { validate_polygon(polygon_of({{0, 0}, {1, 0}, {2, 0}}), 1); },
                              "polygon 1 (3 vertices from (0, 0) mm) has zero area");
  expect_error<GeometryError>(
      [] { validate_polygon(polygon_of({{0, 0}, {2, 2}, {2, 0}, {0, 2}}), 3); },
      "polygon 3 (4 vertices from (0, 0) mm) crosses itself: its edge from (0, 0) to (2, 2) "
      "meets the edge from (2, 0) to (0, 2) mm");
  expect_error<GeometryError>(
      [] { validate_polygon(polygon_of({{0, 0}, {1, 0}, {1, std::nan("")}}), 0); },
      "has a non-finite coordinate");
  expect_error<GeometryError>([] { (void)arc_outline({0, 0}, 1, 2, 0, 90, 4); },
                              "polygon 4 (an arc) is 2 mm wide, not less than twice its radius");
  expect_error<GeometryError>([] { (void)path_outline({{1, 1}, {1, 1}}, 0.5, PathEnds::flush, 0); },
                              "polygon 0 (a path) needs at least two distinct points");
  // Narrower than a cell: no cell centre inside.
  Layout thin = layout_of({{0, 0, 4, 1}});
  thin.polygons = {polygon_of({{1, 1}, {1.05, 1}, {1.05, 3}, {1, 3}})};
  expect_error<GeometryError>([&] { (void)make_mesh(thin, 0.5); },
                              "polygon 0 (4 vertices from (1, 1) mm) covers no cell centre of "
                              "the 0.5 mm grid: it is narrower than a cell");
}

bool has_warning(const Mesh& mesh, const std::string& text) {
  return std::any_of(mesh.warnings().begin(), mesh.warnings().end(),
                     [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

// A 45° trace one cell wide staircases into cells touching only at corners: one warning for it.
TEST(Polygons, ATraceTooNarrowForTheCellIsAWarning) {
  Layout layout = layout_of({});
  layout.polygons = path_outline({{0, 0}, {5, 5}}, 0.5, PathEnds::flush, 0);
  const Mesh mesh = make_mesh(layout, 0.5);
  const auto corner = std::count_if(mesh.warnings().begin(), mesh.warnings().end(), [](auto& w) {
    return w.find("polygon 0 is staircased into pieces that touch only at a corner") !=
           std::string::npos;
  });
  EXPECT_EQ(corner, 1);
  EXPECT_FALSE(has_warning(make_mesh(layout, 0.1), "touch only at a corner"));
}

// Traces that run at an angle are staircased into an electrically longer path (a first-order
// error measured in docs/VALIDATION.md "Slanted traces"): a warning naming the polygon, its width in
// cells and the measured 45° excess (0.53 / cells across), until that is below 1% (53 across).
// A mitre's cut or a rectangle is no such trace.
TEST(Polygons, ASlantedTraceOnFewCellsIsAWarning) {
  Layout diagonal = layout_of({});
  diagonal.polygons = path_outline({{0, 0}, {20, 20}}, 1.2, PathEnds::flush, 0);
  const Mesh coarse = make_mesh(diagonal, 0.2);
  // 2A/P = 2·(28.28·1.2)/(2·28.28 + 2·1.2) = 1.151 mm: 5.8 cells across, 0.53/5.76 = 9.2%.
  ASSERT_EQ(coarse.warnings().size(), 1u);
  EXPECT_TRUE(has_warning(coarse, "polygon 0 (")) << coarse.warnings()[0];
  EXPECT_TRUE(has_warning(coarse, "5.8 cells of 0.2 mm across")) << coarse.warnings()[0];
  EXPECT_TRUE(has_warning(coarse, "about 9.2% in effective permittivity"))
      << coarse.warnings()[0];
  EXPECT_TRUE(make_mesh(diagonal, 0.02).warnings().empty());  // 58 across: 0.9%
  Layout ring = layout_of({});
  ring.polygons = {arc_outline({0, 0}, 14.8, 0.644, 0, 360, 0)};
  EXPECT_TRUE(has_warning(make_mesh(ring, 0.2), "3.2 cells of 0.2 mm across"));
  Layout bend = layout_of({});
  bend.polygons = {polygon_of({{0, 0}, {6, 0}, {7.2, 1.2}, {7.2, 8}, {6, 8}, {6, 1.2}, {0, 1.2}})};
  EXPECT_TRUE(make_mesh(bend, 0.4).warnings().empty());
  Layout square = layout_of({});
  square.polygons = {polygon_of({{0, 0}, {5, 0}, {5, 1.2}, {0, 1.2}})};
  EXPECT_TRUE(make_mesh(square, 0.4).warnings().empty());
}

const std::string kShapes = R"(substrate: {eps_r: 3.38, height_mm: 0.508}
metal: {pec: true}
layout:
  - {x0: 0, y0: 0, x1: 10, y1: 1.2}
  - {polygon: [[10, 0], [11.2, 0], [11.2, 1.2], [10, 1.2]]}
  - {path: [[11.2, 0.6], [14, 0.6], [16, 2.6]], width_mm: 1.2}
  - {circle: [20, 3], radius_mm: 2}
  - {arc: [30, 3], radius_mm: 3, width_mm: 0.6, start_deg: 0, stop_deg: 180}
  - {arc: [40, 3], radius_mm: 3, width_mm: 0.6}
ports:
  - {name: P1, x: 0, y: 0.6, direction: "+x", feed_length_mm: 4}
mesh: {cell_mm: 0.2}
)";

GeometryConfig parse(const std::string& text) {
  return parse_geometry_config(YAML::Load(text), "config.yaml");
}

std::string edited(const std::string& from, const std::string& to) {
  std::string text = kShapes;
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(Polygons, ConfigReadsEveryShape) {
  const GeometryConfig config = parse(kShapes);
  ASSERT_EQ(config.layout.rects.size(), 1u);
  ASSERT_EQ(config.layout.polygons.size(), 5u);
  EXPECT_EQ(config.layout.polygons[1].kind, ShapeKind::path);
  EXPECT_EQ(config.layout.polygons[2].kind, ShapeKind::circle);
  EXPECT_EQ(config.layout.polygons[3].rings.size(), 1u);
  EXPECT_EQ(config.layout.polygons[4].rings.size(), 2u);  // the full ring
  // The inscribed 256-gon's area is short of the disc's by (2π/256)²/6 = 1e-4 of it.
  EXPECT_NEAR(area(config.layout.polygons[2]), 4 * std::numbers::pi, 2e-4 * 4 * std::numbers::pi);
  const Mesh mesh = config.make_mesh({0.2, 0.2});
  EXPECT_EQ(mesh.ports().size(), 1u);
  // The picture draws each polygon's outline as drawn (the annulus as one path of two rings)
  // over its staircase.
  const std::string svg = svg_text(mesh);
  std::size_t outlines = 0;
  for (auto at = svg.find("fill-rule=\"evenodd\""); at != std::string::npos;
       at = svg.find("fill-rule=\"evenodd\"", at + 1))
    ++outlines;
  EXPECT_EQ(outlines, config.layout.polygons.size());
}

TEST(Polygons, ConfigMistakesAtTheirLines) {
  expect_error<ConfigError>(
      [] { (void)parse(edited("[[10, 0], [11.2, 0], [11.2, 1.2], [10, 1.2]]", "[[10, 0], [11, 1], [11, 0], [10, 1]]")); },
      "config.yaml:5: polygon 0 (4 vertices from (10, 0) mm) crosses itself");
  expect_error<ConfigError>(
      [] { (void)parse(edited("[[10, 0], [11.2, 0], [11.2, 1.2], [10, 1.2]]", "[[10, 0], [11, 1]]")); },
      "config.yaml:5: /layout/1/polygon must be a list of at least 3 points [x, y] in mm");
  expect_error<ConfigError>([] { (void)parse(edited("[11.2, 0]", "[11.2]")); },
                            "config.yaml:5: /layout/1/polygon/1 must be a point [x, y] in mm");
  expect_error<ConfigError>([] { (void)parse(edited("radius_mm: 2}", "radius_mm: 2, width_mm: 1}")); },
                            "config.yaml:7: /layout/3/width_mm does not go with a circle "
                            "(circle keys: circle, radius_mm, layer)");
  expect_error<ConfigError>([] { (void)parse(edited("{circle: [20, 3]", "{circle: [20, 3], polygon: []")); },
                            "config.yaml:7: /layout/3 is both a polygon and a circle");
  expect_error<ConfigError>([] { (void)parse(edited("radius_mm: 2}", "radius_mm: -2}")); },
                            "config.yaml:7: /layout/3/radius_mm must be > 0, got -2");
  expect_error<ConfigError>([] { (void)parse(edited("width_mm: 0.6}", "width_mm: 7}")); },
                            "config.yaml:9: polygon 4 (an arc) is 7 mm wide");
  expect_error<ConfigError>([] { (void)parse(edited("width_mm: 1.2}", "width_mm: 1.2, ends: square}")); },
                            "config.yaml:6: /layout/2/ends must be one of flush, extended, round, "
                            "got 'square'");
  expect_error<ConfigError>([] { (void)parse(edited("radius_mm: 2}", "raduis_mm: 2}")); },
                            "config.yaml:7: unknown key 'raduis_mm' in /layout/3 (did you mean "
                            "'radius_mm'?)");
}

}  // namespace
}  // namespace pmom::geometry
