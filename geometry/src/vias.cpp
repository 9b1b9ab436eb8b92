// Vias on the mesh: the cells of each via's footprint, and what a via must not reach (bare
// cells, edge ports' feed lines, another via's cells).
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <utility>

#include "format.hpp"
#include "mesh_detail.hpp"
#include "planarmom/geometry/cell_size.hpp"
#include "planarmom/geometry/error.hpp"

namespace pmom::geometry::detail {

namespace {

Point centre_of(const Grid& g, Cell c) {
  return {g.x_line(c.i) + 0.5 * g.dx_mm, g.y_line(c.j) + 0.5 * g.dy_mm};
}

// "(3.5, 1.1) mm": a cell by its centre, as messages name it. Appended: "(" + std::string trips
// a false -Wrestrict in GCC 12 (PR 105329).
std::string cell_at(const Grid& g, Cell c) {
  const Point p = centre_of(g, c);
  std::string text = "(";
  text += num(p.x);
  text += ", ";
  text += num(p.y);
  text += ") mm";
  return text;
}

// The cells whose centre lies inside the via's disk, row-major by (j, i); else the one cell
// holding its centre (on the high side of a grid line it sits on). Cells just outside the grid
// are among them where the disk reaches there (the caller finds them off the metal).
std::vector<Cell> footprint(const Grid& g, const Via& via) {
  const double r = 0.5 * via.diameter_mm;
  // A centre on the circle is outside (distance < r), whatever the rounding.
  const double r2 = r * r - kGridToleranceMm * r;
  // Bounds of the cells whose centre lies in [centre - r, centre + r], clamped to one cell beyond
  // the grid (a cell there is off the metal) while still doubles, so that no cast overflows.
  const auto span = [r](double centre, double origin, double side, int n) {
    const double lo = std::floor((centre - r - origin) / side - 0.5);
    const double hi = std::ceil((centre + r - origin) / side - 0.5);
    return std::pair{static_cast<int>(std::clamp(lo, -1.0, n + 1.0)),
                     static_cast<int>(std::clamp(hi, -2.0, static_cast<double>(n)))};
  };
  const auto [i0, i1] = span(via.x_mm, g.x0, g.dx_mm, g.nx);
  const auto [j0, j1] = span(via.y_mm, g.y0, g.dy_mm, g.ny);
  std::vector<Cell> cells;
  for (int j = j0; j <= j1; ++j) {
    for (int i = i0; i <= i1; ++i) {
      const Point c = centre_of(g, {i, j});
      const double ex = c.x - via.x_mm, ey = c.y - via.y_mm;
      if (ex * ex + ey * ey < r2) cells.push_back({i, j});
    }
  }
  if (!cells.empty()) return cells;
  // Clamped to a cell beyond the grid either way, as above.
  const auto holding = [](double centre, double origin, double side, int n) {
    const double k = std::floor((centre - origin + kGridToleranceMm) / side);
    return static_cast<int>(std::clamp(k, -1.0, static_cast<double>(n)));
  };
  return {{holding(via.x_mm, g.x0, g.dx_mm, g.nx), holding(via.y_mm, g.y0, g.dy_mm, g.ny)}};
}

bool in_box(const Box& b, Point p) {
  return p.x > b.x0 && p.x < b.x1 && p.y > b.y0 && p.y < b.y1;
}

}  // namespace

std::vector<MeshVia> locate_vias(const Mesh& mesh, std::vector<std::string>& warnings) {
  const Grid& g = mesh.grid();
  const auto& vias = mesh.layout().vias;
  std::vector<MeshVia> placed;
  std::map<std::tuple<int, int>, int> owner;  // (j, i) -> the via whose cell it is
  for (std::size_t v = 0; v < vias.size(); ++v) {
    const Via& via = vias[v];
    const int index = static_cast<int>(v);
    const std::string name = "via '" + via.name + "' at (" + num(via.x_mm) + ", " +
                             num(via.y_mm) + ") mm";
    const auto fail = [&](const std::string& what) {
      throw GeometryError(name + " " + what, Item::via, index);
    };
    MeshVia mv{index, footprint(g, via)};
    for (const Cell c : mv.cells) {
      if (!mesh.is_metal(c))
        fail("reaches off the metal: its footprint's cell " + cell_at(g, c) +
             " is bare; move it onto the metal or draw a pad under it (a via needs metal on "
             "every cell whose centre lies within its diameter)");
      for (const MeshPort& p : mesh.ports())
        if (!p.internal && in_box(feed_box(mesh, p), centre_of(g, c)))
          fail("sits on " + feed_line_text(mesh, p));
      const auto [at, fresh] = owner.try_emplace({c.j, c.i}, index);
      if (!fresh)
        fail("shares the cell " + cell_at(g, c) + " with via '" +
             vias[static_cast<std::size_t>(at->second)].name +
             "': part them by a cell or draw them as one via");
    }
    if (mv.cells.size() == 1 && via.diameter_mm < std::max(g.dx_mm, g.dy_mm))
      warnings.push_back("via '" + via.name + "' (" + num(via.diameter_mm) +
                         " mm) is narrower than the cell (" + cell_text(g.cell()) +
                         " mm): it is modelled as one cell's column");
    placed.push_back(std::move(mv));
  }
  return placed;
}

}  // namespace pmom::geometry::detail
