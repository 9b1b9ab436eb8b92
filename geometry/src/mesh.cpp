// Meshing: grid from the bounding box, alignment and width checks, metal cells from the union
// of rectangles and staircased polygons, then the pieces' warnings, basis numbering, ports,
// lumped elements and vias.
#include <algorithm>
#include <cmath>

#include "format.hpp"
#include "mesh_detail.hpp"
#include "planarmom/geometry/cell_size.hpp"
#include "planarmom/geometry/error.hpp"

namespace pmom::geometry {

using detail::num;

namespace {

constexpr double kMaxCells = 1e8;  // a typo in the cell size should not exhaust memory

// Grid lines from the origin to `value`, or NaN when `value` is off the grid.
double grid_steps(double value, double origin, double cell) {
  const double steps = (value - origin) / cell;
  return std::abs(value - origin - std::round(steps) * cell) <= kGridToleranceMm
             ? std::round(steps)
             : std::nan("");
}

void check_rect_on_grid(const Layout& layout, int index, const Grid& grid) {
  const Rect& r = layout.rects[static_cast<std::size_t>(index)];
  if (r.x1 - r.x0 < grid.dx_mm - kGridToleranceMm || r.y1 - r.y0 < grid.dy_mm - kGridToleranceMm) {
    throw GeometryError(describe_rect(r, index) + " is narrower than one cell (" +
                        cell_text(grid.cell()) + " mm)", Item::rectangle, index);
  }
  const struct { const char* name; double value, origin, cell; } coords[] = {
      {"x0", r.x0, grid.x0, grid.dx_mm}, {"x1", r.x1, grid.x0, grid.dx_mm},
      {"y0", r.y0, grid.y0, grid.dy_mm}, {"y1", r.y1, grid.y0, grid.dy_mm}};
  for (const auto& c : coords) {
    if (!std::isnan(grid_steps(c.value, c.origin, c.cell))) continue;
    std::string hint;
    try {
      hint = "; a cell of " + num(largest_dividing_cell(layout, c.cell)) +
             " mm puts every edge on the grid";
    } catch (const GeometryError&) {
      hint = "; no cell size near it divides the layout";
    }
    throw GeometryError(describe_rect(r, index) + " has " + c.name + " = " + num(c.value) +
                        " mm off the " + num(c.cell) + " mm grid (" +
                        num((c.value - c.origin) / c.cell) + " cells from the origin)" + hint,
                        Item::rectangle, index, c.name);
  }
}

// The grid from the anchor (grid_anchor) over the bounding box of every rectangle and polygon,
// whole cells each way.
Grid layout_grid(const Layout& layout, CellSize cell) {
  const Point anchor = grid_anchor(layout);
  double x0 = anchor.x, y0 = anchor.y, x1 = anchor.x, y1 = anchor.y;
  const auto cover = [&](double x, double y) {
    x0 = std::min(x0, x), y0 = std::min(y0, y), x1 = std::max(x1, x), y1 = std::max(y1, y);
  };
  for (const Rect& r : layout.rects) cover(r.x0, r.y0), cover(r.x1, r.y1);
  for (const Polygon& p : layout.polygons)
    for (const auto& ring : p.rings)
      for (const Point& v : ring) cover(v.x, v.y);
  // Whole cells from the anchor, down to x0 and up to x1, within the grid's tolerance.
  const auto cells = [](double span, double side) {
    return std::ceil(span / side - kGridToleranceMm / side);
  };
  const double below_x = cells(anchor.x - x0, cell.dx_mm), below_y = cells(anchor.y - y0, cell.dy_mm);
  Grid grid;
  grid.dx_mm = cell.dx_mm;
  grid.dy_mm = cell.dy_mm;
  grid.x0 = anchor.x - below_x * cell.dx_mm;
  grid.y0 = anchor.y - below_y * cell.dy_mm;
  const double nx = below_x + cells(x1 - anchor.x, cell.dx_mm);
  const double ny = below_y + cells(y1 - anchor.y, cell.dy_mm);
  // Each count on its own too: a span that overflows to inf times a count of 0 passes the product.
  if (!(nx <= kMaxCells && ny <= kMaxCells && nx * ny <= kMaxCells)) {
    throw GeometryError("a " + cell_text(cell) + " mm cell gives " + num(nx) + " x " + num(ny) +
                        " cells, more than " + num(kMaxCells), Item::mesh);
  }
  grid.nx = static_cast<int>(nx);
  grid.ny = static_cast<int>(ny);
  return grid;
}

}  // namespace

namespace detail {

CellRange cells_of(const Grid& grid, const Rect& r) {
  return {static_cast<int>(grid_steps(r.x0, grid.x0, grid.dx_mm)),
          static_cast<int>(grid_steps(r.x1, grid.x0, grid.dx_mm)),
          static_cast<int>(grid_steps(r.y0, grid.y0, grid.dy_mm)),
          static_cast<int>(grid_steps(r.y1, grid.y0, grid.dy_mm))};
}

}  // namespace detail

std::string cell_text(CellSize cell) {
  return cell.square() ? num(cell.dx_mm) : num(cell.dx_mm) + " x " + num(cell.dy_mm);
}

namespace {

// The layout with every layer an interface number and its substrate seen from the lowest
// interface with metal (Substrate::with_strips_on): what the mesh keeps, so that a one-layer
// layout on any interface is the board's strips for everything that reads the substrate.
Layout on_lowest_metal(const Layout& drawn) {
  Layout layout = drawn;
  const Substrate& s = drawn.substrate;
  for (Rect& r : layout.rects) r.layer = s.interface_of(r.layer);
  for (Polygon& p : layout.polygons) p.layer = s.interface_of(p.layer);
  for (Port& p : layout.ports) p.layer = s.interface_of(p.layer);
  layout.substrate = s.with_strips_on(metal_interfaces(drawn).front());
  return layout;
}

}  // namespace

Mesh make_mesh(const Layout& drawn, CellSize cell, bool cell_bubbles) {
  validate(drawn);
  const Layout layout = on_lowest_metal(drawn);
  validate_board(layout);  // what the strips' new place allows (vias through the layers under it)
  for (const double side : {cell.dx_mm, cell.dy_mm})
    if (!(side > 0.0) || !std::isfinite(side)) {
      throw GeometryError("the cell size must be > 0 mm, got " + num(side), Item::mesh, -1,
                          "cell_mm");
    }
  const Grid grid = layout_grid(layout, cell);
  for (std::size_t r = 0; r < layout.rects.size(); ++r) {
    check_rect_on_grid(layout, static_cast<int>(r), grid);
  }

  // The interfaces that hold metal, and per interface: a cell is metal when its centre lies in
  // the union of its shapes; with a rectangle's edges on grid lines that is "the cell lies in
  // its cell range".
  std::vector<int> layers = metal_interfaces(layout);
  const std::size_t plane = static_cast<std::size_t>(grid.nx) * static_cast<std::size_t>(grid.ny);
  std::vector<std::uint8_t> metal(plane * layers.size(), 0);
  std::vector<std::string> warnings;
  std::vector<std::uint8_t> raster(plane);
  for (std::size_t l = 0; l < layers.size(); ++l) {
    std::fill(raster.begin(), raster.end(), 0);
    for (const auto& r : layout.rects) {
      if (layout.substrate.interface_of(r.layer) != layers[l]) continue;
      const detail::CellRange c = detail::cells_of(grid, r);
      for (int j = c.j0; j < c.j1; ++j) {
        std::fill_n(raster.begin() + static_cast<std::ptrdiff_t>(j) * grid.nx + c.i0, c.i1 - c.i0, 1);
      }
    }
    for (std::size_t p = 0; p < layout.polygons.size(); ++p) {
      const Polygon& polygon = layout.polygons[p];
      if (layout.substrate.interface_of(polygon.layer) != layers[l]) continue;
      if (detail::fill_polygon(grid, polygon, raster) == 0) {
        throw GeometryError(describe_polygon(polygon, static_cast<int>(p)) +
                            " covers no cell centre of the " + cell_text(cell) +
                            " mm grid: it is narrower than a cell", Item::polygon, static_cast<int>(p));
      }
    }
    for (auto& w : detail::connectivity_warnings(layout, grid, raster, layers[l]))
      warnings.push_back(layers.size() > 1 ? "layer " + std::to_string(layers[l]) + ": " + w
                                           : std::move(w));
    std::copy(raster.begin(), raster.end(), metal.begin() + static_cast<std::ptrdiff_t>(l * plane));
  }
  for (auto& w : detail::staircase_warnings(layout, grid)) warnings.push_back(std::move(w));

  Mesh mesh(layout, grid, std::move(layers), std::move(metal), cell_bubbles);
  mesh.ports_ = detail::locate_ports(mesh);
  mesh.lumped_ = detail::locate_lumped(mesh);
  mesh.vias_ = detail::locate_vias(mesh, warnings);
  for (const MeshVia& v : mesh.vias_) mesh.via_cells_ += static_cast<int>(v.cells.size());
  mesh.warnings_ = std::move(warnings);
  return mesh;
}

}  // namespace pmom::geometry
