// Layouts from GDSII: a cell's polygons and paths on one layer as rectangles, and one clear
// message for each kind of bad file.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "geometry/layouts.hpp"
#include "planarmom/geometry/config_yaml.hpp"
#include "planarmom/geometry/error.hpp"
#include "planarmom/geometry/gdsii.hpp"
#include "io/temp_dir.hpp"
#include "support/gds_writer.hpp"

namespace pmom::geometry {
namespace {

using test::expect_error;
namespace fs = std::filesystem;

// Each test's own folder: ctest runs this file's tests side by side.
struct GdsFolder {
  pmom::test::TempDir scratch{"gdsii"};
  const fs::path& dir = scratch.path();
};

// Cell TOP: an L on layer 1, a path with a corner on layer 1 (flush ends, 0.4 mm wide), a
// rectangle on layer 2; cell OTHER places TOP.
pmom::test::GdsWriter library() {
  pmom::test::GdsWriter w;
  w.begin_cell("TOP");
  w.polygon(1, {{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 3}, {0, 3}});
  w.path(1, 0.4, 0, {{4, 0.2}, {6, 0.2}, {6, 2}});
  w.rectangle(2, 10, 10, 11, 12);
  w.end_cell();
  w.begin_cell("OTHER");
  w.sref("TOP");
  w.end_cell();
  return w;
}

bool same(const Rect& a, const Rect& b) {
  return std::abs(a.x0 - b.x0) < 1e-12 && std::abs(a.y0 - b.y0) < 1e-12 &&
         std::abs(a.x1 - b.x1) < 1e-12 && std::abs(a.y1 - b.y1) < 1e-12;
}

TEST(Gdsii, PolygonsAndPathsBecomeRectangles) {
  GdsFolder f;
  library().write(f.dir / "lib.gds");
  const GdsShapes shapes = read_gdsii_layer(f.dir / "lib.gds", "TOP", 1);
  EXPECT_TRUE(shapes.polygons.empty());
  const std::vector<Rect>& r = shapes.rects;
  // The L cut at y = 1 into two bands; the path's two segments, each past the corner by half
  // its width, flush at its ends.
  const std::vector<Rect> want{{0, 0, 2, 1}, {0, 1, 1, 3}, {4, 0, 6.2, 0.4}, {5.8, 0, 6.2, 2}};
  ASSERT_EQ(r.size(), want.size());
  for (std::size_t k = 0; k < r.size(); ++k)
    EXPECT_TRUE(same(r[k], want[k])) << "rectangle " << k << ": " << r[k].x0 << " " << r[k].y0
                                     << " " << r[k].x1 << " " << r[k].y1;
  const std::vector<Rect> two = read_gdsii_layer(f.dir / "lib.gds", "TOP", 2).rects;
  ASSERT_EQ(two.size(), 1u);
  EXPECT_TRUE(same(two[0], {10, 10, 11, 12}));
}

TEST(Gdsii, BadFilesSayWhatIsWrongInOneLine) {
  GdsFolder f;
  const fs::path gds = f.dir / "lib.gds";
  library().write(gds);
  expect_error<GeometryError>([&] { (void)read_gdsii_layer(f.dir / "none.gds", "TOP", 1); },
                              "none.gds: cannot be opened");
  expect_error<GeometryError>([&] { (void)read_gdsii_layer(gds, "MAIN", 1); },
                              "has no cell 'MAIN' (its cells: TOP, OTHER)");
  expect_error<GeometryError>([&] { (void)read_gdsii_layer(gds, "TOP", 7); },
                              "cell 'TOP' has nothing on layer 7 (its layers: 1, 2)");
  expect_error<GeometryError>([&] { (void)read_gdsii_layer(gds, "OTHER", 1); },
                              "cell 'OTHER' places other cells (SREF): flatten it");
  library().write(gds, 3);
  expect_error<GeometryError>([&] { (void)read_gdsii_layer(gds, "TOP", 1); }, "truncated");
  library().write(gds, 4);  // every record whole, ENDLIB missing
  expect_error<GeometryError>([&] { (void)read_gdsii_layer(gds, "TOP", 1); },
                              "truncated (no ENDLIB record)");
  pmom::test::GdsWriter custom;
  custom.begin_cell("TOP");
  custom.rectangle(1, 0, 0, 1, 1);
  custom.path(1, 0.2, 4, {{0, 0}, {1, 0}});
  custom.end_cell();
  custom.write(gds);
  expect_error<GeometryError>([&] { (void)read_gdsii_layer(gds, "TOP", 1); },
                              "path 1 has custom ends (type 4); use flush (0), round (1) or "
                              "square (2) ends");
}

// Polygons and paths at any angle, and round path ends, become polygons; the Manhattan ones
// stay rectangles.
TEST(Gdsii, AnyAngleBecomesPolygons) {
  GdsFolder f;
  const fs::path gds = f.dir / "lib.gds";
  pmom::test::GdsWriter slanted;
  slanted.begin_cell("TOP");
  slanted.rectangle(1, 0, 0, 1, 1);
  slanted.polygon(1, {{0, 0}, {2, 0}, {1, 1}});
  slanted.path(1, 0.2, 0, {{0, 0}, {1, 1}});
  slanted.path(1, 0.2, 1, {{0, 0}, {1, 0}});
  slanted.end_cell();
  slanted.write(gds);
  const GdsShapes shapes = read_gdsii_layer(gds, "TOP", 1);
  ASSERT_EQ(shapes.rects.size(), 1u);
  ASSERT_EQ(shapes.polygons.size(), 3u);
  // The triangle as drawn; the slanted path 0.2 mm wide and sqrt(2) mm long, flush ends; the
  // round-ended one 1 mm long with a half disc at each end.
  EXPECT_EQ(shapes.polygons[0].rings.front().size(), 3u);
  const auto area = [](const Polygon& p) {
    double twice = 0;
    for (const auto& ring : p.rings)
      for (std::size_t k = 0; k < ring.size(); ++k) {
        const Point a = ring[k], b = ring[(k + 1) % ring.size()];
        twice += a.x * b.y - b.x * a.y;
      }
    return std::abs(0.5 * twice);
  };
  EXPECT_NEAR(area(shapes.polygons[0]), 1.0, 1e-12);
  EXPECT_NEAR(area(shapes.polygons[1]), 0.2 * std::sqrt(2.0), 1e-9);
  EXPECT_EQ(shapes.polygons[1].kind, ShapeKind::path);
  EXPECT_NEAR(area(shapes.polygons[2]), 0.2 + std::acos(-1.0) * 0.01, 1e-5);
}

// In a config: the file relative to the config's folder; its problems at the gds key's line.
TEST(Gdsii, ConfigReadsTheLayoutFromTheFile) {
  GdsFolder f;
  library().write(f.dir / "lib.gds");
  const std::string text = R"(substrate: {eps_r: 3.38, height_mm: 0.508}
metal: {pec: true}
layout: {gds: lib.gds, cell: TOP, layer: 2}
ports:
  - {name: a, x: 10, y: 11, direction: "+x", feed_length_mm: 0.5}
mesh: {cell_mm: 0.5}
)";
  const fs::path config = f.dir / "c.yaml";
  const GeometryConfig g = parse_geometry_config(YAML::Load(text), config.string());
  ASSERT_EQ(g.layout.rects.size(), 1u);
  EXPECT_TRUE(same(g.layout.rects[0], {10, 10, 11, 12}));
  std::string missing = text;
  missing.replace(missing.find("lib.gds"), 7, "no.gds");
  expect_error<ConfigError>([&] { (void)parse_geometry_config(YAML::Load(missing), config.string()); },
                            "c.yaml:3: /layout/gds: GDSII file ");
}

// GDSII layers mapped to the stack's interfaces: layer 1's shapes on interface 1, layer 2's on
// interface 2; a mapped layer without metal is the file's error at the gds key.
TEST(Gdsii, ConfigMapsGdsLayersToTheStacksInterfaces) {
  GdsFolder f;
  library().write(f.dir / "lib.gds");
  const std::string text = R"(stackup:
  layers:
    - {eps_r: 3.38, height_mm: 0.5}
    - {eps_r: 3.38, height_mm: 0.2}
  metal_on: 1
metal: {pec: true}
layout: {gds: lib.gds, cell: TOP, layer: {1: 1, 2: 2}}
ports:
  - {name: a, x: 10, y: 11, direction: "+x", feed_length_mm: 0.5, layer: 2}
mesh: {cell_mm: 0.1}
)";
  const fs::path config = f.dir / "m.yaml";
  const GeometryConfig g = parse_geometry_config(YAML::Load(text), config.string());
  ASSERT_FALSE(g.layout.rects.empty());
  for (const Rect& r : g.layout.rects) EXPECT_EQ(r.layer, r.x0 >= 10 ? 2 : 1);
  EXPECT_EQ(g.make_mesh({0.1, 0.1}).layers(), (std::vector<int>{1, 2}));
  std::string empty = text;
  empty.replace(empty.find("2: 2}"), 5, "3: 2}");
  expect_error<ConfigError>([&] { (void)parse_geometry_config(YAML::Load(empty), config.string()); },
                            "m.yaml:7: /layout/gds: ");
}

}  // namespace
}  // namespace pmom::geometry
