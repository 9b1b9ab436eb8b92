// The pieces of metal (any number are solved: coupled lines, gaps, floating metal), and the
// warnings for pieces that touch only at a corner, which is almost always a drawing error.
#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "format.hpp"
#include "mesh_detail.hpp"

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

namespace {

// The first rectangle on the interface that covers the cell, else the first polygon
// ("rectangle 2", "polygon 0").
std::string shape_of(const Layout& layout, const Grid& grid, Cell c, int interface) {
  const Substrate& s = layout.substrate;
  for (std::size_t r = 0; r < layout.rects.size(); ++r) {
    if (s.interface_of(layout.rects[r].layer) != interface) continue;
    const CellRange cells = cells_of(grid, layout.rects[r]);
    if (c.i >= cells.i0 && c.i < cells.i1 && c.j >= cells.j0 && c.j < cells.j1)
      return "rectangle " + std::to_string(r);
  }
  const Point centre{grid.x_line(c.i) + 0.5 * grid.dx_mm, grid.y_line(c.j) + 0.5 * grid.dy_mm};
  for (std::size_t p = 0; p < layout.polygons.size(); ++p)
    if (s.interface_of(layout.polygons[p].layer) == interface && contains(layout.polygons[p], centre))
      return "polygon " + std::to_string(p);
  return "a shape";
}

}  // namespace

std::vector<std::string> connectivity_warnings(const Layout& layout, const Grid& grid,
                                               const std::vector<std::uint8_t>& metal,
                                               int interface) {
  const Components pieces = label_components(grid, metal, 1);
  const auto label = [&](Cell c) {
    return grid.contains(c) ? pieces.label[static_cast<std::size_t>(c.j) *
                                               static_cast<std::size_t>(grid.nx) +
                                           static_cast<std::size_t>(c.i)]
                            : -1;
  };
  std::set<std::pair<int, int>> reported;  // pairs of pieces
  std::set<std::string> staircased;        // shapes split by their own staircase
  std::vector<std::string> warnings;
  for (int j = 0; j < grid.ny; ++j) {
    for (int i = 0; i < grid.nx; ++i) {
      const int a = label({i, j});
      if (a < 0) continue;
      // Diagonal neighbours up and down to the right; two cells of different pieces there share
      // a corner and nothing else (a metal cell beside both would join them).
      for (const int dj : {1, -1}) {
        const int b = label({i + 1, j + dj});
        if (b < 0 || b == a || !reported.insert({std::min(a, b), std::max(a, b)}).second) continue;
        const std::string first = shape_of(layout, grid, {i, j}, interface);
        const std::string second = shape_of(layout, grid, {i + 1, j + dj}, interface);
        const std::string corner = " (x " + num(grid.x_line(i + 1)) + ", y " +
                                   num(grid.y_line(dj > 0 ? j + 1 : j)) + " mm)";
        if (first == second && !staircased.insert(first).second) continue;  // once per shape
        warnings.push_back(
            first == second
                ? first + " is staircased into pieces that touch only at a corner" + corner +
                      ": it is too narrow for the " + cell_text(grid.cell()) +
                      " mm cell there, and no current crosses a corner; use a smaller cell"
                : first + " and " + second + " touch only at a corner" + corner +
                      ": no current crosses a corner, so they are solved as two pieces of "
                      "metal; overlap them by a cell to join them, or part them");
      }
    }
  }
  return warnings;
}

}  // namespace pmom::geometry::detail
