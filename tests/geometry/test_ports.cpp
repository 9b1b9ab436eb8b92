// Ports on the mesh: the feed samples and delta gap of a two-port line in both axes, and the
// port errors (off the metal, facing a hole, short, non-uniform or one-cell feeds, shared edges).
#include <gtest/gtest.h>

#include "geometry/layouts.hpp"
#include "planarmom/geometry/error.hpp"
#include "planarmom/geometry/mesh.hpp"

namespace pmom::geometry {
namespace {

using test::expect_error;
using test::layout_of;
using test::port;

// A 1.15 mm wide, 23 mm long line (about 50 ohm on 0.8 mm of eps_r 3.38), 0.115 mm cells:
// 200 x 10 cells, feeds of 2.3 mm = 20 cells at both ends.
Mesh two_port_line() {
  return make_mesh(layout_of({{0, 0, 23, 1.15}},
                             {port("P1", 0, 0.575, Direction::pos_x, 2.3, 1.0),
                              port("P2", 23, 0.575, Direction::neg_x, 2.3, 1.0)}),
                   0.115);
}

TEST(Ports, TwoPortLineFeedSamplesInOrder) {
  const Mesh mesh = two_port_line();
  ASSERT_EQ(mesh.grid().nx, 200);
  ASSERT_EQ(mesh.grid().ny, 10);
  EXPECT_EQ(mesh.x_rooftop_count(), 199 * 10);
  EXPECT_EQ(mesh.y_rooftop_count(), 200 * 9);
  ASSERT_EQ(mesh.ports().size(), 2u);

  const MeshPort& p1 = mesh.ports()[0];
  EXPECT_EQ(p1.port, 0);
  EXPECT_EQ(p1.line, 0);
  EXPECT_EQ(p1.first, 0);
  EXPECT_EQ(p1.count, 10);
  EXPECT_DOUBLE_EQ(p1.sign, 1.0);
  EXPECT_NEAR(p1.width_mm, 1.15, 1e-12);
  EXPECT_NEAR(p1.edge_centre.x, 0.0, 1e-12);
  EXPECT_NEAR(p1.edge_centre.y, 0.575, 1e-12);
  ASSERT_EQ(p1.samples.size(), 20u);
  for (int k = 1; k <= 20; ++k) {
    const CrossSection& s = p1.samples[static_cast<std::size_t>(k - 1)];
    EXPECT_NEAR(s.distance_mm, k * 0.115, 1e-12);
    ASSERT_EQ(s.basis.size(), 10u);
    for (int t = 0; t < 10; ++t) EXPECT_EQ(s.basis[static_cast<std::size_t>(t)], mesh.x_edge_basis(k, t));
  }

  const MeshPort& p2 = mesh.ports()[1];
  EXPECT_EQ(p2.line, 200);
  EXPECT_DOUBLE_EQ(p2.sign, -1.0);
  ASSERT_EQ(p2.samples.size(), 20u);
  for (int k = 1; k <= 20; ++k) {
    const CrossSection& s = p2.samples[static_cast<std::size_t>(k - 1)];
    for (int t = 0; t < 10; ++t) {
      EXPECT_EQ(s.basis[static_cast<std::size_t>(t)], mesh.x_edge_basis(200 - k, t));
    }
  }
}

TEST(Ports, DeltaGapIsTheFirstInteriorEdge) {
  const Mesh mesh = two_port_line();
  const CrossSection& gap = mesh.ports()[0].delta_gap();
  EXPECT_NEAR(gap.distance_mm, 0.115, 1e-12);
  for (const int b : gap.basis) {
    const Rooftop& r = mesh.basis()[static_cast<std::size_t>(b)];
    EXPECT_EQ(r.axis, Axis::x);
    EXPECT_EQ(r.minus.i, 0);  // spans the port cell and the next one
    EXPECT_NEAR(r.centre.x, 0.115, 1e-12);
  }
  const CrossSection& gap2 = mesh.ports()[1].delta_gap();
  EXPECT_NEAR(mesh.basis()[static_cast<std::size_t>(gap2.basis[0])].centre.x, 23 - 0.115, 1e-9);
}

TEST(Ports, VerticalFeedsUseYRooftops) {
  // A 1 mm wide line along y with 0.25 mm cells; P1 on the bottom edge at its corner point.
  const Mesh mesh = make_mesh(layout_of({{2, 0, 3, 10}}, {port("P1", 2, 0, Direction::pos_y, 1),
                                                          port("P2", 2.5, 10, Direction::neg_y, 1)}),
                              0.25);
  const MeshPort& p1 = mesh.ports()[0];
  EXPECT_EQ(p1.first, 0);
  EXPECT_EQ(p1.count, 4);
  ASSERT_EQ(p1.samples.size(), 4u);
  EXPECT_EQ(p1.samples[2].basis[1], mesh.y_edge_basis(1, 3));
  EXPECT_NEAR(p1.edge_centre.x, 2.5, 1e-12);
  const MeshPort& p2 = mesh.ports()[1];
  EXPECT_EQ(p2.line, 40);
  EXPECT_DOUBLE_EQ(p2.sign, -1.0);
  EXPECT_EQ(p2.delta_gap().basis[3], mesh.y_edge_basis(3, 39));
  EXPECT_EQ(mesh.basis()[static_cast<std::size_t>(p2.delta_gap().basis[0])].axis, Axis::y);
}

TEST(Ports, NotOnAMetalEdge) {
  const Rect line{0, 0, 20, 1};
  expect_error<GeometryError>(
      [&] { (void)make_mesh(layout_of({line}, {port("P2", 10, 3, Direction::neg_x, 1)}), 0.5); },
      "port 'P2' at (10, 3) mm is not on a metal edge");
  // Inside the metal: metal on both sides.
  expect_error<GeometryError>(
      [&] { (void)make_mesh(layout_of({line}, {port("P1", 10, 0.5, Direction::pos_x, 1)}), 0.5); },
      "port 'P1' at (10, 0.5) mm is not on a metal edge");
  // Pointing out of the circuit.
  expect_error<GeometryError>(
      [&] { (void)make_mesh(layout_of({line}, {port("P1", 0, 0.5, Direction::neg_x, 1)}), 0.5); },
      "is not on a metal edge (it needs metal on its -x side and none on the other)");
  // Off the grid lines.
  expect_error<GeometryError>(
      [&] { (void)make_mesh(layout_of({line}, {port("P1", 0.2, 0.5, Direction::pos_x, 1)}), 0.5); },
      "is not on a metal edge");
}

TEST(Ports, FacingAHole) {
  // A square ring; the port sits on the inner edge of its left side.
  const auto ring = layout_of({{0, 0, 6, 1}, {0, 5, 6, 6}, {0, 0, 1, 6}, {5, 0, 6, 6}},
                              {port("P1", 1, 3, Direction::neg_x, 1)});
  expect_error<GeometryError>([&] { (void)make_mesh(ring, 0.5); },
                              "port 'P1' at (1, 3) mm faces a hole in the metal");
}

// A feed as long as its drawn strip is accepted whatever joins its end: a wider section (the
// edge at its end is all rooftops: the last sample there), a narrower one (the samples end one
// cell before, inside the strip). A row with no metal beyond is still an error (above).
TEST(Ports, FeedAsLongAsItsStrip) {
  const Rect feed{0, 0, 5, 1.2};
  for (const bool wider : {true, false}) {
    const Rect next = wider ? Rect{5, -1, 10, 2.2} : Rect{5, 0.4, 10, 0.8};
    const Mesh mesh =
        make_mesh(layout_of({feed, next}, {port("P1", 0, 0.6, Direction::pos_x, 5)}), 0.2);
    ASSERT_EQ(mesh.ports().size(), 1u);
    const MeshPort& p = mesh.ports()[0];
    EXPECT_EQ(p.count, 6);
    ASSERT_EQ(p.samples.size(), wider ? 25u : 24u) << (wider ? "wider" : "narrower");
    EXPECT_NEAR(p.samples.back().distance_mm, wider ? 5.0 : 4.8, 1e-12);
    for (const CrossSection& c : p.samples) {
      ASSERT_EQ(c.basis.size(), 6u);
      for (const int b : c.basis) EXPECT_GE(b, 0);
    }
  }
}

// A port on the metal's outline inside its bounding box: the end of a stub that other metal
// overtops (the outside cell is exterior, joined to the grid's border through empty cells).
TEST(Ports, OnTheOutlineInsideTheBoundingBox) {
  const auto layout = layout_of({{0, 0, 10, 1}, {4, 1, 5, 4}, {8, 1, 9, 6}},
                                {port("P1", 4.5, 4, Direction::neg_y, 2),
                                 port("P2", 0, 0.5, Direction::pos_x, 2)});
  const Mesh mesh = make_mesh(layout, 0.25);
  ASSERT_EQ(mesh.ports().size(), 2u);
  const MeshPort& p = mesh.ports()[0];
  EXPECT_EQ(p.direction, Direction::neg_y);
  EXPECT_EQ(p.count, 4);
  EXPECT_NEAR(p.edge_centre.x, 4.5, 1e-12);
  EXPECT_NEAR(p.edge_centre.y, 4.0, 1e-12);
  EXPECT_EQ(p.samples.size(), 8u);
  EXPECT_LT(p.edge_centre.y, mesh.grid().y_line(mesh.grid().ny));  // inside the box
}

TEST(Ports, FeedErrors) {
  const Rect line{0, 0, 10, 1};
  expect_error<GeometryError>(
      [&] { (void)make_mesh(layout_of({line}, {port("P1", 0, 0.5, Direction::pos_x, 0.3)}), 0.25); },
      "has a 0.3 mm feed line, shorter than two cells (0.5 mm)");
  expect_error<GeometryError>(
      [&] { (void)make_mesh(layout_of({line}, {port("P1", 0, 0.5, Direction::pos_x, 12)}), 0.25); },
      "its 12 mm feed line leaves the metal 10 mm from the port edge");
  // A stub joining the line 3 mm in.
  expect_error<GeometryError>(
      [&] {
        (void)make_mesh(layout_of({line, {3, 1, 4, 4}}, {port("P1", 0, 0.5, Direction::pos_x, 5)}),
                        0.25);
      },
      "its 5 mm feed line is not a uniform 1 mm strip: metal joins it 3 mm from the port edge");
  // Ending where a narrower strip begins: the sample edges stop one cell short, and a feed of
  // two cells leaves one inside it.
  expect_error<GeometryError>(
      [&] {
        (void)make_mesh(layout_of({{0, 0, 0.5, 1}, {0.5, 0.25, 10, 0.75}},
                                  {port("P1", 0, 0.5, Direction::pos_x, 0.5)}),
                        0.25);
      },
      "has a 0.5 mm feed line meeting narrower metal: it needs three cells (0.75 mm)");
  // Two ports on one line end.
  expect_error<GeometryError>(
      [&] {
        (void)make_mesh(layout_of({line}, {port("A", 0, 0.2, Direction::pos_x, 1),
                                           port("B", 0, 0.8, Direction::pos_x, 1)}),
                        0.25);
      },
      "ports 'A' and 'B' share one feed line end");
  // A feed one cell across: its line checks (the period, the load's line) need two.
  expect_error<GeometryError>(
      [&] {
        (void)make_mesh(layout_of({{0, 0, 10, 0.25}}, {port("P1", 0, 0.125, Direction::pos_x, 2)}),
                        0.25);
      },
      "is on a strip one cell across (0.25 mm): its feed's line checks need two cells across or "
      "more; use a finer cell or a wider feed");
}

}  // namespace
}  // namespace pmom::geometry
