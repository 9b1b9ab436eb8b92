// Mesh-independent layout checks and the cell size helper.
#include <gtest/gtest.h>

#include <cmath>

#include "geometry/layouts.hpp"
#include "planarmom/geometry/cell_size.hpp"
#include "planarmom/geometry/error.hpp"

namespace pmom::geometry {
namespace {

using test::expect_error;
using test::layout_of;
using test::port;

TEST(Layout, SubstrateAndMetalErrorsNameTheValue) {
  expect_error<GeometryError>([] { validate(Substrate{3.0, -1.0, 0.0}); },
                              "substrate height must be > 0 mm, got -1");
  expect_error<GeometryError>([] { validate(Substrate{0.5, 1.0, 0.0}); },
                              "substrate eps_r must be >= 1, got 0.5");
  expect_error<GeometryError>([] { validate(Substrate{2.0, 1.0, -0.01}); },
                              "substrate loss tangent must be >= 0, got -0.01");
  EXPECT_NO_THROW(validate(Substrate{1.0, 1.0, 0.0}));  // air over ground is allowed
  expect_error<GeometryError>([] { validate(Metal{false, 0.0, 35.0}); },
                              "metal conductivity must be > 0 S/m, got 0");
  expect_error<GeometryError>([] { validate(Metal{false, 5.8e7, 0.0}); },
                              "metal thickness must be > 0 µm, got 0");
  EXPECT_NO_THROW(validate(Metal{false, 5.8e7, 35.0}));
  EXPECT_NO_THROW(validate(Metal{true, 0.0, 0.0}));
}

TEST(Layout, RectangleAndPortErrors) {
  expect_error<GeometryError>([] { validate_rect({1, 0, 1, 2}, 4); },
                              "rectangle 4 (x 1..1 mm, y 0..2 mm) is empty");
  expect_error<GeometryError>([] { validate(layout_of({})); }, "the layout has no rectangles");
  expect_error<GeometryError>(
      [] { validate_port(port("P1", 0, 0, Direction::pos_x, 0), 0); },
      "port 'P1' feed length must be > 0 mm, got 0");
  expect_error<GeometryError>(
      [] { validate_port(port("P1", 0, 0, Direction::pos_x, 1, -2), 0); },
      "port 'P1' reference plane must be >= 0 mm from the port edge, got -2");
  auto bad_z = port("P1", 0, 0, Direction::pos_x, 1);
  bad_z.impedance_ohm = 0;
  expect_error<GeometryError>([&] { validate_port(bad_z, 0); }, "port 'P1' impedance must be > 0");
  expect_error<GeometryError>(
      [] {
        validate(layout_of({{0, 0, 1, 1}}, {port("A", 0, 0.5, Direction::pos_x, 1),
                                           port("A", 1, 0.5, Direction::neg_x, 1)}));
      },
      "port name 'A' is used twice");
}

TEST(Layout, DirectionsRoundTrip) {
  for (const auto d : {Direction::pos_x, Direction::neg_x, Direction::pos_y, Direction::neg_y}) {
    EXPECT_EQ(parse_direction(to_string(d)), d);
  }
  expect_error<GeometryError>([] { (void)parse_direction("x"); },
                              "port direction must be one of +x, -x, +y, -y, got 'x'");
}

// A layout of these rectangles alone.
Layout of_rects(std::vector<Rect> rects) {
  Layout layout;
  layout.rects = std::move(rects);
  return layout;
}

TEST(CellSize, LargestCellThatDividesEveryCoordinate) {
  // 1.15 mm x 23 mm: 1.15/6 divides both (6 and 120 cells) and is the largest under 0.2 mm.
  const Layout line = of_rects({{0, 0, 23, 1.15}});
  EXPECT_NEAR(largest_dividing_cell(line, 0.2), 1.15 / 6, 1e-12);
  EXPECT_NEAR(largest_dividing_cell(line, 0.15), 1.15 / 8, 1e-12);
  EXPECT_NEAR(largest_dividing_cell(line, 0.115), 0.115, 1e-12);
  // Coordinates count from the layout's lower-left corner, not from zero.
  EXPECT_NEAR(largest_dividing_cell(of_rects({{10.3, 5.1, 11.3, 7.1}}), 10.0), 1.0, 1e-12);
  EXPECT_NEAR(largest_dividing_cell(of_rects({{0, 0, 2, 3}}), 10.0), 1.0, 1e-12);
  EXPECT_NEAR(largest_dividing_cell(of_rects({{0, 0, 3, 1}, {0.5, 0, 1.25, 2}}), 1.0), 0.25, 1e-12);
  // Polygons are staircased on any grid: they leave the largest cell to the rectangles.
  Layout mixed = of_rects({{0, 0, 3, 1}});
  mixed.polygons.push_back({{{{0, 0}, {0.3, 0}, {0.17, 0.71}}}});
  EXPECT_NEAR(largest_dividing_cell(mixed, 2.0), 1.0, 1e-12);
  Layout only_polygons;
  only_polygons.polygons = mixed.polygons;
  EXPECT_NEAR(largest_dividing_cell(only_polygons, 0.37), 0.37, 1e-12);
}

TEST(CellSize, Errors) {
  expect_error<GeometryError>([] { (void)largest_dividing_cell(of_rects({{0, 0, 1, 1}}), 0.0); },
                              "the maximum cell size must be > 0 mm, got 0");
  expect_error<GeometryError>(
      [] { (void)largest_dividing_cell(of_rects({{0, 0, 1, std::sqrt(2.0)}}), 0.5); },
      "no cell size between 0.0005 and 0.5 mm puts every rectangle edge on the grid");
}

}  // namespace
}  // namespace pmom::geometry
