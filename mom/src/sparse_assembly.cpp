// The structure-preserving sparse Z (sparse_assembly.hpp): its pattern row by row from cell
// stencils, the density chooser, and the CSR fill.
#include "planarmom/mom/sparse_assembly.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace pmom::mom {
namespace {

constexpr double kMargin = 1.0 + 1e-12;

// The reaches count cells as lengths (a circle of R_P cells, the box A × T): square cells only.
void require_square_cells(const geometry::Mesh& mesh) {
  const geometry::Grid& g = mesh.grid();
  if (g.square()) return;
  throw std::invalid_argument(
      "the mpie rule's reaches are circles and boxes of square cells, and this mesh's cells are " +
      geometry::cell_text(g.cell()) + " mm: use sparsify rule exact or magnitude, or square cells");
}

void check_sparsity(const MpieSparsity& s) {
  for (const double reach : {s.charge_radius, s.along, s.across}) {
    if (!(reach >= 0) || !std::isfinite(reach)) {
      throw std::invalid_argument("MpieSparsity: reaches must be finite and >= 0, got R_P " +
                                  std::to_string(s.charge_radius) + ", A " +
                                  std::to_string(s.along) + ", T " + std::to_string(s.across));
    }
  }
}

struct Offset {
  int di, dj;
};

// Row-by-row pattern of the rooftops on a grid: the rooftops holding a piece in each cell, the
// rooftops of each axis by their minus cell (a cell bubble's rooftops share their edge with
// the rooftop there), the disk of piece offsets within R_P and the L box.
class Pattern {
 public:
  Pattern(const std::vector<RooftopCells>& rooftops, const geometry::Grid& grid,
          const MpieSparsity& s)
      : rooftops_(rooftops), nx_(grid.nx), ny_(grid.ny) {
    check_sparsity(s);
    r2_ = s.charge_radius * s.charge_radius * kMargin;
    const std::size_t cells = static_cast<std::size_t>(nx_) * static_cast<std::size_t>(ny_);
    by_cell_ = bucket(cells, [this](const RooftopCells& r, auto put) {
      put(cell(r.i, r.j));
      put(cell(plus_i(r), plus_j(r)));
    });
    for (int axis = 0; axis < 2; ++axis) {
      by_minus_[axis] = bucket(cells, [this, axis](const RooftopCells& r, auto put) {
        if (r.axis == axis) put(cell(r.i, r.j));
      });
    }
    // Offsets beyond the grid cannot join two cells of it.
    const auto reach = [](double r, int extent) {
      return static_cast<int>(std::min<double>(std::floor(r * kMargin), extent - 1));
    };
    const int ri = reach(s.charge_radius, nx_), rj = reach(s.charge_radius, ny_);
    for (int dj = -rj; dj <= rj; ++dj)
      for (int di = -ri; di <= ri; ++di)
        if (double(di) * di + double(dj) * dj <= r2_) disk_.push_back({di, dj});
    for (int axis = 0; axis < 2; ++axis) {
      const int along = reach(s.along, axis == 0 ? nx_ : ny_);
      const int across = reach(s.across, axis == 0 ? ny_ : nx_);
      for (int dt = -across; dt <= across; ++dt)
        for (int da = -along; da <= along; ++da)
          box_[axis].push_back(axis == 0 ? Offset{da, dt} : Offset{dt, da});
    }
  }

  [[nodiscard]] double r2() const { return r2_; }
  [[nodiscard]] int size() const { return static_cast<int>(rooftops_.size()); }

  // Row m's columns, sorted, into `cols`; `mark` (size N, per thread) remembers the last row
  // that took each column. Visits the stencils, or every rooftop where that is fewer.
  void row(int m, std::vector<int>& mark, std::vector<int>& cols) const {
    cols.clear();
    const RooftopCells rm = rooftops_[static_cast<std::size_t>(m)];
    const auto take = [&](int n) {
      if (mark[static_cast<std::size_t>(n)] != m) {
        mark[static_cast<std::size_t>(n)] = m;
        cols.push_back(n);
      }
    };
    const std::size_t stencil = 8 * disk_.size() + box_[rm.axis].size();
    if (stencil >= rooftops_.size()) {
      for (int n = 0; n < size(); ++n)
        if (in_pattern(rm, rooftops_[static_cast<std::size_t>(n)])) cols.push_back(n);
      return;  // already sorted
    }
    for (const auto [ci, cj] : {Offset{rm.i, rm.j}, Offset{plus_i(rm), plus_j(rm)}}) {
      for (const Offset o : disk_) {
        const int i = ci + o.di, j = cj + o.dj;
        if (i < 0 || i >= nx_ || j < 0 || j >= ny_) continue;
        const std::size_t c = cell(i, j);
        for (int k = by_cell_.start[c]; k < by_cell_.start[c + 1]; ++k)
          take(by_cell_.items[static_cast<std::size_t>(k)]);
      }
    }
    for (const Offset o : box_[rm.axis]) {
      const int i = rm.i + o.di, j = rm.j + o.dj;
      if (i < 0 || i >= nx_ || j < 0 || j >= ny_) continue;
      const std::size_t c = cell(i, j);
      const Buckets& minus = by_minus_[rm.axis];
      for (int k = minus.start[c]; k < minus.start[c + 1]; ++k)
        take(minus.items[static_cast<std::size_t>(k)]);
    }
    std::sort(cols.begin(), cols.end());
  }

 private:
  static int plus_i(const RooftopCells& r) { return r.i + (r.axis == 0 ? 1 : 0); }
  static int plus_j(const RooftopCells& r) { return r.j + (r.axis == 1 ? 1 : 0); }
  [[nodiscard]] std::size_t cell(int i, int j) const {
    return static_cast<std::size_t>(j) * static_cast<std::size_t>(nx_) +
           static_cast<std::size_t>(i);
  }
  [[nodiscard]] bool near(int di, int dj) const { return double(di) * di + double(dj) * dj <= r2_; }
  [[nodiscard]] bool in_pattern(const RooftopCells& m, const RooftopCells& n) const {
    if (near(n.i - m.i, n.j - m.j) || near(plus_i(n) - m.i, plus_j(n) - m.j) ||
        near(n.i - plus_i(m), n.j - plus_j(m)) ||
        near(plus_i(n) - plus_i(m), plus_j(n) - plus_j(m))) {
      return true;
    }
    if (m.axis != n.axis) return false;
    const int di = n.i - m.i, dj = n.j - m.j;
    const Offset corner = box_[m.axis].back();  // (+along, +across) in grid axes
    return std::abs(di) <= corner.di && std::abs(dj) <= corner.dj;
  }

  const std::vector<RooftopCells>& rooftops_;
  int nx_, ny_;
  double r2_ = 0;
  // The rooftops by key: items[start[k]] .. items[start[k + 1] − 1] have key k.
  struct Buckets {
    std::vector<int> start, items;
  };
  // A counting sort of the rooftops into `keys` keys; keys_of(r, put) calls put(key) for
  // each key of rooftop r (none, one or several).
  template <class KeysOf>
  [[nodiscard]] Buckets bucket(std::size_t keys, KeysOf keys_of) const {
    Buckets b;
    b.start.assign(keys + 1, 0);
    for (const RooftopCells& r : rooftops_) keys_of(r, [&b](std::size_t k) { ++b.start[k + 1]; });
    for (std::size_t k = 0; k < keys; ++k) b.start[k + 1] += b.start[k];
    b.items.resize(static_cast<std::size_t>(b.start.back()));
    std::vector<int> fill(b.start.begin(), b.start.end() - 1);
    for (int m = 0; m < static_cast<int>(rooftops_.size()); ++m) {
      keys_of(rooftops_[static_cast<std::size_t>(m)],
              [&](std::size_t k) { b.items[static_cast<std::size_t>(fill[k]++)] = m; });
    }
    return b;
  }

  Buckets by_cell_;      // the rooftops with a piece in each cell
  Buckets by_minus_[2];  // per axis, the rooftops by their minus cell
  std::vector<Offset> disk_, box_[2];
};

// Per-row counts of the pattern (row_counts[m] for row m).
std::vector<long long> row_counts(const Pattern& pattern) {
  const int n = pattern.size();
  std::vector<long long> counts(static_cast<std::size_t>(n));
#pragma omp parallel
  {
    std::vector<int> mark(static_cast<std::size_t>(n), -1), cols;
#pragma omp for schedule(dynamic, 16)
    for (int m = 0; m < n; ++m) {
      pattern.row(m, mark, cols);
      counts[static_cast<std::size_t>(m)] = static_cast<long long>(cols.size());
    }
  }
  return counts;
}

}  // namespace

long long mpie_pattern_nnz(const std::vector<RooftopCells>& rooftops, const geometry::Grid& grid,
                           const MpieSparsity& sparsity) {
  const Pattern pattern(rooftops, grid, sparsity);
  long long nnz = 0;
  for (const long long c : row_counts(pattern)) nnz += c;
  return nnz;
}

MpieDensityChoice choose_mpie_sparsity(const geometry::Mesh& mesh, double target_density) {
  require_square_cells(mesh);
  if (!(target_density > 0 && target_density <= 1)) {
    throw std::invalid_argument("choose_mpie_sparsity: target density must be in (0, 1], got " +
                                std::to_string(target_density));
  }
  const geometry::Grid& grid = mesh.grid();
  // The pattern only changes where R_P² crosses an integer or A = 2.04 R_P does; beyond the
  // grid's diagonal and extent nothing changes.
  const long long k_max = static_cast<long long>(grid.nx) * grid.nx +
                          static_cast<long long>(grid.ny) * grid.ny;
  std::vector<double> radii;
  for (long long k = 0; k <= k_max; ++k) radii.push_back(std::sqrt(static_cast<double>(k)));
  const int a_max = std::max(grid.nx, grid.ny);
  for (int k = 1; k <= a_max; ++k) radii.push_back(k / kMpieAlongPerChargeRadius);
  std::sort(radii.begin(), radii.end());
  radii.erase(std::unique(radii.begin(), radii.end()), radii.end());

  const double across = mpie_across_cells(mesh);
  const std::vector<RooftopCells> rooftops = rooftop_cells(mesh, false);
  const double n2 = static_cast<double>(rooftops.size()) * static_cast<double>(rooftops.size());
  std::vector<long long> nnz(radii.size(), -1);
  const auto nnz_at = [&](std::size_t k) {
    if (nnz[k] < 0) nnz[k] = mpie_pattern_nnz(rooftops, grid, mpie_sparsity(radii[k], across));
    return nnz[k];
  };
  // The last radius whose pattern has at most `limit` entries (-1: none), by bisection.
  const auto last_at_most = [&](long long limit) -> long long {
    long long lo = -1, hi = static_cast<long long>(radii.size());  // nnz(lo) <= limit < nnz(hi)
    while (hi - lo > 1) {
      const long long mid = (lo + hi) / 2;
      (nnz_at(static_cast<std::size_t>(mid)) <= limit ? lo : hi) = mid;
    }
    return lo;
  };
  const double target = target_density * n2;
  const long long below = last_at_most(static_cast<long long>(std::floor(target)));
  long long pick = below;
  if (below + 1 < static_cast<long long>(radii.size())) {
    // The next step up, at the largest radius that keeps its pattern, if it is within 0.002
    // and closer to the target.
    const long long above_nnz = nnz_at(static_cast<std::size_t>(below + 1));
    const double above_density = static_cast<double>(above_nnz) / n2;
    const bool closer = below < 0 || static_cast<double>(above_nnz) - target <
                                         target - static_cast<double>(nnz_at(
                                                      static_cast<std::size_t>(below)));
    if (above_density <= target_density + 0.002 && closer) pick = last_at_most(above_nnz);
  }
  if (pick < 0) pick = 0;
  MpieDensityChoice choice;
  choice.sparsity = mpie_sparsity(radii[static_cast<std::size_t>(pick)], across);
  choice.nnz = nnz_at(static_cast<std::size_t>(pick));
  choice.density = static_cast<double>(choice.nnz) / n2;
  return choice;
}

MpiePattern mpie_pattern(const geometry::Mesh& mesh, const MpieSparsity& sparsity) {
  require_square_cells(mesh);
  const std::vector<RooftopCells> rooftops = rooftop_cells(mesh, false);
  const Pattern pattern(rooftops, mesh.grid(), sparsity);
  const int n = pattern.size();
  const std::vector<long long> counts = row_counts(pattern);
  MpiePattern p;
  p.sparsity = sparsity;
  p.n = n;
  p.row_ptr.assign(static_cast<std::size_t>(n) + 1, 0);
  long long nnz = 0;
  for (int m = 0; m < n; ++m) {
    nnz += counts[static_cast<std::size_t>(m)];
    if (nnz > std::numeric_limits<index_t>::max()) {
      throw std::length_error("mpie_pattern: " + std::to_string(nnz) +
                              "+ entries overflow 32-bit indices");
    }
    p.row_ptr[static_cast<std::size_t>(m) + 1] = static_cast<index_t>(nnz);
  }
  p.col_idx.resize(static_cast<std::size_t>(nnz));
#pragma omp parallel
  {
    std::vector<int> mark(static_cast<std::size_t>(n), -1), cols;
#pragma omp for schedule(dynamic, 16)
    for (int m = 0; m < n; ++m) {
      pattern.row(m, mark, cols);
      std::copy(cols.begin(), cols.end(),
                p.col_idx.begin() + p.row_ptr[static_cast<std::size_t>(m)]);
    }
  }
  return p;
}

namespace {

// Z_s on a pattern given by its index arrays (taken over).
Csr<std::complex<double>> fill_pattern(const geometry::Mesh& mesh, const InteractionTables& tables,
                                       const MpieSparsity& sparsity, index_t rows,
                                       std::vector<index_t> row_ptr,
                                       std::vector<index_t> col_idx) {
  if (!tables.built_for(mesh.grid())) {
    throw std::invalid_argument(
        "assemble_sparse_impedance: the tables were built for another grid");
  }
  const std::vector<RooftopCells> rooftops = rooftop_cells(mesh, tables.edge_profiles);
  const int n = static_cast<int>(rooftops.size());
  if (rows != n || row_ptr.size() != static_cast<std::size_t>(n) + 1) {
    throw std::invalid_argument("assemble_sparse_impedance: the pattern has " +
                                std::to_string(rows) + " rows, the mesh " + std::to_string(n) +
                                " rooftops");
  }
  check_sparsity(sparsity);
  const TableView view = host_view(tables);
  const double r2 = charge_reach2(sparsity);

  Csr<std::complex<double>> z;
  z.rows = z.cols = n;
  z.row_ptr = std::move(row_ptr);
  z.col_idx = std::move(col_idx);
  z.values.resize(z.col_idx.size());
#pragma omp parallel for schedule(dynamic, 16)
  for (int m = 0; m < n; ++m) {
    const RooftopCells rm = rooftops[static_cast<std::size_t>(m)];
    const auto end = static_cast<std::size_t>(z.row_ptr[static_cast<std::size_t>(m) + 1]);
    for (auto k = static_cast<std::size_t>(z.row_ptr[static_cast<std::size_t>(m)]); k < end; ++k) {
      const int c = z.col_idx[k];
      const RooftopCells rc = rooftops[static_cast<std::size_t>(c)];
      // The upper triangle's evaluation for both halves, as assemble_impedance mirrors it.
      z.values[k] = c >= m ? basis_entry(view, rm, rc, r2) : basis_entry(view, rc, rm, r2);
    }
  }
  return z;
}

}  // namespace

double charge_reach2(const MpieSparsity& sparsity) {
  return sparsity.charge_radius * sparsity.charge_radius * kMargin;
}

Csr<std::complex<double>> assemble_sparse_impedance(const geometry::Mesh& mesh,
                                                    const InteractionTables& tables,
                                                    const MpiePattern& pattern) {
  return fill_pattern(mesh, tables, pattern.sparsity, pattern.n, pattern.row_ptr,
                      pattern.col_idx);
}

Csr<std::complex<double>> assemble_sparse_impedance(const geometry::Mesh& mesh,
                                                    const InteractionTables& tables,
                                                    const MpieSparsity& sparsity) {
  const geometry::Grid& grid = mesh.grid();
  if (grid.nx != tables.nx || grid.ny != tables.ny) {
    throw std::invalid_argument(
        "assemble_sparse_impedance: the tables were built for another grid");
  }
  MpiePattern p = mpie_pattern(mesh, sparsity);
  return fill_pattern(mesh, tables, sparsity, p.n, std::move(p.row_ptr), std::move(p.col_idx));
}

}  // namespace pmom::mom
