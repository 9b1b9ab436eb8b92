// The near entries' static 1/R parts kept on disk between processes. They depend on two shapes,
// an offset, the cells' aspect and the quadrature order only (not on frequency, board or cell
// size), and computing them was most of a table plan's time (docs/PERFORMANCE.md v0.35). One
// binary file per order and aspect, written to a temporary file renamed into place; a damaged or
// foreign file is a miss, never a wrong value.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace pmom::mom {

// Where make_table_plan reads the stored parts and writes those it computed; an empty folder
// (the default) keeps them in the process's memory only.
void store_static_near_parts(std::filesystem::path folder);

// The files that could not be written since the last call: their parts are used, not kept.
[[nodiscard]] std::vector<std::string> static_near_write_failures();

}  // namespace pmom::mom
