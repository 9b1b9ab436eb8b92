// The loaded gaps' loads added to a dense or CSR impedance matrix, and the lumped elements'
// impedances (port_loads.hpp).
#include "planarmom/mom/port_loads.hpp"

#include <cmath>
#include <numbers>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace pmom::mom {
namespace {

using cd = std::complex<double>;

// Calls add(m, n, Z_L a², gap) for every pair of every loaded gap's rooftops, after checking
// the sizes and the loads.
template <class Add>
void for_each_load_entry(const geometry::Mesh& mesh, std::span<const cd> load_ohm, long long rows,
                         Add add) {
  // Z of every unknown, or of the rooftops alone (an FFT operator's correction: the gaps are
  // rooftops).
  const auto n = static_cast<long long>(mesh.unknowns());
  const auto rooftops = static_cast<long long>(mesh.basis().size());
  if (rows != n && rows != rooftops) {
    throw std::invalid_argument("add_gap_loads: Z has " + std::to_string(rows) +
                                " rows but the mesh has " + std::to_string(n) + " unknowns (" +
                                std::to_string(rooftops) + " rooftops)");
  }
  const std::vector<geometry::LoadedGap> gaps = mesh.loaded_gaps();
  if (load_ohm.size() != gaps.size()) {
    throw std::invalid_argument("add_gap_loads: " + std::to_string(load_ohm.size()) +
                                " loads for " + std::to_string(gaps.size()) +
                                " loaded gaps (ports and lumped elements)");
  }
  for (std::size_t g = 0; g < load_ohm.size(); ++g) {
    const double a = gaps[g].across_mm * 1e-3;  // V_gap = Z_L · a Σ I across the gap
    const cd load = load_ohm[g];
    if (!std::isfinite(load.real()) || !std::isfinite(load.imag())) {
      throw std::invalid_argument("add_gap_loads: the load of " + gaps[g].name +
                                  " is not finite");
    }
    if (load == cd(0.0)) continue;
    for (const int m : *gaps[g].basis)
      for (const int k : *gaps[g].basis) add(m, k, load * a * a, gaps[g]);
  }
}

}  // namespace

void add_gap_loads(const geometry::Mesh& mesh, std::span<const cd> load_ohm, ImpedanceMatrix& z) {
  for_each_load_entry(mesh, load_ohm, z.n,
                      [&z](int m, int n, cd v, const geometry::LoadedGap&) { z(m, n) += v; });
}

void add_gap_loads(const geometry::Mesh& mesh, std::span<const cd> load_ohm, Csr<cd>& z) {
  for_each_load_entry(mesh, load_ohm, z.rows,
                      [&z](int m, int n, cd v, const geometry::LoadedGap& gap) {
    const std::int64_t at = csr_position(z.row_ptr, z.col_idx, m, n);
    if (at < 0) {
      throw std::invalid_argument("add_gap_loads: the sparse Z lacks entry (" +
                                  std::to_string(m) + ", " + std::to_string(n) +
                                  ") between two rooftops of the loaded gap of " + gap.name +
                                  "; keep the gap's pairs in its pattern (every entry of Z: "
                                  "no density or reach_heights)");
    }
    z.values[static_cast<std::size_t>(at)] += v;
  });
}

cd lumped_impedance(const geometry::LumpedElement& element, double frequency_hz) {
  const double omega = 2 * std::numbers::pi * frequency_hz;
  const double r = element.r_ohm, l = element.l_nh * 1e-9, c = element.c_pf * 1e-12;
  if (element.topology == geometry::LumpedElement::Topology::series)
    return cd(r, omega * l) + (c > 0 ? 1.0 / cd(0.0, omega * c) : cd(0.0));
  const cd admittance = (r > 0 ? cd(1.0 / r) : cd(0.0)) +
                        (l > 0 ? 1.0 / cd(0.0, omega * l) : cd(0.0)) + cd(0.0, omega * c);
  return 1.0 / admittance;
}

std::vector<cd> gap_loads(const geometry::Mesh& mesh, std::span<const cd> port_loads,
                          double frequency_hz, std::span<const cd> gap_shunts) {
  if (gap_shunts.size() != mesh.lumped().size())
    throw std::invalid_argument("gap_loads: " + std::to_string(gap_shunts.size()) +
                                " gap shunts for " + std::to_string(mesh.lumped().size()) +
                                " lumped elements");
  std::vector<cd> loads(port_loads.begin(), port_loads.end());
  for (std::size_t k = 0; k < mesh.lumped().size(); ++k) {
    const geometry::LumpedElement& e =
        mesh.layout().lumped[static_cast<std::size_t>(mesh.lumped()[k].element)];
    const cd admittance = 1.0 / lumped_impedance(e, frequency_hz) - gap_shunts[k];
    if (!(std::abs(admittance) > 0))
      throw std::invalid_argument("lumped element '" + e.name + "' at " +
                                  std::to_string(frequency_hz) + " Hz has the admittance of its "
                                  "own gap on the mesh: move it or change the cell");
    loads.push_back(1.0 / admittance);
  }
  return loads;
}

}  // namespace pmom::mom
