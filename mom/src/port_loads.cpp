// The ports' gap loads added to a dense or CSR impedance matrix (port_loads.hpp).
#include "planarmom/mom/port_loads.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace pmom::mom {
namespace {

using cd = std::complex<double>;

// Calls add(m, n, Z_L a²) for every pair of every loaded gap's rooftops, after checking the
// sizes and the loads.
template <class Add>
void for_each_load_entry(const geometry::Mesh& mesh, std::span<const cd> load_ohm, long long rows,
                         Add add) {
  const auto n = static_cast<long long>(mesh.basis().size());
  if (rows != n) {
    throw std::invalid_argument("add_port_loads: Z has " + std::to_string(rows) +
                                " rows but the mesh has " + std::to_string(n) + " rooftops");
  }
  if (load_ohm.size() != mesh.ports().size()) {
    throw std::invalid_argument("add_port_loads: " + std::to_string(load_ohm.size()) +
                                " loads for " + std::to_string(mesh.ports().size()) + " ports");
  }
  for (std::size_t p = 0; p < load_ohm.size(); ++p) {
    const double a = mesh.ports()[p].across_mm * 1e-3;  // V_gap = Z_L · a Σ I across the gap
    const cd load = load_ohm[p];
    if (!std::isfinite(load.real()) || !std::isfinite(load.imag())) {
      throw std::invalid_argument("add_port_loads: port " + std::to_string(p + 1) +
                                  "'s load is not finite");
    }
    if (load == cd(0.0)) continue;
    const std::vector<int>& gap = mesh.ports()[p].delta_gap().basis;
    for (const int m : gap)
      for (const int k : gap) add(m, k, load * a * a);
  }
}

}  // namespace

void add_port_loads(const geometry::Mesh& mesh, std::span<const cd> load_ohm, ImpedanceMatrix& z) {
  for_each_load_entry(mesh, load_ohm, z.n, [&z](int m, int n, cd v) { z(m, n) += v; });
}

void add_port_loads(const geometry::Mesh& mesh, std::span<const cd> load_ohm, Csr<cd>& z) {
  for_each_load_entry(mesh, load_ohm, z.rows, [&z](int m, int n, cd v) {
    const std::int64_t at = csr_position(z.row_ptr, z.col_idx, m, n);
    if (at < 0) {
      throw std::invalid_argument("add_port_loads: the sparse Z lacks entry (" +
                                  std::to_string(m) + ", " + std::to_string(n) +
                                  ") between two rooftops of a loaded port's gap; keep the "
                                  "gap's pairs in its pattern");
    }
    z.values[static_cast<std::size_t>(at)] += v;
  });
}

}  // namespace pmom::mom
