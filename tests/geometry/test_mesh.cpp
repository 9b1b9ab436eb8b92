// Meshing: metal cells from the union of rectangles, rooftop counts and numbering, lookups,
// the mesh-time errors (narrow or off-grid rectangles), and pieces of metal apart or touching at
// a corner.
#include <gtest/gtest.h>

#include <vector>

#include "geometry/layouts.hpp"
#include "planarmom/geometry/error.hpp"
#include "planarmom/geometry/mesh.hpp"

namespace pmom::geometry {
namespace {

using test::expect_error;
using test::layout_of;

TEST(Mesh, BlockHasTheRooftopCountsOfAGrid) {
  // n x m block: (n-1)*m x-rooftops and n*(m-1) y-rooftops.
  const Mesh mesh = make_mesh(layout_of({{0, 0, 5, 3}}), 1.0);
  EXPECT_EQ(mesh.grid().nx, 5);
  EXPECT_EQ(mesh.grid().ny, 3);
  EXPECT_EQ(mesh.metal_cell_count(), 15);
  EXPECT_EQ(mesh.x_rooftop_count(), 4 * 3);
  EXPECT_EQ(mesh.y_rooftop_count(), 5 * 2);
  EXPECT_EQ(mesh.basis().size(), 22u);
}

// Metal on two interfaces of a three-layer stack: one grid, each layer's rooftops numbered by
// layer within each kind, lookups per layer; the board seen from an interface; a layout on one
// interface that is not metal_on's is that interface's one-layer board.
TEST(Mesh, MetalOnTwoLayersSharesTheGrid) {
  Layout layout = layout_of({{0, 0, 5, 3}, {2, 1, 8, 2}});
  layout.substrate.cover = {{4.4, 0.2, 0.0}, {3.0, 0.7, 0.0}};
  layout.rects[1].layer = 3;
  const Mesh mesh = make_mesh(layout, 1.0);
  EXPECT_EQ(mesh.layers(), (std::vector<int>{1, 3}));
  EXPECT_EQ(mesh.grid().nx, 8);
  EXPECT_EQ(mesh.metal_cell_count(), 15 + 6);
  EXPECT_EQ(mesh.x_rooftop_count(), 4 * 3 + 5);
  EXPECT_EQ(mesh.y_rooftop_count(), 5 * 2);
  EXPECT_TRUE(mesh.is_metal({7, 1}, 1));
  EXPECT_FALSE(mesh.is_metal({7, 1}, 0));
  const int upper = mesh.x_edge_basis(3, 1, 1), lower = mesh.x_edge_basis(3, 1, 0);
  ASSERT_GE(upper, 0);
  ASSERT_GE(lower, 0);
  EXPECT_GT(upper, lower);  // the lower layer's x-rooftops first
  EXPECT_EQ(mesh.basis()[static_cast<std::size_t>(upper)].layer, 1);
  EXPECT_EQ(mesh.basis()[static_cast<std::size_t>(lower)].layer, 0);
  // The stack from interface 3: the core and the first substrate under it.
  const Substrate from3 = layout.substrate.with_strips_on(3);
  EXPECT_EQ(from3.eps_r, 3.0);
  ASSERT_EQ(from3.base.size(), 2u);
  EXPECT_EQ(from3.base[1].eps_r, 4.4);
  EXPECT_TRUE(from3.cover.empty());
  EXPECT_DOUBLE_EQ(layout.substrate.interface_height_mm(2),
                   layout.substrate.height_mm + 0.2);
  layout.rects.erase(layout.rects.begin());
  const Mesh alone = make_mesh(layout, 1.0);
  EXPECT_EQ(alone.layers(), (std::vector<int>{3}));
  EXPECT_EQ(alone.layout().substrate.eps_r, 3.0);
  EXPECT_EQ(alone.layout().substrate.base.size(), 2u);
}

TEST(Mesh, NumberingIsXFirstThenYRowMajor) {
  const Mesh mesh = make_mesh(layout_of({{10, 20, 15, 23}}), 1.0);
  const Rooftop& first = mesh.basis()[0];
  EXPECT_EQ(first.axis, Axis::x);
  EXPECT_EQ(first.minus.i, 0);
  EXPECT_EQ(first.plus.i, 1);
  EXPECT_EQ(first.plus.j, 0);
  EXPECT_DOUBLE_EQ(first.centre.x, 11.0);
  EXPECT_DOUBLE_EQ(first.centre.y, 20.5);
  EXPECT_EQ(mesh.x_edge_basis(1, 0), 0);
  EXPECT_EQ(mesh.x_edge_basis(4, 0), 3);
  EXPECT_EQ(mesh.x_edge_basis(1, 1), 4);  // next row
  EXPECT_EQ(mesh.x_edge_basis(0, 0), -1);  // boundary edges carry no rooftop
  EXPECT_EQ(mesh.x_edge_basis(5, 2), -1);
  const Rooftop& first_y = mesh.basis()[12];
  EXPECT_EQ(first_y.axis, Axis::y);
  EXPECT_EQ(first_y.minus.j, 0);
  EXPECT_EQ(first_y.plus.j, 1);
  EXPECT_DOUBLE_EQ(first_y.centre.x, 10.5);
  EXPECT_DOUBLE_EQ(first_y.centre.y, 21.0);
  EXPECT_EQ(mesh.y_edge_basis(0, 1), 12);
  EXPECT_EQ(mesh.y_edge_basis(4, 2), 21);
  EXPECT_EQ(mesh.y_edge_basis(0, 0), -1);
  // Every rooftop is found again through its edge.
  for (std::size_t b = 0; b < mesh.basis().size(); ++b) {
    const Rooftop& r = mesh.basis()[b];
    const int found = r.axis == Axis::x ? mesh.x_edge_basis(r.plus.i, r.plus.j)
                                        : mesh.y_edge_basis(r.plus.i, r.plus.j);
    EXPECT_EQ(found, static_cast<int>(b));
  }
}

TEST(Mesh, LShape) {
  // A 4-cell bar along x and a 3-cell bar along y sharing the corner cell.
  const Mesh mesh = make_mesh(layout_of({{0, 0, 4, 1}, {0, 0, 1, 3}}), 1.0);
  EXPECT_EQ(mesh.metal_cell_count(), 6);
  EXPECT_EQ(mesh.x_rooftop_count(), 3);
  EXPECT_EQ(mesh.y_rooftop_count(), 2);
  EXPECT_TRUE(mesh.is_metal({0, 2}));
  EXPECT_FALSE(mesh.is_metal({1, 1}));
  EXPECT_FALSE(mesh.is_metal({-1, 0}));
  EXPECT_FALSE(mesh.is_metal({0, 3}));
}

TEST(Mesh, OverlappingRectanglesMeshAsTheirUnion) {
  const Mesh joined = make_mesh(layout_of({{0, 0, 3, 2}, {2, 0, 5, 2}}), 0.5);
  const Mesh single = make_mesh(layout_of({{0, 0, 5, 2}}), 0.5);
  EXPECT_EQ(joined.metal_cell_count(), 40);
  EXPECT_EQ(joined.x_rooftop_count(), single.x_rooftop_count());
  EXPECT_EQ(joined.y_rooftop_count(), single.y_rooftop_count());
  EXPECT_EQ(joined.x_rooftop_count(), 9 * 4);
}

// Cell bubbles go where a rooftop joins cells with different edges across: on a 1-row arm
// meeting a 3-row block (cells of 1 mm), the block's bottom-left cell (2, 0) has a low edge in
// y and its left neighbour, the arm, none: a y-bubble; the block's middle-left cell (2, 1) has
// a low edge in x and the cell below it none: an x-bubble. Nothing else (the arm's cells have
// no edge in y, the block's other cells agree with their neighbours), none on a plain block,
// and none when left out.
TEST(Mesh, CellBubblesSitWhereTheEdgesAcrossChange) {
  const Layout step = layout_of({{0, 0, 2, 1}, {2, 0, 4, 3}});
  const Mesh mesh = make_mesh(step, 1.0);
  ASSERT_EQ(mesh.bubble_count(), 2);
  const int rooftops = mesh.x_rooftop_count() + mesh.y_rooftop_count();
  EXPECT_EQ(mesh.x_rooftop_count(), 3 + 1 + 1);
  EXPECT_EQ(mesh.y_rooftop_count(), 2 * 2);
  EXPECT_EQ(mesh.basis().size(), static_cast<std::size_t>(rooftops + 2));
  const Rooftop& y_bubble = mesh.basis()[static_cast<std::size_t>(rooftops)];
  const Rooftop& x_bubble = mesh.basis()[static_cast<std::size_t>(rooftops + 1)];
  EXPECT_TRUE(y_bubble.bubble);
  EXPECT_EQ(y_bubble.axis, Axis::y);
  EXPECT_EQ(y_bubble.minus.i, 2);
  EXPECT_EQ(y_bubble.minus.j, 0);
  EXPECT_EQ(y_bubble.plus.i, 2);
  EXPECT_EQ(y_bubble.plus.j, 0);
  EXPECT_EQ(y_bubble.minus_along, Edge::low);
  EXPECT_EQ(y_bubble.across, Edge::none);
  EXPECT_DOUBLE_EQ(y_bubble.centre.x, 2.5);
  EXPECT_DOUBLE_EQ(y_bubble.centre.y, 0.5);
  EXPECT_TRUE(x_bubble.bubble);
  EXPECT_EQ(x_bubble.axis, Axis::x);
  EXPECT_EQ(x_bubble.minus.i, 2);
  EXPECT_EQ(x_bubble.minus.j, 1);
  EXPECT_EQ(x_bubble.minus_along, Edge::low);
  EXPECT_EQ(x_bubble.across, Edge::none);
  for (int b = 0; b < rooftops; ++b) EXPECT_FALSE(mesh.basis()[static_cast<std::size_t>(b)].bubble);
  // The joint's rooftop is uniform across: the cells it joins differ.
  EXPECT_EQ(mesh.basis()[static_cast<std::size_t>(mesh.x_edge_basis(2, 0))].across, Edge::none);
  EXPECT_EQ(make_mesh(step, 1.0, false).bubble_count(), 0);
  EXPECT_EQ(make_mesh(step, 1.0, false).basis().size(), static_cast<std::size_t>(rooftops));
  EXPECT_EQ(make_mesh(layout_of({{0, 0, 5, 3}}), 1.0).bubble_count(), 0);
  // A T: a 1-column stem on a 2-row block. The block's top row is high-edged in y but for the
  // cell under the stem, so its neighbours (1, 1) and (3, 1) get y-bubbles; the stem's cells
  // have no edge in x.
  const Mesh tee = make_mesh(layout_of({{0, 0, 5, 2}, {2, 2, 3, 4}}), 1.0);
  int y_bubbles = 0, x_bubbles = 0;
  for (const Rooftop& r : tee.basis()) {
    if (!r.bubble) continue;
    (r.axis == Axis::y ? y_bubbles : x_bubbles) += 1;
    EXPECT_EQ(r.minus_along, Edge::high);
    EXPECT_EQ(r.minus.j, 1);
    EXPECT_TRUE(r.minus.i == 1 || r.minus.i == 3) << r.minus.i;
  }
  EXPECT_EQ(y_bubbles, 2);
  EXPECT_EQ(x_bubbles, 0);
}

TEST(Mesh, RectangleNarrowerThanACell) {
  expect_error<GeometryError>(
      [] { (void)make_mesh(layout_of({{0, 0, 4, 5}, {0, 0, 0.1, 5}}), 0.2); },
      "rectangle 1 (x 0..0.1 mm, y 0..5 mm) is narrower than one cell (0.2 mm)");
}

TEST(Mesh, RectangleOffTheGridSuggestsACell) {
  try {
    (void)make_mesh(layout_of({{0, 0, 23, 1.15}}), 0.2);
    FAIL() << "no exception";
  } catch (const GeometryError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("rectangle 0 (x 0..23 mm, y 0..1.15 mm) has y1 = 1.15 mm off the 0.2 mm "
                        "grid (5.75 cells from the origin)"), std::string::npos) << what;
    EXPECT_NE(what.find("a cell of 0.1916666667 mm puts every edge on the grid"),
              std::string::npos) << what;
    EXPECT_EQ(e.item(), Item::rectangle);
    EXPECT_EQ(e.field(), "y1");
  }
}

// Pieces of metal apart (coupled lines, gaps, floating metal) are meshed each with its own
// rooftops, and no rooftop crosses the space between them.
TEST(Mesh, DisconnectedMetalMeshesEachPiece) {
  // Two strips of 4 x 2 cells, a cell apart: each has 3 x 2 rooftops along x and 4 along y.
  const Mesh mesh = make_mesh(layout_of({{0, 0, 4, 2}, {5, 0, 9, 2}}), 1.0);
  EXPECT_EQ(mesh.metal_cell_count(), 16);
  EXPECT_EQ(mesh.basis().size(), 2u * (3 * 2 + 4 * 1));
  for (int j = 0; j < 2; ++j) {
    EXPECT_EQ(mesh.x_edge_basis(4, j), -1);  // the edges of the gap's cells
    EXPECT_EQ(mesh.x_edge_basis(5, j), -1);
  }
  EXPECT_TRUE(mesh.warnings().empty());
  // Three pieces, one of them floating between the others.
  EXPECT_NO_THROW((void)make_mesh(layout_of({{0, 5, 1, 6}, {0, 0, 1, 1}, {0, 2, 1, 3}}), 1.0));
}

// Touching at a corner carries no current: a warning names a rectangle of each piece and the
// corner, once per pair of pieces.
TEST(Mesh, PiecesTouchingOnlyAtACornerAreAWarning) {
  const Mesh up = make_mesh(layout_of({{0, 0, 2, 1}, {2, 1, 4, 2}}), 1.0);
  ASSERT_EQ(up.warnings().size(), 1u);
  EXPECT_EQ(up.warnings()[0],
            "rectangle 0 and rectangle 1 touch only at a corner (x 2, y 1 mm): no current crosses a "
            "corner, so they are solved as two pieces of metal; overlap them by a cell to join "
            "them, or part them");
  const Mesh down = make_mesh(layout_of({{0, 1, 1, 2}, {1, 0, 2, 1}, {0, 4, 1, 5}}), 1.0);
  ASSERT_EQ(down.warnings().size(), 1u);
  EXPECT_NE(down.warnings()[0].find("rectangle 0 and rectangle 1 touch only at a corner (x 1, y 1 mm)"),
            std::string::npos)
      << down.warnings()[0];
  // Joined along an edge as well, the same corner is no warning.
  EXPECT_TRUE(make_mesh(layout_of({{0, 0, 2, 1}, {1, 1, 3, 2}}), 1.0).warnings().empty());
}

TEST(Mesh, CellSizeErrors) {
  expect_error<GeometryError>([] { (void)make_mesh(layout_of({{0, 0, 1, 1}}), -0.1); },
                              "the cell size must be > 0 mm, got -0.1");
  expect_error<GeometryError>([] { (void)make_mesh(layout_of({{0, 0, 100, 100}}), 1e-3); },
                              "a 0.001 mm cell gives 100000 x 100000 cells, more than 100000000");
  expect_error<GeometryError>(
      [] {
        auto bad = layout_of({{0, 0, 1, 1}});
        bad.substrate.height_mm = -1;
        (void)make_mesh(bad, 0.5);
      },
      "substrate height must be > 0 mm, got -1");
}

}  // namespace
}  // namespace pmom::geometry
