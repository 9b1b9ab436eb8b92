// Choosing a cell size that represents a Manhattan layout exactly.
#pragma once

#include <string>
#include <vector>

#include "planarmom/geometry/layout.hpp"
#include "planarmom/geometry/mesh.hpp"

namespace pmom::geometry {

// Coordinates closer than this (mm) to a grid line count as on it.
inline constexpr double kGridToleranceMm = 1e-9;

// The largest cell size <= max_cell_mm that divides every rectangle coordinate, measured from
// the grid's anchor (grid_anchor), to within kGridToleranceMm; max_cell_mm itself when the
// layout has only polygons. A config that gives "cells per
// wavelength" turns the shortest wavelength into max_cell_mm and calls this. Throws
// GeometryError (Item::mesh) when max_cell_mm is not positive or no cell down to
// max_cell_mm / 1000 divides the layout (e.g. coordinates with no common measure).
[[nodiscard]] double largest_dividing_cell(const Layout& layout, double max_cell_mm);

// The longer side of an automatic cell is at most this many times the shorter.
inline constexpr double kMaxCellAspect = 2.0;

// Layouts of any dimension (`mesh: {cell_mm: auto}`): per axis, the largest side of a whole
// number of µm, at most max_cell_mm, on whose grid (from grid_anchor) every
// rectangle edge and every port's edge across that axis lies within snap_mm of a grid line
// (snap_mm <= 0: a tenth of that side) and every rectangle, snapped, is at least
// min_cells_across cells across; the longer side at most kMaxCellAspect times the shorter.
// Square where the layout's x and y edges share a grid. Throws GeometryError (Item::mesh) when
// no side of at least 1 µm does.
[[nodiscard]] CellSize largest_snapping_cell(const Layout& layout, double max_cell_mm,
                                             double snap_mm, int min_cells_across);

// What snapping moved: the rectangle or port, its coordinate, from and to (mm).
struct SnapMove {
  std::string what;
  double from_mm = 0, to_mm = 0;
};
// The layout with every rectangle edge and port edge moved to the nearest line of the grid of
// `cell` from grid_anchor (polygons stay as drawn); `moves` (if given) gets what moved. Throws
// GeometryError at the offending rectangle or port when a move exceeds snap_mm (<= 0: a tenth
// of the cell's side across the edge).
[[nodiscard]] Layout snapped_layout(const Layout& layout, CellSize cell, double snap_mm,
                                    std::vector<SnapMove>* moves = nullptr);

}  // namespace pmom::geometry
