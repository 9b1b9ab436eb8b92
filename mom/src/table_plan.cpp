// The offset tables' plan (table_plan.hpp): which tables and offsets a mesh uses, reduced by
// the symmetries, with the Gauss rules and static parts of each entry; and its evaluation on
// the host.
#include "planarmom/mom/table_plan.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kinds.hpp"
#include "planarmom/mom/edge_profile.hpp"
#include "static_near_cache.hpp"

// glibc's vector log1p (libmvec) for the host's rows of lookups: <math.h> declares it only under
// -ffast-math, which this unit does not take.
extern "C" double log1p(double) noexcept __attribute__((__simd__("notinbranch")));

namespace pmom::mom {
namespace {

// The observer points of a row whose lookups' positions are found together (table_entry).
constexpr int kHostRow = 8;

using cd = std::complex<double>;
using geometry::Edge;

// The Gauss rules of every weight the tables need, at the four orders (far, near, distant, remote),
// flattened into the plan: per order 81 ramp pairs along, then 9 profile pairs across.
class Rules {
 public:
  enum Order { far = 0, near = 1, distant = 2, remote = 3 };

  Rules(const AssemblyOptions& options, TablePlan& plan) {
    plan.rule_start.assign(1, 0);
    for (const int order :
         {options.far_order, options.near_order, options.distant_order, options.remote_order}) {
      for (int m = 0; m < 9; ++m)
        for (int n = 0; n < 9; ++n)
          add(plan, overlap_rule(ramp_pieces(edge_of(m / 3), edge_of(m % 3)),
                                 ramp_pieces(edge_of(n / 3), edge_of(n % 3)), -2, 2, order));
      for (int o = 0; o < 3; ++o)
        for (int s = 0; s < 3; ++s)
          add(plan, overlap_rule(profile_pieces(edge_of(o)), profile_pieces(edge_of(s)), -1, 1,
                                 order));
    }
  }
  // Ramps of two rooftops along their axis; profiles of two rooftops or cells across.
  static int along(Order order, const RooftopShape& m, const RooftopShape& n) {
    return order * 90 + ramp(m) * 9 + ramp(n);
  }
  static int across(Order order, Edge obs, Edge src) {
    return order * 90 + 81 + static_cast<int>(obs) * 3 + static_cast<int>(src);
  }

 private:
  static int ramp(const RooftopShape& r) {
    return static_cast<int>(r.minus) * 3 + static_cast<int>(r.plus);
  }
  static void add(TablePlan& plan, const WeightRule& rule) {
    plan.rule_t.insert(plan.rule_t.end(), rule.t.begin(), rule.t.end());
    plan.rule_w.insert(plan.rule_w.end(), rule.w.begin(), rule.w.end());
    plan.rule_start.push_back(static_cast<int>(plan.rule_t.size()));
  }
};

// Which tables and offsets the mesh uses: for each kind, the cells (rooftops: minus cells;
// charges: the cells holding that shape) carrying it, as runs along x; per table, a mark for
// every offset.
struct Usage {
  // Cells (i0..i1, j) of one kind. The offsets between two runs are one interval of di at one
  // dj, so two kinds' offsets cost runs × runs × the intervals, not cells × cells (which was a
  // noticeable part of a long line check's set-up; docs/PERFORMANCE.md, "Measurements behind
  // choices in the code").
  struct Run {
    int j, i0, i1;
  };
  int nx = 0, ny = 0;
  std::array<std::vector<Run>, 2 * kRooftopKinds> rooftops;  // axis·27 + kind
  std::array<std::vector<Run>, kChargeKinds> charges;

  Usage(const geometry::Grid& grid, const std::vector<RooftopCells>& cells)
      : nx(grid.nx), ny(grid.ny) {
    std::array<std::vector<geometry::Cell>, 2 * kRooftopKinds> rooftop_cells;
    std::array<std::vector<geometry::Cell>, kChargeKinds> charge_cells;
    const auto add = [&](const RooftopCells& r) {
      rooftop_cells[static_cast<std::size_t>(r.axis * kRooftopKinds + r.kind)].push_back({r.i, r.j});
      charge_cells[static_cast<std::size_t>(r.minus_charge)].push_back({r.i, r.j});
      charge_cells[static_cast<std::size_t>(r.plus_charge)].push_back(
          {r.i + (r.axis == 0 ? 1 : 0), r.j + (r.axis == 1 ? 1 : 0)});
    };
    for (const RooftopCells& r : cells) {
      add(r);
      if (r.kind2 >= 0) add(r.subtracted());
    }
    for (std::size_t k = 0; k < rooftops.size(); ++k) rooftops[k] = runs(std::move(rooftop_cells[k]));
    for (std::size_t k = 0; k < charges.size(); ++k) charges[k] = runs(std::move(charge_cells[k]));
  }

  static std::vector<Run> runs(std::vector<geometry::Cell> cells) {
    std::sort(cells.begin(), cells.end(), [](const geometry::Cell& a, const geometry::Cell& b) {
      return a.j != b.j ? a.j < b.j : a.i < b.i;
    });
    std::vector<Run> out;
    for (const geometry::Cell& c : cells) {
      if (!out.empty() && out.back().j == c.j && c.i <= out.back().i1 + 1) {
        out.back().i1 = std::max(out.back().i1, c.i);
        continue;
      }
      out.push_back({c.j, c.i, c.i});
    }
    return out;
  }

  // The marks of one table from the kinds' runs; empty when one kind is absent.
  [[nodiscard]] std::vector<std::uint8_t> offsets(const std::vector<Run>& obs,
                                                  const std::vector<Run>& src) const {
    if (obs.empty() || src.empty()) return {};
    std::vector<std::uint8_t> marks(static_cast<std::size_t>(2 * nx - 1) *
                                    static_cast<std::size_t>(2 * ny - 1), 0);
    for (const Run& o : obs)
      for (const Run& s : src) {
        const int dj = s.j - o.j;
        // {b − a : a in o, b in s} is every di from s.i0 − o.i1 to s.i1 − o.i0.
        const auto first = static_cast<std::ptrdiff_t>(offset_index(nx, ny, s.i0 - o.i1, dj));
        const auto last = static_cast<std::ptrdiff_t>(offset_index(nx, ny, s.i1 - o.i0, dj));
        std::fill(marks.begin() + first, marks.begin() + last + 1, std::uint8_t{1});
      }
    return marks;
  }
};

struct WorkItem {
  int table, di, dj;
};

// The entry kernels' reader that records which table entries they read (impedance_entry's
// Tables), for the plan of a sparse pattern.
struct MarkingTables {
  std::vector<std::vector<std::uint8_t>>* marks;
  int nx, ny;
  std::complex<double> jw{0.0, 1.0};
  double inv_a2 = 1.0, y_charge = 1.0;
  std::complex<double> value(int table, int di, int dj) const {
    std::vector<std::uint8_t>& m = (*marks)[static_cast<std::size_t>(table)];
    if (m.empty())
      m.assign(static_cast<std::size_t>(2 * nx - 1) * static_cast<std::size_t>(2 * ny - 1), 0);
    m[static_cast<std::size_t>(offset_index(nx, ny, di, dj))] = 1;
    return 0.0;
  }
};

// Per table, the offsets the pattern's entries read, evaluated as the sparse fills evaluate
// them (the upper triangle's order for both halves).
std::vector<std::vector<std::uint8_t>> pattern_reads(const std::vector<RooftopCells>& cells,
                                                     const PlanPattern& pattern, int nx, int ny) {
  std::vector<std::vector<std::uint8_t>> marks(static_cast<std::size_t>(kTables));
  const MarkingTables reader{&marks, nx, ny};
  const auto rows = static_cast<index_t>(pattern.row_ptr.size()) - 1;
  if (rows != static_cast<index_t>(cells.size()))
    throw std::invalid_argument("make_table_plan: the pattern has " + std::to_string(rows) +
                                " rows, the mesh " + std::to_string(cells.size()) + " rooftops");
  for (index_t m = 0; m < rows; ++m)
    for (index_t k = pattern.row_ptr[m]; k < pattern.row_ptr[m + 1]; ++k) {
      const index_t c = pattern.col_idx[k];
      if (c >= m)
        (void)basis_entry(reader, cells[static_cast<std::size_t>(m)],
                          cells[static_cast<std::size_t>(c)], pattern.charge_reach2);
      else
        (void)basis_entry(reader, cells[static_cast<std::size_t>(c)],
                          cells[static_cast<std::size_t>(m)], pattern.charge_reach2);
    }
  return marks;
}

// f(di, dj) for every marked offset of a table (marks by offset_index), in slot order; the
// unmarked slots, most of a table, skipped eight at a time.
template <class F>
void for_each_marked(const std::vector<std::uint8_t>& marks, int nx, int ny, F&& f) {
  const long long width = 2LL * nx - 1, size = static_cast<long long>(marks.size());
  for (long long k = 0; k < size;) {
    if (k + 8 <= size) {
      std::uint64_t word = 0;
      std::memcpy(&word, &marks[static_cast<std::size_t>(k)], sizeof word);
      if (word == 0) {
        k += 8;
        continue;
      }
    }
    if (marks[static_cast<std::size_t>(k)] != 0)
      f(static_cast<int>(k % width) - (nx - 1), static_cast<int>(k / width) - (ny - 1));
    ++k;
  }
}

// The entry a table entry equals by symmetry: reciprocity (observer and source swapped, with
// the offset negated: ⟨f_m, G f_n⟩ = ⟨f_n, G f_m⟩) to order the kinds, and for two shapes of
// one kind to order the offset (its first nonzero component positive), then evenness in each
// offset component along which both shapes are symmetric (plain triangles and uniform
// profiles: mirroring that component changes nothing). Reading ±Δ of one kind from one
// computation keeps Z exactly symmetric: the near parts' quadrature, with its observer and
// source treated differently, left Z_mn and Z_nm 1e-8 apart when both were computed.
// A table's symmetries, worked out once per table (the scans apply them to every used slot).
class Symmetry {
 public:
  explicit Symmetry(int table) {
    // Both shapes' symmetry: the same for the table and its partner.
    if (table < kVectorTables) {
      const int axis = table / (kRooftopKinds * kRooftopKinds);
      const int m = table / kRooftopKinds % kRooftopKinds, n = table % kRooftopKinds;
      swap_ = m > n ? Swap::always : m == n ? Swap::if_negative : Swap::never;
      partner_ = vector_table(axis, n, m);
      const RooftopShape a = rooftop_shape(m), b = rooftop_shape(n);
      const bool along = a.minus == Edge::none && a.plus == Edge::none &&
                         b.minus == Edge::none && b.plus == Edge::none;
      const bool across = a.across == Edge::none && b.across == Edge::none;
      x_symmetric_ = axis == 0 ? along : across;
      y_symmetric_ = axis == 0 ? across : along;
    } else {
      const int o = (table - kVectorTables) / kChargeKinds, s = (table - kVectorTables) % kChargeKinds;
      swap_ = o > s ? Swap::always : o == s ? Swap::if_negative : Swap::never;
      partner_ = charge_table(s, o);
      const CellProfile a = cell_profile(o), b = cell_profile(s);
      x_symmetric_ = a.x == Edge::none && b.x == Edge::none;
      y_symmetric_ = a.y == Edge::none && b.y == Edge::none;
    }
  }
  // The table holding this table's canonical entries besides itself.
  [[nodiscard]] int partner() const { return partner_; }
  // The canonical entry of offset (di, dj) of `table` (this symmetry's).
  [[nodiscard]] WorkItem canonical(int table, int di, int dj) const {
    // Two shapes of one kind: the offset's first nonzero component (x, then y) positive.
    const bool negative = di < 0 || (di == 0 && dj < 0);
    if (swap_ == Swap::always || (swap_ == Swap::if_negative && negative)) {
      table = partner_;
      di = -di;
      dj = -dj;
    }
    return {table, x_symmetric_ ? std::abs(di) : di, y_symmetric_ ? std::abs(dj) : dj};
  }

 private:
  enum class Swap { never, always, if_negative };
  Swap swap_ = Swap::never;
  int partner_ = 0;
  bool x_symmetric_ = false, y_symmetric_ = false;
};

// A canonical work item as a plan entry: its rules, offset and static part. Near and far by
// the centres' distance in the cell's longer side (in cells on square cells).
TablePlan::Entry plan_entry(const WorkItem& w, long long slot, const AssemblyOptions& options,
                            double dx, double dy, bool* computed) {
  const Reach reach = reach_of(options, dx, dy, w.di, w.dj);
  const bool is_near = reach == Reach::near;
  const Rules::Order order = is_near                    ? Rules::near
                             : reach == Reach::far      ? Rules::far
                             : reach == Reach::distant  ? Rules::distant
                                                        : Rules::remote;
  TablePlan::Entry e;
  e.slot = slot;
  e.flags = is_near ? TablePlan::near : 0;
  if (w.table < kVectorTables) {
    const int axis = w.table / (kRooftopKinds * kRooftopKinds);
    const int obs_kind = w.table / kRooftopKinds % kRooftopKinds, src_kind = w.table % kRooftopKinds;
    const RooftopShape obs = rooftop_shape(obs_kind), src = rooftop_shape(src_kind);
    e.cx = axis == 0 ? w.di : w.dj;
    e.cy = axis == 0 ? w.dj : w.di;
    if (axis == 1) e.flags |= TablePlan::y_axis;
    e.rule_x = Rules::along(order, obs, src);
    e.rule_y = Rules::across(order, obs.across, src.across);
    const double eta = axis == 0 ? dy / dx : dx / dy;  // across over along
    if (is_near)
      e.static_part = static_near_cache().get(
          StaticNearCache::key(true, obs_kind, src_kind, e.cx, e.cy, options.outer_order, eta),
          [&] { return static_rooftop_overlap(e.cx, e.cy, options.outer_order, obs, src, eta); },
          computed);
    return e;
  }
  const int kinds = w.table - kVectorTables;
  const CellProfile obs = cell_profile(kinds / kChargeKinds), src = cell_profile(kinds % kChargeKinds);
  e.flags |= TablePlan::scalar_potential;
  e.cx = w.di;
  e.cy = w.dj;
  e.rule_x = Rules::across(order, obs.x, src.x);
  e.rule_y = Rules::across(order, obs.y, src.y);
  if (is_near)
    e.static_part = static_near_cache().get(
        StaticNearCache::key(false, kinds / kChargeKinds, kinds % kChargeKinds, w.di, w.dj,
                             options.outer_order, dy / dx),
        [&] { return static_cell_overlap(w.di, w.dj, options.outer_order, obs, src, dy / dx); },
        computed);
  return e;
}

}  // namespace

long long TablePlan::lookups() const {
  long long n = 0;
  for (const Entry& e : entries) {
    const auto points = [&](int r) {
      return static_cast<long long>(rule_start[static_cast<std::size_t>(r) + 1] -
                                    rule_start[static_cast<std::size_t>(r)]);
    };
    n += points(e.rule_x) * points(e.rule_y);
  }
  return n;
}

namespace {

// Gauss points per unit piece for the near offsets where the mesh's metal layers lie closer
// than half the cell's smaller side: G between two of them is finite but peaks over a width Δz
// at ρ = 0 (nothing is taken out in closed form there), which eight points resolve to 2e-8 of
// the largest entry down to Δz = cell/2 and sixteen down to cell/10 (test_layer_tables).
int near_order_for_layers(const geometry::Mesh& mesh, int order) {
  const geometry::Substrate& s = mesh.layout().substrate;
  const double cell = std::min(mesh.grid().dx_mm, mesh.grid().dy_mm);
  const std::vector<int>& layers = mesh.layers();
  for (std::size_t l = 1; l < layers.size(); ++l) {
    const double dz = s.interface_height_mm(layers[l]) - s.interface_height_mm(layers[l - 1]);
    order = std::max(order, dz >= 0.5 * cell ? 8 : dz >= 0.1 * cell ? 16 : 32);
  }
  return order;
}

}  // namespace

TablePlan make_table_plan(const geometry::Mesh& mesh, const AssemblyOptions& asked,
                          const PlanPattern* pattern) {
  AssemblyOptions options = asked;
  options.near_order = near_order_for_layers(mesh, asked.near_order);
  if (options.far_order < 1 || options.near_order < 1 || options.outer_order < 1 ||
      options.distant_order < 1 || options.remote_order < 1) {
    throw std::invalid_argument("make_interaction_tables: quadrature orders must be >= 1");
  }
  if (!options.edge_profiles && mesh.bubble_count() > 0) {
    throw std::invalid_argument(
        "make_interaction_tables: plain rooftops need a mesh without cell bubbles (a bubble is "
        "the difference of the edge-weighted and the uniform shape, zero without edge shapes): "
        "mesh it with make_mesh(layout, cell, false)");
  }
  const geometry::Grid& grid = mesh.grid();
  TablePlan plan;
  plan.nx = grid.nx;
  plan.ny = grid.ny;
  plan.dx_mm = grid.dx_mm;
  plan.dy_mm = grid.dy_mm;
  plan.dx_m = grid.dx_mm * 1e-3;
  plan.dy_m = grid.dy_mm * 1e-3;
  plan.edge_profiles = options.edge_profiles;
  plan.start.assign(static_cast<std::size_t>(kTables), -1);
  const Rules rules(options, plan);

  // Mark the offsets the mesh's pairs use (every pair of the dense Z, or the pattern's reads),
  // lay out the tables holding any, and reduce the marks to the entries to compute by the
  // symmetries (Symmetry).
  const std::vector<RooftopCells> cells = rooftop_cells(mesh, options.edge_profiles);
  std::vector<std::vector<std::uint8_t>> used(static_cast<std::size_t>(kTables));
  if (pattern != nullptr) {
    used = pattern_reads(cells, *pattern, plan.nx, plan.ny);
  } else {
    const Usage usage(grid, cells);
    for (int axis = 0; axis < 2; ++axis)
      for (int km = 0; km < kRooftopKinds; ++km)
        for (int kn = 0; kn < kRooftopKinds; ++kn)
          used[static_cast<std::size_t>(vector_table(axis, km, kn))] = usage.offsets(
              usage.rooftops[static_cast<std::size_t>(axis * kRooftopKinds + km)],
              usage.rooftops[static_cast<std::size_t>(axis * kRooftopKinds + kn)]);
    for (int ko = 0; ko < kChargeKinds; ++ko)
      for (int ks = 0; ks < kChargeKinds; ++ks)
        used[static_cast<std::size_t>(charge_table(ko, ks))] = usage.offsets(
            usage.charges[static_cast<std::size_t>(ko)], usage.charges[static_cast<std::size_t>(ks)]);
  }
  const long long table_size = static_cast<long long>(2 * plan.nx - 1) * (2 * plan.ny - 1);
  // A read entry's canonical one must have a place too (a pattern may read table (m, n) and
  // not (n, m)): it lies in the table itself or in its partner (the kinds swapped), so each pair
  // is one thread's, in parallel.
  std::vector<Symmetry> symmetries;
  for (int table = 0; table < kTables; ++table) symmetries.emplace_back(table);
  std::vector<int> pairs;  // the lesser table of each pair with a table read
  for (int table = 0; table < kTables; ++table) {
    const int partner = symmetries[static_cast<std::size_t>(table)].partner();
    if (used[static_cast<std::size_t>(table)].empty() &&
        used[static_cast<std::size_t>(partner)].empty())
      continue;
    if (table <= partner) pairs.push_back(table);
    for (const int t : {table, partner})
      if (used[static_cast<std::size_t>(t)].empty())
        used[static_cast<std::size_t>(t)].assign(static_cast<std::size_t>(table_size), 0);
  }
  const auto pair_count = static_cast<long long>(pairs.size());
#pragma omp parallel for schedule(dynamic, 1)
  for (long long k = 0; k < pair_count; ++k) {
    const int first = pairs[static_cast<std::size_t>(k)];
    const int second = symmetries[static_cast<std::size_t>(first)].partner();
    for (const int table : {first, second}) {
      const Symmetry& symmetry = symmetries[static_cast<std::size_t>(table)];
      for_each_marked(used[static_cast<std::size_t>(table)], plan.nx, plan.ny, [&](int di, int dj) {
        const WorkItem c = symmetry.canonical(table, di, dj);
        used[static_cast<std::size_t>(c.table)]
            [static_cast<std::size_t>(offset_index(plan.nx, plan.ny, c.di, c.dj))] = 1;
      });
      if (second == first) break;  // a table of two shapes of one kind is its own partner
    }
  }
  // A partner that holds no canonical entry (the pair's were all in the other) takes no place.
  for (std::vector<std::uint8_t>& marks : used)
    if (std::find(marks.begin(), marks.end(), std::uint8_t{1}) == marks.end()) marks = {};
  for (int table = 0; table < kTables; ++table) {
    if (used[static_cast<std::size_t>(table)].empty()) continue;
    plan.start[static_cast<std::size_t>(table)] = plan.size;
    plan.size += table_size;
  }

  const auto slot_of = [&](const WorkItem& w) {
    return plan.start[static_cast<std::size_t>(w.table)] +
           offset_index(plan.nx, plan.ny, w.di, w.dj);
  };
  // Every marked slot is an entry (its own canonical one: canonical is idempotent) or a copy
  // of its canonical one, which is marked. Per table in parallel, joined in table order.
  struct Listing {
    std::vector<WorkItem> entries;
    std::vector<long long> copy_to, copy_from;
  };
  std::vector<Listing> listings(static_cast<std::size_t>(kTables));
#pragma omp parallel for schedule(dynamic, 1)
  for (int table = 0; table < kTables; ++table) {
    const std::vector<std::uint8_t>& marks = used[static_cast<std::size_t>(table)];
    if (marks.empty()) continue;
    Listing& l = listings[static_cast<std::size_t>(table)];
    const Symmetry& symmetry = symmetries[static_cast<std::size_t>(table)];
    for_each_marked(marks, plan.nx, plan.ny, [&](int di, int dj) {
      const WorkItem c = symmetry.canonical(table, di, dj);
      const long long own = slot_of(WorkItem{table, di, dj}), source = slot_of(c);
      if (own == source) {
        l.entries.push_back(c);
      } else {
        l.copy_to.push_back(own);
        l.copy_from.push_back(source);
      }
    });
  }
  std::size_t entries = 0, copies = 0;
  for (const Listing& l : listings) {
    entries += l.entries.size();
    copies += l.copy_to.size();
  }
  std::vector<WorkItem> canonical_items;
  canonical_items.reserve(entries);
  plan.copy_to.reserve(copies);
  plan.copy_from.reserve(copies);
  for (Listing& l : listings) {
    canonical_items.insert(canonical_items.end(), l.entries.begin(), l.entries.end());
    plan.copy_to.insert(plan.copy_to.end(), l.copy_to.begin(), l.copy_to.end());
    plan.copy_from.insert(plan.copy_from.end(), l.copy_from.begin(), l.copy_from.end());
    l = {};
  }
  plan.entries.resize(canonical_items.size());
  const auto count = static_cast<long long>(canonical_items.size());
  // Static parts neither in the process's cache nor in its folder are computed here, in
  // parallel, and stored. Rooftop tables run along x or y (aspects dy/dx and dx/dy).
  StaticNearCache& parts = static_near_cache();
  parts.load(options.outer_order, plan.dy_mm / plan.dx_mm);
  parts.load(options.outer_order, plan.dx_mm / plan.dy_mm);
  long long computed = 0;
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : computed)
  for (long long k = 0; k < count; ++k) {
    const WorkItem& w = canonical_items[static_cast<std::size_t>(k)];
    bool fresh = false;
    plan.entries[static_cast<std::size_t>(k)] =
        plan_entry(w, slot_of(w), options, plan.dx_mm, plan.dy_mm, &fresh);
    computed += fresh ? 1 : 0;
  }
  plan.static_parts_computed = computed;
  if (computed > 0) parts.save();
  return plan;
}

void TablePlan::place(std::span<const cd> entry_values, std::span<cd> values) const {
  if (entry_values.size() != entries.size() || static_cast<long long>(values.size()) != size)
    throw std::invalid_argument("TablePlan::place: " + std::to_string(entry_values.size()) +
                                " entries' values into " + std::to_string(values.size()) +
                                " slots, for a plan of " + std::to_string(entries.size()) +
                                " entries and " + std::to_string(size) + " slots");
  // Distinct slots in each loop, and every copy's source is an entry's slot: both in parallel.
#pragma omp parallel for schedule(static)
  for (std::size_t e = 0; e < entries.size(); ++e)
    values[static_cast<std::size_t>(entries[e].slot)] = entry_values[e];
#pragma omp parallel for schedule(static)
  for (std::size_t k = 0; k < copy_to.size(); ++k)
    values[static_cast<std::size_t>(copy_to[k])] = values[static_cast<std::size_t>(copy_from[k])];
}

InteractionTables tables_from_entries(const TablePlan& plan, double frequency_hz,
                                      std::span<const cd> entry_values) {
  InteractionTables t;
  t.frequency_hz = frequency_hz;
  t.dx_m = plan.dx_m;
  t.dy_m = plan.dy_m;
  t.nx = plan.nx;
  t.ny = plan.ny;
  t.edge_profiles = plan.edge_profiles;
  t.start = plan.start;
  t.pair_size = plan.size;
  t.values.assign(static_cast<std::size_t>(plan.size), cd(0.0));
  plan.place(entry_values, t.values);
  return t;
}

std::vector<cd> evaluate_entries(const TablePlan& plan, const GreensTable& greens) {
  geometry::Grid grid;
  grid.dx_mm = plan.dx_mm;
  grid.dy_mm = plan.dy_mm;
  grid.nx = plan.nx;
  grid.ny = plan.ny;
  if (greens.rho_max() < required_rho_max(grid)) {
    throw std::invalid_argument("make_interaction_tables: the Green's table reaches " +
                                std::to_string(greens.rho_max()) + " m, the grid needs " +
                                std::to_string(required_rho_max(grid)) + " m");
  }
  std::vector<cd> values(plan.entries.size());
  const GreensTableView<cd> view = greens.view();
  const auto count = static_cast<long long>(plan.entries.size());
#pragma omp parallel for schedule(dynamic, 64)
  for (long long k = 0; k < count; ++k)
    values[static_cast<std::size_t>(k)] =
        table_entry<kHostRow>(view, plan.rule_start.data(), plan.rule_t.data(),
                              plan.rule_w.data(), plan.entries[static_cast<std::size_t>(k)],
                              plan.dx_m, plan.dy_m);
  return values;
}

InteractionTables evaluate_tables(const TablePlan& plan, const GreensTable& greens) {
  InteractionTables t =
      tables_from_entries(plan, greens.frequency(), evaluate_entries(plan, greens));
  t.greens_evaluations = plan.lookups();
  return t;
}

InteractionTables evaluate_layer_tables(const TablePlan& plan,
                                        std::span<const GreensTable> pairs) {
  int layers = 1;
  while (layer_pairs(layers) < static_cast<int>(pairs.size())) ++layers;
  if (pairs.empty() || layer_pairs(layers) != static_cast<int>(pairs.size()))
    throw std::invalid_argument("evaluate_layer_tables: " + std::to_string(pairs.size()) +
                                " Green's tables are not one per pair of some number of layers");
  InteractionTables t = evaluate_tables(plan, pairs.front());
  t.layers = layers;
  t.values.resize(static_cast<std::size_t>(plan.size) * pairs.size());
  // Each further pair's entries placed straight into its own set.
  for (std::size_t p = 1; p < pairs.size(); ++p)
    plan.place(evaluate_entries(plan, pairs[p]),
               std::span<cd>(t.values).subspan(p * static_cast<std::size_t>(plan.size),
                                                static_cast<std::size_t>(plan.size)));
  t.greens_evaluations = plan.lookups() * static_cast<long long>(pairs.size());
  return t;
}

InteractionTables make_interaction_tables(const GreensTable& greens, const geometry::Mesh& mesh,
                                          const AssemblyOptions& options) {
  return evaluate_tables(make_table_plan(mesh, options), greens);
}

}  // namespace pmom::mom
