// What a mesh's offset tables (assembly.hpp) need at every frequency, worked out once per mesh:
// where each table the mesh uses lies, the entries to compute (one per symmetry class, with its
// Gauss rules and, near the source, its frequency-independent 1/R part), and which entry every
// other used slot copies. A sweep builds the plan once; each frequency then costs only the
// Green's-table lookups under the rules, on the host (evaluate_tables) or on the GPU (the CUDA
// fill, mom/cuda), which read the same plan.
#pragma once

#include <cmath>
#include <span>
#include <vector>

#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/greens_table.hpp"
#include "planarmom/gpusolver/scalar.hpp"
#include "planarmom/mom/hd.hpp"

namespace pmom::mom {

struct TablePlan {
  int nx = 0, ny = 0;
  double dx_mm = 0, dy_mm = 0;  // the grid's cell
  double dx_m = 0, dy_m = 0;
  bool edge_profiles = true;
  std::vector<long long> start;  // kTables, as InteractionTables::start
  long long size = 0;            // values in all tables

  // Every Gauss rule the entries use, flattened: rule r has the points
  // [rule_start[r], rule_start[r + 1]) of rule_t (cells) and rule_w.
  std::vector<int> rule_start;
  std::vector<double> rule_t, rule_w;

  enum Flags : int {
    scalar_potential = 1,  // G_V (a charge table); else G_A (a rooftop table)
    near = 2,              // the smooth part under the rules plus c·a b²·static_part
    y_axis = 4,            // a y-rooftop table: along is y, across x
  };
  // value = a² b² Σ_x Σ_y w_x w_y g(|(a (cx + t_x), b (cy + t_y))|) (+ c a b² static_part when
  // near), a and b the cell's sides along cx and cy.
  struct Entry {
    long long slot = 0;  // in the values of all tables
    int cx = 0, cy = 0;  // offset in cells: along and across (rooftops), x and y (charges)
    int rule_x = 0, rule_y = 0;
    int flags = 0;
    double static_part = 0;  // unit cells of aspect b/a, near entries only
  };
  std::vector<Entry> entries;
  // The used slots that are not entries, and the slot (an entry's) each equals by symmetry.
  std::vector<long long> copy_to, copy_from;
  // Near entries whose static part this plan computed: the others came from the process's
  // cache or its folder (static_near_store.hpp).
  long long static_parts_computed = 0;

  // Green's-table lookups per evaluation.
  [[nodiscard]] long long lookups() const;
  // The tables' slots (`values`, size of them) from the entries' values (one per entry, in
  // order): each entry's slot, then every copy slot from its entry's. Slots that are neither
  // are left as they are (0 in tables laid out by tables_from_entries).
  void place(std::span<const std::complex<double>> entry_values,
             std::span<std::complex<double>> values) const;
};

// The sides a, b (m) of a cell of dx_m × dy_m along an entry's cx and cy: a y-rooftop table's
// cx runs along y.
struct EntrySides {
  double a = 0, b = 0;
};
PLANARMOM_HD inline EntrySides entry_sides(const TablePlan::Entry& e, double dx_m, double dy_m) {
  const bool swap = (e.flags & TablePlan::y_axis) != 0;
  return {swap ? dy_m : dx_m, swap ? dx_m : dy_m};
}

// One entry's value (G from the table view: c/ρ + smooth far, smooth near) on cells of
// dx_m × dy_m. The host evaluation and the CUDA fill both call it. C as for GreensTableView.
// Row: the observer points whose ρ and sample positions are found together before their
// lookups; the device takes 1 (nothing held), the host 8 (the positions' log1p vectorised,
// libmvec): the same arithmetic in the same order either way.
template <int Row = 1, class C>
PLANARMOM_HD inline C table_entry(const GreensTableView<C>& g, const int* rule_start,
                                  const double* rule_t, const double* rule_w,
                                  const TablePlan::Entry& e, double dx_m, double dy_m) {
  const bool near = (e.flags & TablePlan::near) != 0;
  const bool scalar = (e.flags & TablePlan::scalar_potential) != 0;
  const C c = scalar ? g.c_v : g.c_a;  // the singular part's coefficient
  // The sides along cx and cy, and their ratio (1 on square cells, where the products below
  // are the square cell's bit for bit).
  const auto [a, b] = entry_sides(e, dx_m, dy_m);
  const double eta = b / a;
  const int q_end = rule_start[e.rule_y + 1];
  C sum(0.0);
  for (int p = rule_start[e.rule_x]; p < rule_start[e.rule_x + 1]; ++p) {
    const double dx = e.cx + rule_t[p];
    C row(0.0);
    for (int q0 = rule_start[e.rule_y]; q0 < q_end; q0 += Row) {
      const int count = q_end - q0 < Row ? q_end - q0 : Row;
      double rho[Row], s[Row];
      PLANARMOM_SIMD
      for (int k = 0; k < Row; ++k) {
        // Past the row's end: a point of the row again (a valid ρ), never read.
        const double dy = eta * (e.cy + rule_t[q0 + (k < count ? k : 0)]);
        // Offsets of at most a grid's cells: sqrt cannot overflow here, and hypot costs more.
        rho[k] = a * std::sqrt(dx * dx + dy * dy);
        s[k] = g.position(rho[k]);
      }
      for (int k = 0; k < count; ++k) {
        C value = g.smooth_one_at(s[k], scalar);
        if (!near) value += c / rho[k];
        row += rule_w[q0 + k] * value;
      }
    }
    sum += rule_w[p] * row;
  }
  const double a3 = a * b * b, a4 = a3 * a;
  if (!near) return a4 * sum;
  return a4 * sum + c * a3 * e.static_part;
}

// The stored pairs of a sparse Z (CSR without values, in the mesh's basis order, sorted
// columns) and the charge reach its values keep (sparse_assembly.hpp): a plan for it holds only
// the table entries its entries read, far fewer than the dense Z's (a 5% mpie pattern reads the
// charge tables within its radius and the vector tables within its box).
struct PlanPattern {
  std::span<const index_t> row_ptr, col_idx;
  double charge_reach2 = HUGE_VAL;
};

// Throws std::invalid_argument as make_interaction_tables does for the options and the mesh.
// The near entries' static parts come from the process's cache (computed on first use).
// Without a pattern the plan serves every entry of the dense Z. On a mesh whose metal layers
// lie closer than half a cell the near offsets take 16 or 32 points per piece (their G between
// layers peaks over Δz; table_plan.cpp says where each order holds).
TablePlan make_table_plan(const geometry::Mesh& mesh, const AssemblyOptions& options = {},
                          const PlanPattern* pattern = nullptr);

// The plan's entries' values (in the order of plan.entries) at the Green's table's frequency on
// the host (OpenMP): what a band interpolates and an MPI rank shares, a tenth or less of the
// tables' slots. Throws std::invalid_argument when greens.rho_max() is short of what the plan's
// grid needs.
std::vector<std::complex<double>> evaluate_entries(const TablePlan& plan,
                                                   const GreensTable& greens);

// The tables at the Green's table's frequency on the host: evaluate_entries, placed.
InteractionTables evaluate_tables(const TablePlan& plan, const GreensTable& greens);
// A mesh with metal on several layers: its plan's entries under each pair of layers' Green's
// table (layer_pair order, assembly.hpp: its layers' own tables and those between them), one
// set of tables after another. Throws std::invalid_argument unless there is one table per pair.
InteractionTables evaluate_layer_tables(const TablePlan& plan,
                                        std::span<const GreensTable> pairs);

// The plan's tables at a frequency from its entries' values (one per entry), no Green's lookups
// counted: an evaluation made elsewhere (another MPI rank's) or an interpolation
// (band_tables.hpp). Throws std::invalid_argument for another count.
InteractionTables tables_from_entries(const TablePlan& plan, double frequency_hz,
                                      std::span<const std::complex<double>> entry_values);

}  // namespace pmom::mom
