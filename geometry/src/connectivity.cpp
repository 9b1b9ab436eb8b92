// Connected pieces of metal: a circuit whose metal falls apart is almost always a typo.
#include <algorithm>
#include <set>
#include <string>

#include "mesh_detail.hpp"
#include "planarmom/geometry/error.hpp"

namespace pmom::geometry::detail {

Components label_components(const Grid& grid, const std::vector<std::uint8_t>& mask,
                            std::uint8_t value) {
  Components result;
  result.label.assign(mask.size(), -1);
  const auto at = [&](int i, int j) {
    return static_cast<std::size_t>(j) * static_cast<std::size_t>(grid.nx) +
           static_cast<std::size_t>(i);
  };
  std::vector<Cell> stack;
  for (int j = 0; j < grid.ny; ++j) {
    for (int i = 0; i < grid.nx; ++i) {
      if (mask[at(i, j)] != value || result.label[at(i, j)] >= 0) continue;
      const int id = result.count++;
      result.label[at(i, j)] = id;
      stack.push_back({i, j});
      while (!stack.empty()) {
        const Cell c = stack.back();
        stack.pop_back();
        for (const Cell n : {Cell{c.i - 1, c.j}, Cell{c.i + 1, c.j}, Cell{c.i, c.j - 1},
                             Cell{c.i, c.j + 1}}) {
          if (!grid.contains(n) || mask[at(n.i, n.j)] != value || result.label[at(n.i, n.j)] >= 0) {
            continue;
          }
          result.label[at(n.i, n.j)] = id;
          stack.push_back(n);
        }
      }
    }
  }
  return result;
}

void check_connected(const Layout& layout, const Grid& grid,
                     const std::vector<std::uint8_t>& metal) {
  const Components pieces = label_components(grid, metal, 1);
  if (pieces.count <= 1) return;
  // A rectangle is at least one cell wide, so all its cells share one label: its first cell's.
  std::vector<std::set<int>> rects_of(static_cast<std::size_t>(pieces.count));
  for (std::size_t r = 0; r < layout.rects.size(); ++r) {
    const CellRange cells = cells_of(grid, layout.rects[r]);
    const auto first = static_cast<std::size_t>(cells.j0) * static_cast<std::size_t>(grid.nx) +
                       static_cast<std::size_t>(cells.i0);
    rects_of[static_cast<std::size_t>(pieces.label[first])].insert(static_cast<int>(r));
  }
  // Pieces in the order of their lowest rectangle, the order a user reads the layout in.
  std::sort(rects_of.begin(), rects_of.end(),
            [](const auto& a, const auto& b) { return *a.begin() < *b.begin(); });
  std::string message = "the metal has " + std::to_string(pieces.count) +
                        " disconnected pieces: rectangles ";
  for (std::size_t p = 0; p < rects_of.size(); ++p) {
    if (p > 0) message += p + 1 == rects_of.size() ? " and " : ", ";
    message += '{';
    for (const int r : rects_of[p]) {
      if (r != *rects_of[p].begin()) message += ',';
      message += std::to_string(r);
    }
    message += '}';
  }
  throw GeometryError(message + " (pieces touching only at a corner are not connected)");
}

}  // namespace pmom::geometry::detail
