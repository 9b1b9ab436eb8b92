// The basis's Gram matrix and the strips' surface impedance added to Z (surface_loss.hpp).
#include "planarmom/mom/surface_loss.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>

#include "planarmom/mom/edge_profile.hpp"

namespace pmom::mom {
namespace {

using cd = std::complex<double>;

geometry::Edge edge(int code) { return static_cast<geometry::Edge>(code); }

// The tables' interface (assembly.hpp) with the Green's function a delta: vector table
// (axis, k_m, k_n) at offset Δ is ⟨f_m, f_n⟩ of two rooftops of those kinds, charge tables 0,
// so that basis_entry gives the Gram entry of two basis functions (bubbles included).
struct GramTables {
  double a2 = 0;
  double jw = 1.0, inv_a2 = 0.0, y_charge = 1.0;

  [[nodiscard]] double value(int table, int di, int dj) const {
    if (table >= kVectorTables) return 0.0;
    const int axis = table / (kRooftopKinds * kRooftopKinds);
    const int obs = table / kRooftopKinds % kRooftopKinds, src = table % kRooftopKinds;
    const int along = axis == 0 ? di : dj, across = axis == 0 ? dj : di;
    if (across != 0 || along < -1 || along > 1) return 0.0;
    const auto ramp = [](int kind) { return ramp_pieces(edge(kind / 9), edge(kind / 3 % 3)); };
    return a2 * shape_overlap(ramp(obs), ramp(src), along) *
           shape_overlap(profile_pieces(edge(obs % 3)), profile_pieces(edge(src % 3)), 0.0);
  }
};

}  // namespace

std::vector<GramEntry> basis_gram(const geometry::Mesh& mesh, bool edge_profiles) {
  const std::vector<RooftopCells> cells = rooftop_cells(mesh, edge_profiles);
  // Basis functions by (axis, row across, place along) of their minus cell.
  std::map<std::tuple<int, int, int>, std::vector<index_t>> at;
  const auto key = [](const RooftopCells& c, int shift) {
    return c.axis == 0 ? std::tuple(0, c.j, c.i + shift) : std::tuple(1, c.i, c.j + shift);
  };
  for (std::size_t k = 0; k < cells.size(); ++k)
    at[key(cells[k], 0)].push_back(static_cast<index_t>(k));
  const GramTables tables{mesh.grid().dx_mm * 1e-3 * (mesh.grid().dy_mm * 1e-3)};
  std::vector<GramEntry> gram;
  for (std::size_t m = 0; m < cells.size(); ++m)
    for (const int shift : {-1, 0, 1}) {
      const auto found = at.find(key(cells[m], shift));
      if (found == at.end()) continue;
      for (const index_t n : found->second) {
        const double g = basis_entry(tables, cells[m], cells[static_cast<std::size_t>(n)]);
        if (g != 0.0) gram.push_back({static_cast<index_t>(m), n, g});
      }
    }
  std::sort(gram.begin(), gram.end(), [](const GramEntry& x, const GramEntry& y) {
    return std::tie(x.row, x.col) < std::tie(y.row, y.col);
  });
  return gram;
}

void add_surface_impedance(std::span<const GramEntry> gram, const StripImpedance& strip,
                           ImpedanceMatrix& z) {
  for (const GramEntry& e : gram) {
    if (e.row < 0 || e.row >= z.n || e.col < 0 || e.col >= z.n)
      throw std::invalid_argument("add_surface_impedance: entry (" + std::to_string(e.row) +
                                  ", " + std::to_string(e.col) + ") outside Z of " +
                                  std::to_string(z.n) + " rows");
    z(e.row, e.col) += strip.sheet * e.value + strip.image * e.image;
  }
}

void add_surface_impedance(std::span<const GramEntry> gram, const StripImpedance& strip,
                           Csr<cd>& z) {
  for (const GramEntry& e : gram) {
    const std::int64_t k = e.row >= 0 && e.row < z.rows
                               ? csr_position(z.row_ptr, z.col_idx, e.row, e.col)
                               : -1;
    if (k < 0)
      throw std::invalid_argument("add_surface_impedance: Z's pattern lacks entry (" +
                                  std::to_string(e.row) + ", " + std::to_string(e.col) + ")");
    z.values[static_cast<std::size_t>(k)] += strip.sheet * e.value + strip.image * e.image;
  }
}

std::vector<GramEntry> entries_in_pattern(std::span<const GramEntry> entries,
                                          std::span<const index_t> row_ptr,
                                          std::span<const index_t> col_idx) {
  std::vector<GramEntry> kept;
  for (const GramEntry& e : entries)
    if (e.row >= 0 && static_cast<std::size_t>(e.row) + 1 < row_ptr.size() &&
        csr_position(row_ptr, col_idx, e.row, e.col) >= 0)
      kept.push_back(e);
  return kept;
}

}  // namespace pmom::mom
