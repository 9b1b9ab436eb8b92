// A picture of a meshed layout for checking inputs by eye.
#pragma once

#include <filesystem>
#include <string>

#include "planarmom/geometry/mesh.hpp"

namespace pmom::geometry {

// SVG (y up, as in the layout): metal cells filled, grid lines, rectangles outlined, each port
// as an arrow along its feed direction with its name, its delta-gap edges in red and its
// reference plane dashed, and a scale bar in mm.
[[nodiscard]] std::string svg_text(const Mesh& mesh);
// Writes svg_text to `path`; throws std::runtime_error naming the file when it cannot.
void write_svg(const Mesh& mesh, const std::filesystem::path& path);

}  // namespace pmom::geometry
