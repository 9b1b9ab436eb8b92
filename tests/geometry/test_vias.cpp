// Vias to ground (issue 37): their checks, their footprint of cells on the mesh, the unknowns
// they add, the mesh's errors and warning, and the config's `vias:` section.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "geometry/layouts.hpp"
#include "planarmom/geometry/config_yaml.hpp"
#include "planarmom/geometry/error.hpp"
#include "planarmom/geometry/mesh.hpp"

namespace pmom::geometry {
namespace {

using test::expect_error;
using test::layout_of;

Via via(std::string name, double x, double y, double diameter) {
  Via v;
  v.name = std::move(name);
  v.x_mm = x;
  v.y_mm = y;
  v.diameter_mm = diameter;
  return v;
}

// The cells i0..i1 x j0..j1 (inclusive) row-major by (j, i), less those listed in `except`.
std::vector<std::pair<int, int>> block(int i0, int i1, int j0, int j1,
                                       const std::vector<std::pair<int, int>>& except = {}) {
  std::vector<std::pair<int, int>> cells;
  for (int j = j0; j <= j1; ++j)
    for (int i = i0; i <= i1; ++i)
      if (std::find(except.begin(), except.end(), std::pair{i, j}) == except.end())
        cells.emplace_back(i, j);
  return cells;
}

std::vector<std::pair<int, int>> cells_of(const MeshVia& v) {
  std::vector<std::pair<int, int>> out;
  for (const Cell c : v.cells) out.emplace_back(c.i, c.j);
  return out;
}

TEST(Vias, ChecksNameTheVia) {
  expect_error<GeometryError>([] { validate_via(via("v1", 1, 1, -1), 0); },
                              "via 'v1': diameter_mm must be > 0, got -1");
  expect_error<GeometryError>([] { validate_via(via("v1", 1, 1, 0), 0); },
                              "via 'v1': diameter_mm must be > 0, got 0");
  expect_error<GeometryError>(
      [] { validate_via(via("v1", 1, 1, std::numeric_limits<double>::infinity()), 0); },
      "via 'v1': diameter_mm must be finite, got inf");
  expect_error<GeometryError>([] { validate_via(via("v1", std::nan(""), 1, 0.3), 0); },
                              "via 'v1' has a non-finite position");
  expect_error<GeometryError>([] { validate_via(via("", 1, 2, 0.3), 2); },
                              "the via at (1, 2) mm has an empty name");
  try {
    validate_via(via("v1", 1, 1, -1), 3);
    ADD_FAILURE() << "no error";
  } catch (const GeometryError& e) {
    EXPECT_EQ(e.item(), Item::via);
    EXPECT_EQ(e.index(), 3);
    EXPECT_EQ(e.field(), "diameter_mm");
  }
  Layout twice = layout_of({{0, 0, 4, 2}});
  twice.vias = {via("v1", 1, 1, 0.3), via("v1", 3, 1, 0.3)};
  expect_error<GeometryError>([&] { validate(twice); }, "via name 'v1' is used twice");
  twice.vias[1].diameter_mm = -1;  // each via is checked by validate(Layout)
  expect_error<GeometryError>([&] { validate(twice); }, "via 'v1': diameter_mm must be > 0");
}

// On 0.2 mm cells: a 0.6 mm via centred on a cell covers that cell and its eight neighbours
// (centres 0.2 and 0.28 mm away, under 0.3; the next ones 0.4 mm away); centred on a grid
// corner, the four cells around it (0.14 mm away; the next ones 0.32 mm away); a 1 mm via centred
// on a cell the 5 x 5 block less its corners (21: (0.4, 0.2) is 0.447 mm away, under 0.5;
// (0.4, 0.4) is 0.566 mm away).
TEST(Vias, FootprintIsTheCellsWhoseCentreIsInsideTheDisk) {
  Layout layout = layout_of({{0, 0, 6, 3}});
  layout.vias = {via("a", 2.1, 1.1, 0.6), via("b", 4.0, 1.0, 0.6), via("c", 1.1, 2.3, 1.0)};
  const Mesh mesh = make_mesh(layout, 0.2);
  ASSERT_EQ(mesh.vias().size(), 3u);
  EXPECT_EQ(mesh.vias()[0].via, 0);
  EXPECT_EQ(mesh.vias()[2].via, 2);
  // (2.1, 1.1) is the centre of cell (10, 5).
  EXPECT_EQ(cells_of(mesh.vias()[0]), block(9, 11, 4, 6));
  // (4.0, 1.0) is the corner of cells (19..20, 4..5).
  EXPECT_EQ(cells_of(mesh.vias()[1]), block(19, 20, 4, 5));
  // (1.1, 2.3) is the centre of cell (5, 11).
  EXPECT_EQ(cells_of(mesh.vias()[2]), block(3, 7, 9, 13, {{3, 9}, {7, 9}, {3, 13}, {7, 13}}));
  EXPECT_EQ(mesh.vias()[2].cells.size(), 21u);
  EXPECT_EQ(mesh.via_cell_count(), 9 + 4 + 21);
  EXPECT_EQ(mesh.unknowns(), mesh.basis().size() + 34u);
  EXPECT_TRUE(mesh.warnings().empty()) << mesh.warnings().front();
}

TEST(Vias, NoViasNoExtraUnknowns) {
  const Mesh mesh = make_mesh(layout_of({{0, 0, 4, 2}}), 0.2);
  EXPECT_TRUE(mesh.vias().empty());
  EXPECT_EQ(mesh.via_cell_count(), 0);
  EXPECT_EQ(mesh.unknowns(), mesh.basis().size());
}

// On 0.4 mm cells a 0.3 mm via is one cell's column: the cell whose centre it covers, or, where
// it covers none, the cell holding its centre; either way with a warning.
TEST(Vias, ViaNarrowerThanACellIsOneCellAndAWarning) {
  Layout layout = layout_of({{0, 0, 4, 2}});
  // (2.1, 1.1): cell (5, 2)'s centre (2.2, 1.0) is 0.14 mm away, under 0.15.
  // (1.25, 0.45): the nearest centre, (1.4, 0.6), is 0.21 mm away: the cell holding it, (3, 1).
  layout.vias = {via("v1", 2.1, 1.1, 0.3), via("v2", 1.25, 0.45, 0.3)};
  const Mesh mesh = make_mesh(layout, 0.4);
  ASSERT_EQ(mesh.vias().size(), 2u);
  EXPECT_EQ(cells_of(mesh.vias()[0]), (std::vector<std::pair<int, int>>{{5, 2}}));
  EXPECT_EQ(cells_of(mesh.vias()[1]), (std::vector<std::pair<int, int>>{{3, 1}}));
  EXPECT_EQ(mesh.via_cell_count(), 2);
  EXPECT_EQ(mesh.unknowns(), mesh.basis().size() + 2u);
  ASSERT_EQ(mesh.warnings().size(), 2u);
  EXPECT_EQ(mesh.warnings()[0], "via 'v1' (0.3 mm) is narrower than the cell (0.4 mm): it is "
                                "modelled as one cell's column");
  EXPECT_NE(mesh.warnings()[1].find("via 'v2' (0.3 mm)"), std::string::npos);
  // As wide as the cell: one cell, no warning.
  layout.vias = {via("v1", 2.2, 1.0, 0.4)};
  const Mesh wide = make_mesh(layout, 0.4);
  EXPECT_EQ(cells_of(wide.vias()[0]), (std::vector<std::pair<int, int>>{{5, 2}}));
  EXPECT_TRUE(wide.warnings().empty());
}

TEST(Vias, ViaReachingOffTheMetalIsAnError) {
  Layout layout = layout_of({{0, 0, 4, 2}});
  // Its footprint's column x = 4.1 mm is past the metal's edge at 4.
  layout.vias = {via("v1", 3.9, 1.0, 0.6)};
  expect_error<GeometryError>([&] { (void)make_mesh(layout, 0.2); },
                              "via 'v1' at (3.9, 1) mm reaches off the metal: its footprint's "
                              "cell (4.1, 0.9) mm is bare");
  // Inside the bounding box, on a bare cell of an L.
  Layout l_shape = layout_of({{0, 0, 4, 1}, {0, 0, 1, 3}});
  l_shape.vias = {via("pad", 0.5, 0.5, 0.4), via("v2", 2.5, 2.5, 0.4)};
  expect_error<GeometryError>([&] { (void)make_mesh(l_shape, 0.5); },
                              "via 'v2' at (2.5, 2.5) mm reaches off the metal");
  // Wholly outside the grid.
  l_shape.vias = {via("far", 100, -50, 0.4)};
  try {
    (void)make_mesh(l_shape, 0.5);
    ADD_FAILURE() << "no error";
  } catch (const GeometryError& e) {
    EXPECT_NE(std::string(e.what()).find("via 'far' at (100, -50) mm reaches off the metal"),
              std::string::npos) << e.what();
    EXPECT_EQ(e.item(), Item::via);
    EXPECT_EQ(e.index(), 0);
  }
}

TEST(Vias, ViaOnAFeedLineIsAnError) {
  // A 10 mm line of 1.2 mm; P1's 2 mm feed (its samples to 2 mm, its box to 2.2 mm).
  Layout layout = layout_of({{0, 0, 10, 1.2}},
                            {test::port("P1", 0, 0.6, Direction::pos_x, 2.0),
                             test::port("P2", 10, 0.6, Direction::neg_x, 2.0)});
  layout.vias = {via("v1", 1.0, 0.6, 0.4)};
  expect_error<GeometryError>([&] { (void)make_mesh(layout, 0.2); },
                              "via 'v1' at (1, 0.6) mm sits on port 'P1''s feed line");
  layout.vias = {via("v1", 8.1, 0.5, 0.2)};  // one cell, on P2's feed
  expect_error<GeometryError>([&] { (void)make_mesh(layout, 0.2); },
                              "via 'v1' at (8.1, 0.5) mm sits on port 'P2''s feed line");
  layout.vias = {via("v1", 5.0, 0.6, 0.4)};  // past both feeds
  const Mesh mesh = make_mesh(layout, 0.2);
  EXPECT_EQ(mesh.via_cell_count(), 4);
  EXPECT_EQ(mesh.ports().size(), 2u);
}

TEST(Vias, ViasSharingACellAreAnError) {
  Layout layout = layout_of({{0, 0, 4, 2}});
  layout.vias = {via("v1", 2.1, 1.1, 0.6), via("v2", 2.5, 1.1, 0.6)};
  expect_error<GeometryError>([&] { (void)make_mesh(layout, 0.2); },
                              "via 'v2' at (2.5, 1.1) mm shares the cell (2.3, 0.9) mm with via "
                              "'v1'");
  layout.vias[1].x_mm = 2.7;  // a cell apart
  EXPECT_EQ(make_mesh(layout, 0.2).via_cell_count(), 18);
}

// A config with `vias:` (line 1 is "substrate:").
const std::string kViaConfig = R"(substrate: {eps_r: 3.38, height_mm: 0.8}
metal: {pec: true}
layout:
  - {x0: 0, y0: 0, x1: 10, y1: 4}
ports:
  - {name: P1, x: 0, y: 2, direction: "+x", feed_length_mm: 2}
vias:
  - name: gnd
    x: 6.1
    y: 2.1
    diameter_mm: 0.6
  - {x: 8.1, y: 1.1, diameter_mm: 0.3}
mesh:
  cell_mm: 0.2
)";

GeometryConfig parse(const std::string& text) {
  return parse_geometry_config(YAML::Load(text), "config.yaml");
}

std::string with(const std::string& from, const std::string& to) {
  std::string text = kViaConfig;
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

// The whole `vias:` section of kViaConfig.
std::string via_section() {
  const auto from = kViaConfig.find("vias:"), to = kViaConfig.find("mesh:");
  return kViaConfig.substr(from, to - from);
}

TEST(Vias, ConfigReadsVias) {
  const GeometryConfig config = parse(kViaConfig);
  ASSERT_EQ(config.layout.vias.size(), 2u);
  const Via& named = config.layout.vias[0];
  EXPECT_EQ(named.name, "gnd");
  EXPECT_DOUBLE_EQ(named.x_mm, 6.1);
  EXPECT_DOUBLE_EQ(named.y_mm, 2.1);
  EXPECT_DOUBLE_EQ(named.diameter_mm, 0.6);
  const Via& unnamed = config.layout.vias[1];
  EXPECT_EQ(unnamed.name, "via 2");  // by its place in the list, from 1
  EXPECT_DOUBLE_EQ(unnamed.x_mm, 8.1);
  EXPECT_DOUBLE_EQ(unnamed.diameter_mm, 0.3);
  const Mesh mesh = config.make_mesh(*config.mesh.cell_mm);
  EXPECT_EQ(mesh.via_cell_count(), 9 + 1);
  EXPECT_EQ(mesh.unknowns(), mesh.basis().size() + 10u);
  // Without the section: no vias.
  const auto none = parse(with(via_section(), ""));
  EXPECT_TRUE(none.layout.vias.empty());
}

TEST(Vias, ConfigMistakesAtTheirLines) {
  expect_error<ConfigError>([] { (void)parse(with("    diameter_mm: 0.6", "    drill_mm: 0.6")); },
                            "config.yaml:11: unknown key 'drill_mm' in /vias/0");
  expect_error<ConfigError>([] { (void)parse(with("\n    diameter_mm: 0.6", "")); },
                            "config.yaml:8: missing required key 'diameter_mm' in /vias/0");
  expect_error<ConfigError>([] { (void)parse(with("diameter_mm: 0.6", "diameter_mm: -1")); },
                            "config.yaml:11: via 'gnd': diameter_mm must be > 0, got -1");
  expect_error<ConfigError>([] { (void)parse(with("    x: 6.1", "    x: wide")); },
                            "config.yaml:9: /vias/0/x must be a number, got 'wide'");
  expect_error<ConfigError>([] { (void)parse(with("name: gnd", "name: via 2")); },
                            "config.yaml:12: via name 'via 2' is used twice");
  expect_error<ConfigError>([] { (void)parse(with("  - {x: 8.1", "  - {name: '', x: 8.1")); },
                            "config.yaml:12: the via at (8.1, 1.1) mm has an empty name");
  expect_error<ConfigError>([] { (void)parse(with(via_section(), "vias: []\n")); },
                            "config.yaml:7: /vias must be a non-empty list of vias");
  // Errors found when meshing point at the via's line.
  const auto off = parse(with("x: 8.1, y: 1.1", "x: 10.1, y: 1.1"));
  expect_error<ConfigError>([&] { (void)off.make_mesh(*off.mesh.cell_mm); },
                            "config.yaml:12: via 'via 2' at (10.1, 1.1) mm reaches off the metal");
  const auto on_feed = parse(with("    x: 6.1", "    x: 1.1"));
  expect_error<ConfigError>([&] { (void)on_feed.make_mesh(*on_feed.mesh.cell_mm); },
                            "config.yaml:8: via 'gnd' at (1.1, 2.1) mm sits on port 'P1''s feed "
                            "line");
}

}  // namespace
}  // namespace pmom::geometry
