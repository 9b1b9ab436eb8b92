// Steps of make_mesh shared between its source files.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "planarmom/geometry/error.hpp"
#include "planarmom/geometry/mesh.hpp"

namespace pmom::geometry::detail {

// 4-neighbour connected components of the cells whose mask entry equals `value`; other cells
// get -1. Labels count from 0 in row-major order of each component's first cell.
struct Components {
  std::vector<int> label;  // nx*ny, row-major by (j, i)
  int count = 0;
};
[[nodiscard]] Components label_components(const Grid& grid,
                                          const std::vector<std::uint8_t>& mask,
                                          std::uint8_t value);

// The pieces of metal of one interface (`metal`: its raster) that look like drawing errors, one
// line each (Mesh::warnings): two pieces touching only at a corner, named by a rectangle of
// each; a piece of one cell.
[[nodiscard]] std::vector<std::string> connectivity_warnings(const Layout& layout,
                                                             const Grid& grid,
                                                             const std::vector<std::uint8_t>& metal,
                                                             int interface);

// One line for each polygon that runs mostly at an angle to the grid on too few cells across
// for its staircase to be accurate (a first-order error in its electrical length).
[[nodiscard]] std::vector<std::string> staircase_warnings(const Layout& layout, const Grid& grid);

// Locates every port of mesh.layout() on the mesh (see MeshPort), or throws GeometryError.
[[nodiscard]] std::vector<MeshPort> locate_ports(const Mesh& mesh);
// Locates every lumped element of mesh.layout() (see MeshLumped), or throws GeometryError;
// needs the mesh's ports located.
[[nodiscard]] std::vector<MeshLumped> locate_lumped(const Mesh& mesh);
// Locates every via of mesh.layout() (see MeshVia), or throws GeometryError (Item::via): a cell
// of its footprint bare or off the grid, a cell on an edge port's feed, a cell of another via.
// Needs the mesh's ports located; appends a warning for each via narrower than a cell.
[[nodiscard]] std::vector<MeshVia> locate_vias(const Mesh& mesh,
                                               std::vector<std::string>& warnings);

// The gap across the strip on the grid line through (x, y) whose current runs along `axis`, or
// GeometryError(item, index) starting with `name`: off the grid, not inside the metal, across
// a strip of one cell.
[[nodiscard]] GapLine locate_gap_line(const Mesh& mesh, double x_mm, double y_mm, Axis axis,
                                      const std::string& name, Item item, int index);
// The rectangle (mm) of an edge port's feed: from its edge past its last sample, across its
// width. Nothing may sit on it but metal (its gap and the de-embedding's samples need a uniform
// line).
struct Box {
  double x0, x1, y0, y1;
};
[[nodiscard]] Box feed_box(const Mesh& mesh, const MeshPort& port);
// "port 'P1''s feed line (...): move it past the feed's end or shorten feed_length_mm", what a
// message names an edge port's feed by when something sits on it.
[[nodiscard]] std::string feed_line_text(const Mesh& mesh, const MeshPort& port);

// What gap `l` must not sit on and does, named for a message ("" if nothing): an edge port's
// feed, an internal port's gap, a lumped element's.
[[nodiscard]] std::string gap_occupant(const Mesh& mesh, std::span<const MeshPort> ports,
                                       std::span<const MeshLumped> lumped, const GapLine& l);

// The cells rectangle r covers; its edges lie on grid lines (checked before).
struct CellRange {
  int i0, i1, j0, j1;  // half-open
};
[[nodiscard]] CellRange cells_of(const Grid& grid, const Rect& r);

// Marks the cells of `metal` (nx*ny, row-major) whose centre lies inside the polygon; returns how
// many cells that is.
int fill_polygon(const Grid& grid, const Polygon& polygon, std::vector<std::uint8_t>& metal);

}  // namespace pmom::geometry::detail
