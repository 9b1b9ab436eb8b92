// Z's via rows and columns (via_border.hpp).
#include "planarmom/mom/via_border.hpp"

#include <algorithm>
#include <array>
#include <boost/math/special_functions/bessel.hpp>
#include <cmath>
#include <stdexcept>
#include <string>

#include "planarmom/mom/constants.hpp"
#include "planarmom/mom/edge_profile.hpp"
#include "kinds.hpp"

namespace pmom::mom {
namespace {

using cd = std::complex<double>;

// The Gauss rules of two cells' profile overlaps at the orders the distance asks: the offset
// tables' remote, distant, far and near orders (AssemblyOptions), and twice the near one for
// K_vv's logarithm.
class CellRules {
 public:
  enum Order { remote, distant, far, near, near_log, kCount };
  explicit CellRules(const AssemblyOptions& o) : options_(o) {
    const std::array<int, kCount> orders{o.remote_order, o.distant_order, o.far_order,
                                         o.near_order, 2 * o.near_order};
    for (std::size_t k = 0; k < orders.size(); ++k)
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b)
          rules_[k][static_cast<std::size_t>(3 * a + b)] = overlap_rule(
              profile_pieces(edge_of(a)), profile_pieces(edge_of(b)), -1, 1, orders[k]);
  }
  [[nodiscard]] const WeightRule& at(Order order, geometry::Edge obs, geometry::Edge src) const {
    return rules_[static_cast<std::size_t>(order)]
                 [static_cast<std::size_t>(3 * static_cast<int>(obs) + static_cast<int>(src))];
  }
  // The order for cells Δ apart, by the tables' own reach_of.
  [[nodiscard]] Order order_for(double dx, double dy, int di, int dj, bool log) const {
    switch (reach_of(options_, dx, dy, di, dj)) {
      case Reach::near: return log ? near_log : near;
      case Reach::far: return far;
      case Reach::distant: return distant;
      case Reach::remote: break;
    }
    return remote;
  }

 private:
  AssemblyOptions options_;
  std::array<std::array<WeightRule, 9>, kCount> rules_;
};

struct Cells {
  double a = 0, b = 0;  // the sides along x and y, m
};

// ∫_c ∫_c+Δ ρ_c ρ_c' K(|r − r'|) of two cell shapes, by the rules of the distance.
template <class K>
cd cell_pair(const CellRules& rules, const Cells& cells, int obs_kind, int src_kind, int di,
             int dj, bool log, K&& kernel) {
  const CellProfile obs = cell_profile(obs_kind), src = cell_profile(src_kind);
  const CellRules::Order order = rules.order_for(cells.a, cells.b, di, dj, log);
  const WeightRule& rx = rules.at(order, obs.x, src.x);
  const WeightRule& ry = rules.at(order, obs.y, src.y);
  const double eta = cells.b / cells.a;
  cd sum = 0.0;
  for (std::size_t p = 0; p < rx.t.size(); ++p) {
    const double dx = di + rx.t[p];
    cd row = 0.0;
    for (std::size_t q = 0; q < ry.t.size(); ++q) {
      const double dy = eta * (dj + ry.t[q]);
      row += ry.w[q] * kernel(cells.a * std::sqrt(dx * dx + dy * dy));
    }
    sum += rx.w[p] * row;
  }
  return cells.a * cells.a * cells.b * cells.b * sum;
}

// Values of a pair of cells that depend only on their charge kinds and offset (di, dj): each
// computed once for all the vias that need it (a fence's cells share most of their offsets
// with the pieces), on a dense grid of offsets per pair of kinds. Not thread-safe to mark;
// compute() fills the marked slots in parallel.
class OffsetValues {
 public:
  explicit OffsetValues(const geometry::Grid& grid)
      : nx_(grid.nx),
        ny_(grid.ny),
        slots_(static_cast<std::size_t>(2 * grid.nx - 1) *
               static_cast<std::size_t>(2 * grid.ny - 1)) {}
  void mark(int obs_kind, int src_kind, int di, int dj) {
    std::vector<int>& at = index_[key(obs_kind, src_kind)];
    if (at.empty()) at.assign(slots_, -1);
    int& slot = at[slot_of(di, dj)];
    if (slot >= 0) return;
    slot = static_cast<int>(keys_.size());
    keys_.push_back({obs_kind, src_kind, di, dj});
  }
  // value(obs_kind, src_kind, di, dj) for every marked offset.
  template <class Value> void compute(const Value& value) {
    values_.resize(keys_.size());
    const auto count = static_cast<long long>(keys_.size());
#pragma omp parallel for schedule(dynamic, 64)
    for (long long k = 0; k < count; ++k) {
      const Key& e = keys_[static_cast<std::size_t>(k)];
      values_[static_cast<std::size_t>(k)] = value(e.obs_kind, e.src_kind, e.di, e.dj);
    }
  }
  [[nodiscard]] cd at(int obs_kind, int src_kind, int di, int dj) const {
    return values_[static_cast<std::size_t>(index_[key(obs_kind, src_kind)][slot_of(di, dj)])];
  }

 private:
  struct Key {
    int obs_kind, src_kind, di, dj;
  };
  static std::size_t key(int obs_kind, int src_kind) {
    return static_cast<std::size_t>(obs_kind * kChargeKinds + src_kind);
  }
  [[nodiscard]] std::size_t slot_of(int di, int dj) const {
    return static_cast<std::size_t>(dj + ny_ - 1) * static_cast<std::size_t>(2 * nx_ - 1) +
           static_cast<std::size_t>(di + nx_ - 1);
  }
  int nx_, ny_;
  std::size_t slots_;
  // Per pair of kinds (empty until one is marked): offset slot → value, or −1.
  std::vector<std::vector<int>> index_ = std::vector<std::vector<int>>(kChargeKinds * kChargeKinds);
  std::vector<Key> keys_;
  std::vector<cd> values_;
};

// Z_vv' of the via cells (vias × vias): P_V/(jω) + P_vv, K_vv's logarithm integrated here;
// each pair of kinds and offset once.
template <class ChargeEntry>
std::vector<cd> via_block(const geometry::Grid& grid, const CellRules& rules, const Cells& cells,
                          const std::vector<geometry::Cell>& vias, const std::vector<int>& kinds,
                          const ViaKernels& kernels, const ChargeEntry& charge_entry, cd jw) {
  const cd log_coefficient = kernels.log_coefficient();
  const double kappa = 1.0 / kernels.log_scale();
  const double inv_a2 = 1.0 / (cells.a * cells.a);
  OffsetValues pairs(grid);
  for (std::size_t v = 0; v < vias.size(); ++v)
    for (std::size_t u = v; u < vias.size(); ++u)
      pairs.mark(kinds[v], kinds[u], vias[u].i - vias[v].i, vias[u].j - vias[v].j);
  pairs.compute([&](int obs_kind, int src_kind, int di, int dj) {
    const cd smooth = cell_pair(rules, cells, obs_kind, src_kind, di, dj, false,
                                [&](double rho) { return kernels.self_smooth(rho); });
    const cd log = cell_pair(rules, cells, obs_kind, src_kind, di, dj, true, [&](double rho) {
      return cd(boost::math::cyl_bessel_k(0, kappa * rho));
    });
    return inv_a2 *
           (charge_entry(obs_kind, src_kind, di, dj) / jw + smooth + log_coefficient * log);
  });
  std::vector<cd> block(vias.size() * vias.size());
  for (std::size_t v = 0; v < vias.size(); ++v)
    for (std::size_t u = v; u < vias.size(); ++u) {
      const cd z = pairs.at(kinds[v], kinds[u], vias[u].i - vias[v].i, vias[u].j - vias[v].j);
      block[v * vias.size() + u] = z;
      block[u * vias.size() + v] = z;
    }
  return block;
}

// The rooftops' charges as (cell, charge kind) pieces, each piece once: what a via row reads
// per piece, then combines per basis function (with its signs, its divergence's scale and a
// bubble's subtracted rooftop).
struct RooftopCharges {
  struct Piece {
    int i, j, kind;
  };
  struct Charges {
    int minus, plus, minus2 = -1, plus2 = -1;
    double divergence;
  };
  std::vector<Piece> pieces;
  std::vector<Charges> of_basis;
  std::vector<int> first_kind;  // per cell (row-major): the kind its first rooftop gives it, or −1

  RooftopCharges(const geometry::Grid& grid, const std::vector<RooftopCells>& basis,
                 double y_charge)
      : first_kind(static_cast<std::size_t>(grid.nx) * static_cast<std::size_t>(grid.ny), -1) {
    std::vector<int> position(first_kind.size() * kChargeKinds, -1);
    const auto piece = [&](int i, int j, int kind) {
      const std::size_t cell = static_cast<std::size_t>(j) * static_cast<std::size_t>(grid.nx) +
                               static_cast<std::size_t>(i);
      if (first_kind[cell] < 0) first_kind[cell] = kind;
      int& at = position[cell * kChargeKinds + static_cast<std::size_t>(kind)];
      if (at < 0) {
        at = static_cast<int>(pieces.size());
        pieces.push_back({i, j, kind});
      }
      return at;
    };
    of_basis.reserve(basis.size());
    for (const RooftopCells& r : basis) {
      const int pi_ = r.i + (r.axis == 0 ? 1 : 0), pj = r.j + (r.axis == 1 ? 1 : 0);
      Charges c{piece(r.i, r.j, r.minus_charge), piece(pi_, pj, r.plus_charge), -1, -1,
                r.axis == 1 ? y_charge : 1.0};
      if (r.kind2 >= 0) {
        c.minus2 = piece(r.i, r.j, r.minus_charge2);
        c.plus2 = piece(pi_, pj, r.plus_charge2);
      }
      of_basis.push_back(c);
    }
  }
};

// The barrels' surface impedance: a via's current I (a_y per unit of each of its cells'
// unknowns) flows on its barrel's perimeter π d over the height h, so Zs h/(π d) I² adds
// a_y² Zs h/(π d) to every pair of its cells.
void add_barrels(const geometry::Mesh& mesh, const Cells& cells, const ViaKernels& kernels,
                 ViaBorder& border) {
  if (kernels.surface_impedance() == 0.0) return;
  const auto n_v = static_cast<std::size_t>(border.vias);
  std::size_t first = 0;
  for (const geometry::MeshVia& v : mesh.vias()) {
    const double diameter_m = mesh.layout().vias[static_cast<std::size_t>(v.via)].diameter_mm * 1e-3;
    const cd z = cells.b * cells.b * kernels.surface_impedance() * kernels.height() /
                 (pi * diameter_m);
    for (std::size_t r = first; r < first + v.cells.size(); ++r)
      for (std::size_t c = first; c < first + v.cells.size(); ++c) border.block[r * n_v + c] += z;
    first += v.cells.size();
  }
}

}  // namespace

ViaBorder via_border(const geometry::Mesh& mesh, const InteractionTables& tables,
                     const ViaKernels& kernels) {
  const geometry::Grid& grid = mesh.grid();
  if (!tables.built_for(grid))
    throw std::invalid_argument("via_border: the offset tables were built for another grid");
  if (std::abs(tables.frequency_hz - kernels.frequency()) > 1e-9 * kernels.frequency())
    throw std::invalid_argument("via_border: the tables and the via kernels are of different "
                                "frequencies");
  if (kernels.rho_max() < required_rho_max(grid) * (1.0 - 1e-12))
    throw std::invalid_argument("via_border: the via kernels do not reach across the grid");
  std::vector<geometry::Cell> vias;
  for (const geometry::MeshVia& v : mesh.vias())
    vias.insert(vias.end(), v.cells.begin(), v.cells.end());
  const std::vector<RooftopCells> basis = rooftop_cells(mesh, tables.edge_profiles);
  ViaBorder border;
  border.rooftops = static_cast<int>(basis.size());
  border.vias = static_cast<int>(vias.size());
  if (vias.empty()) return border;

  const Cells cells{tables.dx_m, tables.dy_m};
  const CellRules rules{AssemblyOptions{}};
  const cd jw(0.0, 2.0 * pi * kernels.frequency());
  const double inv_a2 = 1.0 / (cells.a * cells.a);
  const RooftopCharges charges(grid, basis, cells.a / cells.b);
  // A via's charge shape is the one its cell's first rooftop gives the cell: then every charge
  // table entry it reads is one the rooftops' pairs read too (the dense plan computes them).
  std::vector<int> kinds;
  for (const geometry::Cell& c : vias) {
    const int kind = charges.first_kind[static_cast<std::size_t>(c.j) * grid.nx + c.i];
    if (kind < 0)
      throw std::invalid_argument("via_border: a via's cell (" + std::to_string(c.i) + ", " +
                                  std::to_string(c.j) + ") has no rooftop (a piece of one cell)");
    kinds.push_back(kind);
  }
  const auto charge_entry = [&](int obs_kind, int src_kind, int di, int dj) {
    const int table = charge_table(obs_kind, src_kind);
    if (tables.start[static_cast<std::size_t>(table)] < 0)
      throw std::invalid_argument("via_border: the offset tables lack the charge table of kinds " +
                                  std::to_string(obs_kind) + " and " + std::to_string(src_kind) +
                                  " (tables of a sparse pattern?)");
    return tables.at(table, di, dj);
  };

  // Per piece and via cell: P_V/(jω) − P_vh, a function of their kinds and offset alone.
  OffsetValues piece_values(grid);
  for (std::size_t v = 0; v < vias.size(); ++v)
    for (const RooftopCharges::Piece& p : charges.pieces)
      piece_values.mark(p.kind, kinds[v], vias[v].i - p.i, vias[v].j - p.j);
  piece_values.compute([&](int obs_kind, int src_kind, int di, int dj) {
    const cd coupling = cell_pair(rules, cells, obs_kind, src_kind, di, dj, false,
                                  [&](double rho) { return kernels.coupling(rho); });
    return charge_entry(obs_kind, src_kind, di, dj) / jw - coupling;
  });
  const auto n_r = static_cast<std::size_t>(border.rooftops);
  border.rows.assign(vias.size() * n_r, cd(0.0));
  std::vector<cd> w(charges.pieces.size());  // per piece, of the via cell at hand
  for (std::size_t v = 0; v < vias.size(); ++v) {
    const geometry::Cell cv = vias[v];
    for (std::size_t k = 0; k < w.size(); ++k) {
      const RooftopCharges::Piece& p = charges.pieces[k];
      w[k] = piece_values.at(p.kind, kinds[v], cv.i - p.i, cv.j - p.j);
    }
    cd* row = border.rows.data() + v * n_r;
    for (std::size_t m = 0; m < n_r; ++m) {
      const RooftopCharges::Charges& c = charges.of_basis[m];
      cd z = w[static_cast<std::size_t>(c.minus)] - w[static_cast<std::size_t>(c.plus)];
      if (c.minus2 >= 0)
        z -= w[static_cast<std::size_t>(c.minus2)] - w[static_cast<std::size_t>(c.plus2)];
      row[m] = inv_a2 * c.divergence * z;
    }
  }

  border.block = via_block(grid, rules, cells, vias, kinds, kernels, charge_entry, jw);
  add_barrels(mesh, cells, kernels, border);
  return border;
}

void add_via_border(const ViaBorder& border, ImpedanceMatrix& z) {
  const int n = border.rooftops + border.vias;
  if (z.n != n || z.values.size() != static_cast<std::size_t>(n) * static_cast<std::size_t>(n))
    throw std::invalid_argument("add_via_border: Z is " + std::to_string(z.n) + " x " +
                                std::to_string(z.n) + ", the border needs " + std::to_string(n));
  for (int v = 0; v < border.vias; ++v) {
    const int row = border.rooftops + v;
    for (int m = 0; m < border.rooftops; ++m) {
      const cd value = border.rows[static_cast<std::size_t>(v) * border.rooftops + m];
      z(row, m) = value;
      z(m, row) = value;
    }
    for (int u = 0; u < border.vias; ++u)
      z(row, border.rooftops + u) = border.block[static_cast<std::size_t>(v) * border.vias + u];
  }
}

void via_border_product(const ViaBorder& border, const cd* x, cd* y) {
  const auto n_r = static_cast<std::size_t>(border.rooftops);
  const auto n_v = static_cast<std::size_t>(border.vias);
  for (std::size_t v = 0; v < n_v; ++v) {
    const cd* row = border.rows.data() + v * n_r;
    const cd xv = x[n_r + v];
    cd sum = 0.0;
    for (std::size_t m = 0; m < n_r; ++m) {
      sum += row[m] * x[m];
      y[m] += row[m] * xv;
    }
    for (std::size_t u = 0; u < n_v; ++u) sum += border.block[v * n_v + u] * x[n_r + u];
    y[n_r + v] += sum;
  }
}

cd via_border_entry(const ViaBorder& border, long long i, long long j) {
  const long long n_r = border.rooftops;
  if (i < n_r && j < n_r) return 0.0;
  if (i >= n_r && j >= n_r)
    return border.block[static_cast<std::size_t>((i - n_r) * border.vias + (j - n_r))];
  const long long v = std::max(i, j) - n_r, m = std::min(i, j);
  return border.rows[static_cast<std::size_t>(v * n_r + m)];
}

}  // namespace pmom::mom
