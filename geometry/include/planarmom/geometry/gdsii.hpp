// Layouts from GDSII stream files (`layout: {gds: FILE, cell: NAME, layer: N}`): one cell's
// metal on one layer, as the layout's rectangles and polygons. The record format is small and Debian's
// libGDSII neither selects a cell nor reports every malformed file without exiting, so the
// reader is here.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "planarmom/geometry/layout.hpp"

namespace pmom::geometry {

// A cell's metal on one layer: its Manhattan part as rectangles (on the grid like drawn ones),
// the rest as polygons (staircased).
struct GdsShapes {
  std::vector<Rect> rects;
  std::vector<Polygon> polygons;
};

// The shapes (mm) of cell `cell`'s BOUNDARY polygons and PATHs on layer `layer`: a Manhattan
// polygon cut into rectangles between the y of its vertices (even-odd rule), any other a
// polygon; a Manhattan path with flush (type 0) or square (type 2, extended by half its width)
// ends into one rectangle per segment, square at its joints, any other path (any angle, or
// round ends, type 1) its outline (path_outline, mitred joints). Coordinates in the file's
// database units, scaled by its UNITS record. Throws GeometryError with one line naming the
// file and what is wrong: it cannot be read or is truncated or malformed; no cell of that name
// (the cells there listed); nothing on the layer (the cell's layers listed); a polygon of fewer
// than 4 vertices or a path of fewer than 2 points or no width (its index in the cell); custom
// path ends; the cell placing other cells (SREF, AREF: flatten it in the layout tool).
[[nodiscard]] GdsShapes read_gdsii_layer(const std::filesystem::path& file, const std::string& cell,
                                         int layer);

}  // namespace pmom::geometry
