// Per-frequency offset tables of the rooftop MPIE (assembly.hpp): Gauss rules of the overlap
// weights in the difference variable, with the 1/R part of near offsets done analytically.
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
#include "static_near_cache.hpp"

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

// ∑∑ wx wy g(|(cx + tx, cy + ty)|): the overlap-weighted integral of g (distance in cells).
template <class G> cd overlap_integral(const WeightRule& x, const WeightRule& y, int cx, int cy,
                                       G&& g) {
  cd sum = 0.0;
  for (std::size_t a = 0; a < x.t.size(); ++a) {
    const double dx = cx + x.t[a];
    cd row = 0.0;
    for (std::size_t b = 0; b < y.t.size(); ++b) row += y.w[b] * g(std::hypot(dx, cy + y.t[b]));
    sum += x.w[a] * row;
  }
  return sum;
}

Edge edge_of(int code) { return static_cast<Edge>(code); }

RooftopShape rooftop_shape(int kind) {
  return {edge_of(kind / 9), edge_of(kind / 3 % 3), edge_of(kind % 3)};
}
CellProfile cell_profile(int kind) { return {edge_of(kind / 3), edge_of(kind % 3)}; }

int rooftop_kind(const RooftopShape& r) {
  return 9 * static_cast<int>(r.minus) + 3 * static_cast<int>(r.plus) + static_cast<int>(r.across);
}
int charge_kind(Edge x, Edge y) { return 3 * static_cast<int>(x) + static_cast<int>(y); }

// ∫ src(x') dx'/R-type inner integral over the source rectangles in closed form: density
// linear along x (α + β X in X = x' − x) and constant across, for the observer at (x, y).
double inner_static(std::span<const ShapePiece> src_x, std::span<const ShapePiece> src_y, int di,
                    int dj, double x, double y) {
  double inner = 0.0;
  for (const ShapePiece& sx : src_x) {
    const double x1 = di + sx.t0 - x, x2 = di + sx.t1 - x;
    const double slope = (sx.d1 - sx.d0) / (sx.t1 - sx.t0);
    const double alpha = sx.d0 - slope * x1;  // density at X = 0
    for (const ShapePiece& sy : src_y) {
      const double y1 = dj + sy.t0 - y, y2 = dj + sy.t1 - y;
      inner += sy.d0 * (alpha * rect_inv_r(x1, x2, y1, y2) +
                        (slope != 0.0 ? slope * rect_x_over_r(x1, x2, y1, y2) : 0.0));
    }
  }
  return inner;
}

double static_overlap(std::span<const ShapePiece> obs_x, std::span<const ShapePiece> obs_y,
                      std::span<const ShapePiece> src_x, std::span<const ShapePiece> src_y, int di,
                      int dj, int outer_order) {
  const GaussRule rule = graded_rule(outer_order);
  const WeightRule xs = observer_points(obs_x, src_x, di, rule);
  const WeightRule ys = observer_points(obs_y, src_y, dj, rule);
  double sum = 0.0;
  for (std::size_t a = 0; a < xs.t.size(); ++a)
    for (std::size_t b = 0; b < ys.t.size(); ++b)
      sum += xs.w[a] * ys.w[b] * inner_static(src_x, src_y, di, dj, xs.t[a], ys.t[b]);
  return sum;
}

// The Gauss rules of every weight the tables need, for one order.
class Rules {
 public:
  explicit Rules(int order) {
    for (int m = 0; m < 9; ++m)
      for (int n = 0; n < 9; ++n)
        along_[static_cast<std::size_t>(m * 9 + n)] =
            overlap_rule(ramp_pieces(edge_of(m / 3), edge_of(m % 3)),
                         ramp_pieces(edge_of(n / 3), edge_of(n % 3)), -2, 2, order);
    for (int o = 0; o < 3; ++o)
      for (int s = 0; s < 3; ++s)
        across_[static_cast<std::size_t>(o * 3 + s)] =
            overlap_rule(profile_pieces(edge_of(o)), profile_pieces(edge_of(s)), -1, 1, order);
  }
  // Ramps of two rooftops along their axis; profiles of two rooftops or cells across.
  [[nodiscard]] const WeightRule& along(const RooftopShape& m, const RooftopShape& n) const {
    return along_[static_cast<std::size_t>(ramp(m) * 9 + ramp(n))];
  }
  [[nodiscard]] const WeightRule& across(Edge obs, Edge src) const {
    return across_[static_cast<std::size_t>(static_cast<int>(obs) * 3 + static_cast<int>(src))];
  }

 private:
  static int ramp(const RooftopShape& r) {
    return static_cast<int>(r.minus) * 3 + static_cast<int>(r.plus);
  }
  std::array<WeightRule, 81> along_;
  std::array<WeightRule, 9> across_;
};

// Which tables and offsets the mesh uses: for each kind, the cells (rooftops: minus cells;
// charges: the cells holding that shape) carrying it; per table, a mark for every offset.
struct Plan {
  int nx = 0, ny = 0;
  std::array<std::vector<geometry::Cell>, 2 * kRooftopKinds> rooftops;  // axis·27 + kind
  std::array<std::vector<geometry::Cell>, kChargeKinds> charges;

  Plan(const geometry::Grid& grid, const std::vector<RooftopCells>& cells) : nx(grid.nx), ny(grid.ny) {
    std::array<std::vector<std::uint8_t>, kChargeKinds> seen;
    for (auto& s : seen) s.assign(static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny), 0);
    const auto add_charge = [&](int kind, int i, int j) {
      std::uint8_t& flag = seen[static_cast<std::size_t>(kind)]
                               [static_cast<std::size_t>(j) * static_cast<std::size_t>(nx) +
                                static_cast<std::size_t>(i)];
      if (flag == 0) charges[static_cast<std::size_t>(kind)].push_back({i, j});
      flag = 1;
    };
    const auto add = [&](const RooftopCells& r) {
      rooftops[static_cast<std::size_t>(r.axis * kRooftopKinds + r.kind)].push_back({r.i, r.j});
      add_charge(r.minus_charge, r.i, r.j);
      add_charge(r.plus_charge, r.i + (r.axis == 0 ? 1 : 0), r.j + (r.axis == 1 ? 1 : 0));
    };
    for (const RooftopCells& r : cells) {
      add(r);
      if (r.kind2 >= 0) add(r.subtracted());
    }
  }

  // The marks of one table from the kinds' cells; empty when one kind is absent.
  [[nodiscard]] std::vector<std::uint8_t> offsets(const std::vector<geometry::Cell>& obs,
                                                  const std::vector<geometry::Cell>& src) const {
    if (obs.empty() || src.empty()) return {};
    std::vector<std::uint8_t> marks(static_cast<std::size_t>(2 * nx - 1) *
                                    static_cast<std::size_t>(2 * ny - 1), 0);
    for (const geometry::Cell& o : obs)
      for (const geometry::Cell& s : src)
        marks[static_cast<std::size_t>(offset_index(nx, ny, s.i - o.i, s.j - o.j))] = 1;
    return marks;
  }
};

struct WorkItem {
  int table, di, dj;
};

// The entry a table entry equals by symmetry: reciprocity (observer and source swapped, with
// the offset negated: ⟨f_m, G f_n⟩ = ⟨f_n, G f_m⟩) to order the kinds, then evenness in each
// offset component along which both shapes are symmetric (plain triangles and uniform
// profiles: mirroring that component changes nothing).
WorkItem canonical(WorkItem w) {
  bool x_symmetric = false, y_symmetric = false;
  if (w.table < kVectorTables) {
    const int axis = w.table / (kRooftopKinds * kRooftopKinds);
    int m = w.table / kRooftopKinds % kRooftopKinds, n = w.table % kRooftopKinds;
    if (m > n) {
      std::swap(m, n);
      w = {vector_table(axis, m, n), -w.di, -w.dj};
    }
    const RooftopShape a = rooftop_shape(m), b = rooftop_shape(n);
    const bool along = a.minus == Edge::none && a.plus == Edge::none && b.minus == Edge::none &&
                       b.plus == Edge::none;
    const bool across = a.across == Edge::none && b.across == Edge::none;
    x_symmetric = axis == 0 ? along : across;
    y_symmetric = axis == 0 ? across : along;
  } else {
    int o = (w.table - kVectorTables) / kChargeKinds, s = (w.table - kVectorTables) % kChargeKinds;
    if (o > s) {
      std::swap(o, s);
      w = {charge_table(o, s), -w.di, -w.dj};
    }
    const CellProfile a = cell_profile(o), b = cell_profile(s);
    x_symmetric = a.x == Edge::none && b.x == Edge::none;
    y_symmetric = a.y == Edge::none && b.y == Edge::none;
  }
  if (x_symmetric) w.di = std::abs(w.di);
  if (y_symmetric) w.dj = std::abs(w.dj);
  return w;
}

}  // namespace

double static_cell_overlap(int di, int dj, int outer_order, CellProfile obs, CellProfile src) {
  return static_overlap(profile_pieces(obs.x), profile_pieces(obs.y), profile_pieces(src.x),
                        profile_pieces(src.y), di, dj, outer_order);
}

double static_rooftop_overlap(int di, int dj, int outer_order, RooftopShape obs, RooftopShape src) {
  return static_overlap(ramp_pieces(obs.minus, obs.plus), profile_pieces(obs.across),
                        ramp_pieces(src.minus, src.plus), profile_pieces(src.across), di, dj,
                        outer_order);
}

double required_rho_max(const geometry::Grid& grid) {
  // The rooftop overlap reaches two cells beyond the edge offset along its axis.
  return grid.cell_mm * 1e-3 * std::hypot(grid.nx + 1.0, grid.ny + 1.0);
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
      edge_profiles ? (x ? mesh.x_edge_of(other) : mesh.y_edge_of(other)) : Edge::none;
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

TableView host_view(const InteractionTables& tables) {
  const double omega = 2.0 * pi * tables.frequency_hz;
  return {tables.values.data(), tables.start.data(), tables.nx, tables.ny,
          std::complex<double>(0.0, omega), 1.0 / (tables.cell_m * tables.cell_m)};
}

InteractionTables make_interaction_tables(const GreensTable& greens, const geometry::Mesh& mesh,
                                          const AssemblyOptions& options) {
  if (options.far_order < 1 || options.near_order < 1 || options.outer_order < 1 ||
      options.distant_order < 1) {
    throw std::invalid_argument("make_interaction_tables: quadrature orders must be >= 1");
  }
  if (!options.edge_profiles && mesh.bubble_count() > 0) {
    throw std::invalid_argument(
        "make_interaction_tables: plain rooftops need a mesh without cell bubbles (a bubble is "
        "the difference of the edge-weighted and the uniform shape, zero without edge shapes): "
        "mesh it with make_mesh(layout, cell, false)");
  }
  const geometry::Grid& grid = mesh.grid();
  if (greens.rho_max() < required_rho_max(grid)) {
    throw std::invalid_argument("make_interaction_tables: the Green's table reaches " +
                                std::to_string(greens.rho_max()) + " m, the grid needs " +
                                std::to_string(required_rho_max(grid)) + " m");
  }
  InteractionTables t;
  t.frequency_hz = greens.frequency();
  t.cell_m = grid.cell_mm * 1e-3;
  t.nx = grid.nx;
  t.ny = grid.ny;
  t.edge_profiles = options.edge_profiles;
  t.start.assign(static_cast<std::size_t>(kTables), -1);

  // Lay out the tables the mesh uses, mark the offsets its pairs use, and reduce those to the
  // entries to compute by the symmetries (canonical()).
  const Plan plan(grid, rooftop_cells(mesh, options.edge_profiles));
  const long long table_size = static_cast<long long>(2 * t.nx - 1) * (2 * t.ny - 1);
  std::vector<std::vector<std::uint8_t>> used(static_cast<std::size_t>(kTables));
  long long next = 0;
  const auto add_table = [&](int table, const std::vector<geometry::Cell>& obs,
                             const std::vector<geometry::Cell>& src) {
    std::vector<std::uint8_t> marks = plan.offsets(obs, src);
    if (marks.empty()) return;
    t.start[static_cast<std::size_t>(table)] = next;
    next += table_size;
    used[static_cast<std::size_t>(table)] = std::move(marks);
  };
  for (int axis = 0; axis < 2; ++axis)
    for (int km = 0; km < kRooftopKinds; ++km)
      for (int kn = 0; kn < kRooftopKinds; ++kn)
        add_table(vector_table(axis, km, kn),
                  plan.rooftops[static_cast<std::size_t>(axis * kRooftopKinds + km)],
                  plan.rooftops[static_cast<std::size_t>(axis * kRooftopKinds + kn)]);
  for (int ko = 0; ko < kChargeKinds; ++ko)
    for (int ks = 0; ks < kChargeKinds; ++ks)
      add_table(charge_table(ko, ks), plan.charges[static_cast<std::size_t>(ko)],
                plan.charges[static_cast<std::size_t>(ks)]);
  t.values.assign(static_cast<std::size_t>(next), cd(0.0));
  // Every offset some pair of the mesh uses, table by table.
  const auto for_each_used = [&](auto&& f) {
    for (int table = 0; table < kTables; ++table) {
      const std::vector<std::uint8_t>& marks = used[static_cast<std::size_t>(table)];
      if (marks.empty()) continue;
      for (int dj = 1 - t.ny; dj < t.ny; ++dj)
        for (int di = 1 - t.nx; di < t.nx; ++di)
          if (marks[static_cast<std::size_t>(offset_index(t.nx, t.ny, di, dj))] != 0)
            f(WorkItem{table, di, dj});
    }
  };
  std::vector<WorkItem> work;
  {
    std::vector<std::vector<std::uint8_t>> listed(static_cast<std::size_t>(kTables));
    for_each_used([&](const WorkItem& w) {
      const WorkItem c = canonical(w);
      auto& flags = listed[static_cast<std::size_t>(c.table)];
      if (flags.empty()) flags.assign(static_cast<std::size_t>(table_size), 0);
      std::uint8_t& flag = flags[static_cast<std::size_t>(offset_index(t.nx, t.ny, c.di, c.dj))];
      if (flag == 0) work.push_back(c);
      flag = 1;
    });
  }

  const double a = t.cell_m;
  const double a3 = a * a * a, a4 = a3 * a;
  const cd c_a = greens.singular().a, c_v = greens.singular().v;
  const Rules far(options.far_order), near(options.near_order), distant(options.distant_order);
  const auto g_a = [&](double s) { return greens(a * s).g_a; };
  const auto g_v = [&](double s) { return greens(a * s).g_v; };
  const auto smooth_a = [&](double s) { return greens.smooth(a * s).g_a; };
  const auto smooth_v = [&](double s) { return greens.smooth(a * s).g_v; };

  // One entry: far, the tabulated G under the overlap weight; near, its smooth part likewise
  // plus c/R with the analytic inner integral.
  const auto entry = [&](const WorkItem& w, long long& evaluations) -> cd {
    const double distance = std::hypot(w.di, w.dj);
    const bool is_near = distance < options.near_cells;
    const Rules& rules = is_near ? near : distance < options.distant_cells ? far : distant;
    if (w.table < kVectorTables) {
      const int axis = w.table / (kRooftopKinds * kRooftopKinds);
      const RooftopShape obs = rooftop_shape(w.table / kRooftopKinds % kRooftopKinds);
      const RooftopShape src = rooftop_shape(w.table % kRooftopKinds);
      const int along = axis == 0 ? w.di : w.dj, across = axis == 0 ? w.dj : w.di;
      const WeightRule& x = rules.along(obs, src);
      const WeightRule& y = rules.across(obs.across, src.across);
      evaluations += static_cast<long long>(x.t.size() * y.t.size());
      if (!is_near) return a4 * overlap_integral(x, y, along, across, g_a);
      const double static_part = static_near_cache().get(
          StaticNearCache::key(true, rooftop_kind(obs), rooftop_kind(src), along, across,
                               options.outer_order),
          [&] { return static_rooftop_overlap(along, across, options.outer_order, obs, src); });
      return a4 * overlap_integral(x, y, along, across, smooth_a) + c_a * a3 * static_part;
    }
    const int kinds = w.table - kVectorTables;
    const CellProfile obs = cell_profile(kinds / kChargeKinds), src = cell_profile(kinds % kChargeKinds);
    const WeightRule& x = rules.across(obs.x, src.x);
    const WeightRule& y = rules.across(obs.y, src.y);
    evaluations += static_cast<long long>(x.t.size() * y.t.size());
    if (!is_near) return a4 * overlap_integral(x, y, w.di, w.dj, g_v);
    const double static_part = static_near_cache().get(
        StaticNearCache::key(false, kinds / kChargeKinds, kinds % kChargeKinds, w.di, w.dj,
                             options.outer_order),
        [&] { return static_cell_overlap(w.di, w.dj, options.outer_order, obs, src); });
    return a4 * overlap_integral(x, y, w.di, w.dj, smooth_v) + c_v * a3 * static_part;
  };

  long long evaluations = 0;
  const auto count = static_cast<long long>(work.size());
#pragma omp parallel for schedule(dynamic, 4) reduction(+ : evaluations)
  for (long long k = 0; k < count; ++k) {
    const WorkItem& w = work[static_cast<std::size_t>(k)];
    t.values[static_cast<std::size_t>(t.start[static_cast<std::size_t>(w.table)] +
                                      offset_index(t.nx, t.ny, w.di, w.dj))] = entry(w, evaluations);
  }
  // Every used entry from its canonical one.
  for_each_used([&](const WorkItem& w) {
    const WorkItem c = canonical(w);
    t.values[static_cast<std::size_t>(t.start[static_cast<std::size_t>(w.table)] +
                                      offset_index(t.nx, t.ny, w.di, w.dj))] =
        t.at(c.table, c.di, c.dj);
  });
  t.greens_evaluations = evaluations;
  return t;
}

}  // namespace pmom::mom
