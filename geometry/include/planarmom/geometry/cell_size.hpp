// Choosing a cell size that represents a Manhattan layout exactly.
#pragma once

#include <vector>

#include "planarmom/geometry/layout.hpp"

namespace pmom::geometry {

// Coordinates closer than this (mm) to a grid line count as on it.
inline constexpr double kGridToleranceMm = 1e-9;

// The largest cell size <= max_cell_mm that divides every rectangle coordinate, measured from
// the layout's lower-left corner, to within kGridToleranceMm. A config that gives "cells per
// wavelength" turns the shortest wavelength into max_cell_mm and calls this. Throws
// GeometryError (Item::mesh) when max_cell_mm is not positive or no cell down to
// max_cell_mm / 1000 divides the layout (e.g. coordinates with no common measure).
[[nodiscard]] double largest_dividing_cell(const std::vector<Rect>& rects, double max_cell_mm);

}  // namespace pmom::geometry
