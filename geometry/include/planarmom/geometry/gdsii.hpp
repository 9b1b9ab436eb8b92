// Layouts from GDSII stream files (`layout: {gds: FILE, cell: NAME, layer: N}`): one cell's
// metal on one layer, as the layout's rectangles. The record format is small and Debian's
// libGDSII neither selects a cell nor reports every malformed file without exiting, so the
// reader is here.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "planarmom/geometry/layout.hpp"

namespace pmom::geometry {

// The rectangles (mm) of cell `cell`'s BOUNDARY polygons and PATHs on layer `layer`: a
// Manhattan polygon cut into rectangles between the y of its vertices (even-odd rule); a path
// into one rectangle per segment, square at its joints, its ends flush (path type 0) or
// extended by half its width (type 2). Coordinates in the file's database units, scaled by its
// UNITS record. Throws GeometryError with one line naming the file and what is wrong: it cannot
// be read or is truncated or malformed; no cell of that name (the cells there listed); nothing
// on the layer (the cell's layers listed); a polygon or path with an edge that is not along x
// or y (its index in the cell and the edge); round or custom path ends; the cell placing other
// cells (SREF, AREF: flatten it in the layout tool).
[[nodiscard]] std::vector<Rect> read_gdsii_layer(const std::filesystem::path& file,
                                                 const std::string& cell, int layer);

}  // namespace pmom::geometry
