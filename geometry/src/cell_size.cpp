// The largest cell size that puts every rectangle edge on a grid line (polygons are staircased
// on any grid).
#include <algorithm>
#include <cmath>

#include "format.hpp"
#include "planarmom/geometry/cell_size.hpp"
#include "planarmom/geometry/error.hpp"

namespace pmom::geometry {

namespace {

// Whether the port's feed runs along x: its edge line is then at its x, else at its y.
// An edge port's feed, or an internal port's current, runs along x: it sits on a vertical line.
bool along_x(const Port& p) {
  if (p.kind == Port::Kind::internal) return p.axis == Axis::x;
  return p.direction == Direction::pos_x || p.direction == Direction::neg_x;
}

double on_grid(double v, double o, double cell) { return o + cell * std::round((v - o) / cell); }

}  // namespace

double largest_dividing_cell(const Layout& layout, double max_cell_mm) {
  if (!(max_cell_mm > 0.0) || !std::isfinite(max_cell_mm)) {
    throw GeometryError("the maximum cell size must be > 0 mm, got " + detail::num(max_cell_mm),
                        Item::mesh);
  }
  const auto [ox, oy] = grid_anchor(layout);
  std::vector<double> offsets;
  for (const auto& r : layout.rects) {
    for (const double d : {r.x0 - ox, r.x1 - ox, r.y0 - oy, r.y1 - oy}) {
      if (d > kGridToleranceMm) offsets.push_back(d);
    }
  }
  for (const LumpedElement& e : layout.lumped)  // each on a grid line too
    if (const double d = e.axis == Axis::x ? e.x_mm - ox : e.y_mm - oy; d > kGridToleranceMm)
      offsets.push_back(d);
  for (const Port& p : layout.ports)  // an internal port as well (an edge port on its edge)
    if (const double d = along_x(p) ? p.x_mm - ox : p.y_mm - oy;
        p.kind == Port::Kind::internal && d > kGridToleranceMm)
      offsets.push_back(d);
  if (offsets.empty()) return max_cell_mm;  // polygons alone: staircased on any grid
  // Any dividing cell divides the smallest offset, so it is smallest / n for an integer n;
  // the first n whose cell fits under the maximum and divides the rest gives the largest.
  const double smallest = *std::min_element(offsets.begin(), offsets.end());
  const double n_first = std::max(1.0, std::ceil(smallest / max_cell_mm - 1e-12));
  constexpr double kMaxRefinement = 1e3;  // finer cells would make N absurd anyway
  for (double n = n_first; n <= n_first * kMaxRefinement; n += 1.0) {
    const double cell = smallest / n;
    if (cell > max_cell_mm) continue;  // rounding in n_first
    const bool divides = std::all_of(offsets.begin(), offsets.end(), [&](double d) {
      return std::abs(d - cell * std::round(d / cell)) <= kGridToleranceMm;
    });
    if (divides) return cell;
  }
  throw GeometryError("no cell size between " + detail::num(max_cell_mm / kMaxRefinement) +
                      " and " + detail::num(max_cell_mm) +
                      " mm puts every rectangle edge on the grid", Item::mesh);
}

namespace {

// The largest cell of a whole number of µm, at most max_cell_mm, on whose grid along one axis
// every rectangle edge and port edge across that axis lies within the snap, every rectangle
// at least min_cells_across cells wide; 0 when none does.
double largest_snapping_side(const Layout& layout, Axis axis, double max_cell_mm, double snap_mm,
                             int min_cells_across) {
  const auto [ox, oy] = grid_anchor(layout);
  const bool x = axis == Axis::x;
  const double o = x ? ox : oy;
  for (auto um = static_cast<long long>(std::floor(max_cell_mm * 1e3 + 1e-9)); um >= 1; --um) {
    const double cell = static_cast<double>(um) * 1e-3;
    const double tolerance = (snap_mm > 0 ? snap_mm : 0.1 * cell) + kGridToleranceMm;
    const auto near = [&](double v) { return std::abs(v - on_grid(v, o, cell)) <= tolerance; };
    bool fits = true;
    for (const Rect& r : layout.rects) {
      const double v0 = x ? r.x0 : r.y0, v1 = x ? r.x1 : r.y1;
      fits = near(v0) && near(v1) &&
             std::abs(on_grid(v1, o, cell) - on_grid(v0, o, cell)) >= (min_cells_across - 0.5) * cell;
      if (!fits) break;
    }
    for (const Port& p : layout.ports) {
      if (!fits) break;
      if (along_x(p) == x) fits = near(x ? p.x_mm : p.y_mm);
    }
    for (const LumpedElement& e : layout.lumped) {
      if (!fits) break;
      if ((e.axis == Axis::x) == x) fits = near(x ? e.x_mm : e.y_mm);
    }
    if (fits) return cell;
  }
  return 0;
}

}  // namespace

CellSize largest_snapping_cell(const Layout& layout, double max_cell_mm, double snap_mm,
                               int min_cells_across) {
  if (!(max_cell_mm >= 1e-3) || !std::isfinite(max_cell_mm))
    throw GeometryError("the maximum cell size must be at least 0.001 mm, got " +
                            detail::num(max_cell_mm), Item::mesh);
  const auto side = [&](Axis axis, double max_mm) {
    const double cell = largest_snapping_side(layout, axis, max_mm, snap_mm, min_cells_across);
    if (cell == 0)
      throw GeometryError("no cell of at least 0.001 mm and at most " + detail::num(max_mm) +
                              " mm along " + (axis == Axis::x ? "x" : "y") +
                              " puts every edge within the snap of a grid line with " +
                              std::to_string(min_cells_across) + " cells across every rectangle",
                          Item::mesh);
    return cell;
  };
  // Each axis its own largest side, the longer at most kMaxCellAspect times the shorter: the
  // shorter first, then the longer again under that bound.
  double dx = side(Axis::x, max_cell_mm), dy = side(Axis::y, max_cell_mm);
  if (dx > kMaxCellAspect * dy) dx = side(Axis::x, kMaxCellAspect * dy);
  if (dy > kMaxCellAspect * dx) dy = side(Axis::y, kMaxCellAspect * dx);
  return {dx, dy};
}

Layout snapped_layout(const Layout& layout, CellSize cell, double snap_mm,
                      std::vector<SnapMove>* moves) {
  const auto [ox, oy] = grid_anchor(layout);
  Layout out = layout;
  const auto snap = [&](double& v, double o, const std::string& what, Item item, int index,
                        const char* field) {
    const bool x = field[0] == 'x';
    const double cell_mm = x ? cell.dx_mm : cell.dy_mm;
    const double limit = snap_mm > 0 ? snap_mm : 0.1 * cell_mm;
    const double to = on_grid(v, o, cell_mm);
    if (std::abs(to - v) <= kGridToleranceMm) {
      v = to;
      return;
    }
    if (std::abs(to - v) > limit + kGridToleranceMm)
      throw GeometryError(what + " " + field + " = " + detail::num(v) + " mm is " +
                              detail::num(std::abs(to - v)) + " mm from the grid of " +
                              detail::num(cell_mm) + " mm cells, more than the snap of " +
                              detail::num(limit) + " mm",
                          item, index, field);
    if (moves) moves->push_back({what + " " + field, v, to});
    v = to;
  };
  for (std::size_t k = 0; k < out.rects.size(); ++k) {
    Rect& r = out.rects[k];
    const std::string what = "rectangle " + std::to_string(k);
    const int index = static_cast<int>(k);
    snap(r.x0, ox, what, Item::rectangle, index, "x0");
    snap(r.x1, ox, what, Item::rectangle, index, "x1");
    snap(r.y0, oy, what, Item::rectangle, index, "y0");
    snap(r.y1, oy, what, Item::rectangle, index, "y1");
  }
  for (std::size_t k = 0; k < out.ports.size(); ++k) {
    Port& p = out.ports[k];
    const bool x = along_x(p);
    snap(x ? p.x_mm : p.y_mm, x ? ox : oy, "port '" + p.name + "'", Item::port,
         static_cast<int>(k), x ? "x" : "y");
  }
  for (std::size_t k = 0; k < out.lumped.size(); ++k) {
    LumpedElement& e = out.lumped[k];
    const bool x = e.axis == Axis::x;
    snap(x ? e.x_mm : e.y_mm, x ? ox : oy, "lumped element '" + e.name + "'", Item::lumped,
         static_cast<int>(k), x ? "x" : "y");
  }
  return out;
}

}  // namespace pmom::geometry
