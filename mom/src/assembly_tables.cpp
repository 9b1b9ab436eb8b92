// The static 1/R integrals of near offsets (analytic inner integral, graded Gauss outer one),
// the mesh's basis functions as the entry kernel sees them, and the tables' host view
// (assembly.hpp; the tables themselves: table_plan.cpp).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/constants.hpp"
#include "planarmom/mom/edge_profile.hpp"
#include "planarmom/mom/gauss_legendre.hpp"
#include "kinds.hpp"

namespace pmom::mom {
namespace {

using cd = std::complex<double>;
using geometry::Edge;

// The rule with nodes pushed towards both panel ends by u = t²(3 − 2t), du = 6t(1 − t) dt,
// for integrands with (u − e) ln|u − e| behaviour at the ends.
GaussRule graded_rule(int n) {
  GaussRule rule = gauss_legendre(n);
  for (std::size_t k = 0; k < rule.x.size(); ++k) {
    const double t = rule.x[k];
    rule.x[k] = t * t * (3.0 - 2.0 * t);
    rule.w[k] *= 6.0 * t * (1.0 - t);
  }
  return rule;
}

// Observer quadrature points in one dimension: the observer's pieces cut at the ends of the
// source's pieces (shifted by the offset), a graded rule on each part, weights times the
// observer's density there.
WeightRule observer_points(std::span<const ShapePiece> obs, std::span<const ShapePiece> src,
                           double shift, const GaussRule& rule) {
  WeightRule points;
  for (const ShapePiece& o : obs) {
    std::vector<double> cuts{o.t0, o.t1};
    for (const ShapePiece& s : src) {
      for (const double e : {shift + s.t0, shift + s.t1}) {
        if (e > o.t0 && e < o.t1) cuts.push_back(e);
      }
    }
    std::sort(cuts.begin(), cuts.end());
    for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
      const double width = cuts[k + 1] - cuts[k];
      if (width <= 0.0) continue;
      for (std::size_t q = 0; q < rule.x.size(); ++q) {
        const double t = cuts[k] + width * rule.x[q];
        points.t.push_back(t);
        points.w.push_back(width * rule.w[q] * o.at(t));
      }
    }
  }
  return points;
}

// ∫ src(x') dx'/R-type inner integral over the source rectangles in closed form: density
// linear along x (α + β X in X = x' − x) and constant across, for the observer at (x, y);
// R = √(X² + (ηY)²), so the rectangle is η times as tall in the closed forms' Y = ηy and the
// sum is 1/η times theirs.
double inner_static(std::span<const ShapePiece> src_x, std::span<const ShapePiece> src_y, int di,
                    int dj, double x, double y, double eta) {
  double inner = 0.0;
  for (const ShapePiece& sx : src_x) {
    const double x1 = di + sx.t0 - x, x2 = di + sx.t1 - x;
    const double slope = (sx.d1 - sx.d0) / (sx.t1 - sx.t0);
    const double alpha = sx.d0 - slope * x1;  // density at X = 0
    for (const ShapePiece& sy : src_y) {
      const double y1 = eta * (dj + sy.t0 - y), y2 = eta * (dj + sy.t1 - y);
      inner += sy.d0 * (alpha * rect_inv_r(x1, x2, y1, y2) +
                        (slope != 0.0 ? slope * rect_x_over_r(x1, x2, y1, y2) : 0.0));
    }
  }
  return inner / eta;
}

double static_overlap(std::span<const ShapePiece> obs_x, std::span<const ShapePiece> obs_y,
                      std::span<const ShapePiece> src_x, std::span<const ShapePiece> src_y, int di,
                      int dj, int outer_order, double eta) {
  const GaussRule rule = graded_rule(outer_order);
  const WeightRule xs = observer_points(obs_x, src_x, di, rule);
  const WeightRule ys = observer_points(obs_y, src_y, dj, rule);
  double sum = 0.0;
  for (std::size_t a = 0; a < xs.t.size(); ++a)
    for (std::size_t b = 0; b < ys.t.size(); ++b)
      sum += xs.w[a] * ys.w[b] * inner_static(src_x, src_y, di, dj, xs.t[a], ys.t[b], eta);
  return sum;
}

}  // namespace

double static_cell_overlap(int di, int dj, int outer_order, CellProfile obs, CellProfile src,
                           double eta) {
  return static_overlap(profile_pieces(obs.x), profile_pieces(obs.y), profile_pieces(src.x),
                        profile_pieces(src.y), di, dj, outer_order, eta);
}

double static_rooftop_overlap(int di, int dj, int outer_order, RooftopShape obs, RooftopShape src,
                              double eta) {
  return static_overlap(ramp_pieces(obs.minus, obs.plus), profile_pieces(obs.across),
                        ramp_pieces(src.minus, src.plus), profile_pieces(src.across), di, dj,
                        outer_order, eta);
}

Reach reach_of(const AssemblyOptions& options, double dx, double dy, int di, int dj) {
  const double longer = std::max(dx, dy);
  const double distance = std::hypot(dx / longer * di, dy / longer * dj);
  if (distance < options.near_cells) return Reach::near;
  if (distance < options.distant_cells) return Reach::far;
  return distance < options.remote_cells ? Reach::distant : Reach::remote;
}

double required_rho_max(const geometry::Grid& grid) {
  // The rooftop overlap reaches two cells beyond the edge offset along its axis. (Square cells
  // keep the product they always had: the Green's table's nodes follow from it.)
  if (grid.square()) return grid.dx_mm * 1e-3 * std::hypot(grid.nx + 1.0, grid.ny + 1.0);
  return 1e-3 * std::hypot(grid.dx_mm * (grid.nx + 1.0), grid.dy_mm * (grid.ny + 1.0));
}

namespace {

// A rooftop of a shape on the edge after its minus cell along the axis.
RooftopCells rooftop_term(geometry::Axis axis, geometry::Cell minus, const RooftopShape& shape) {
  const bool x = axis == geometry::Axis::x;
  // Its charge in each cell: the ramp's profile along the axis, its profile across.
  const int minus_charge = x ? charge_kind(shape.minus, shape.across)
                             : charge_kind(shape.across, shape.minus);
  const int plus_charge = x ? charge_kind(shape.plus, shape.across)
                            : charge_kind(shape.across, shape.plus);
  return {x ? 0 : 1, minus.i, minus.j, rooftop_kind(shape), minus_charge, plus_charge};
}

// A cell bubble as two rooftops (RooftopCells): on the cell's metal side along the axis (a
// low edge has the metal on the high side, so the cell is the rooftops' minus cell), the one
// with the cell's edge profile minus the one uniform along, both with the cell's profile
// across; the other cell's half is the same in both.
RooftopCells bubble_terms(const geometry::Mesh& mesh, const geometry::Rooftop& b,
                          bool edge_profiles) {
  const bool x = b.axis == geometry::Axis::x;
  const bool low = b.minus_along == Edge::low;
  const int di = x ? 1 : 0, dj = x ? 0 : 1;
  const geometry::Cell minus = low ? b.minus : geometry::Cell{b.minus.i - di, b.minus.j - dj};
  const geometry::Cell other = low ? geometry::Cell{b.minus.i + di, b.minus.j + dj} : minus;
  const Edge outer =
      edge_profiles ? (x ? mesh.x_edge_of(other, b.layer) : mesh.y_edge_of(other, b.layer))
                    : Edge::none;
  const Edge across = edge_profiles ? b.across : Edge::none;
  const auto shape = [&](Edge own) {
    return low ? RooftopShape{own, outer, across} : RooftopShape{outer, own, across};
  };
  RooftopCells c = rooftop_term(b.axis, minus, shape(edge_profiles ? b.minus_along : Edge::none));
  const RooftopCells u = rooftop_term(b.axis, minus, shape(Edge::none));
  c.kind2 = u.kind;
  c.minus_charge2 = u.minus_charge;
  c.plus_charge2 = u.plus_charge;
  return c;
}

}  // namespace

std::vector<RooftopCells> rooftop_cells(const geometry::Mesh& mesh, bool edge_profiles) {
  std::vector<RooftopCells> cells;
  cells.reserve(mesh.basis().size());
  for (const geometry::Rooftop& r : mesh.basis()) {
    if (r.bubble) {
      cells.push_back(bubble_terms(mesh, r, edge_profiles));
      continue;
    }
    const RooftopShape shape = edge_profiles
                                   ? RooftopShape{r.minus_along, r.plus_along, r.across}
                                   : RooftopShape{};
    cells.push_back(rooftop_term(r.axis, r.minus, shape));
  }
  return cells;
}

TableView host_view(const InteractionTables& tables, int pair) {
  const double omega = 2.0 * pi * tables.frequency_hz;
  return {tables.values.data() + static_cast<std::ptrdiff_t>(pair) * tables.pair_size,
          tables.start.data(), tables.nx, tables.ny,
          std::complex<double>(0.0, omega), 1.0 / (tables.dx_m * tables.dx_m),
          tables.dx_m / tables.dy_m};
}

}  // namespace pmom::mom
