// Filling Z from the offset tables (assembly.hpp) and the delta-gap excitation vector.
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/via_border.hpp"

namespace pmom::mom {

ImpedanceMatrix assemble_impedance(const geometry::Mesh& mesh, const InteractionTables& tables,
                                   const ViaKernels* vias) {
  ImpedanceMatrix z;
  assemble_impedance(mesh, tables, z, vias);
  return z;
}

void assemble_impedance(const geometry::Mesh& mesh, const InteractionTables& tables,
                        ImpedanceMatrix& z, const ViaKernels* vias) {
  const geometry::Grid& grid = mesh.grid();
  if (!tables.built_for(grid)) {
    throw std::invalid_argument("assemble_impedance: the tables were built for another grid");
  }
  if (!mesh.vias().empty() && vias == nullptr)
    throw std::invalid_argument("assemble_impedance: the mesh has vias; give their kernels");
  const int layers = mesh.layer_count();
  if (tables.layers != layers)
    throw std::invalid_argument("assemble_impedance: tables of " + std::to_string(tables.layers) +
                                " layers for a mesh of " + std::to_string(layers));
  const std::vector<RooftopCells> rooftops = rooftop_cells(mesh, tables.edge_profiles);
  std::vector<TableView> views;
  for (int pair = 0; pair < layer_pairs(layers); ++pair) views.push_back(host_view(tables, pair));
  // Each function's layer, where there are several (one layer: every entry reads views[0]).
  std::vector<int> layer_of;
  if (layers > 1)
    for (const geometry::Rooftop& r : mesh.basis()) layer_of.push_back(r.layer);

  // Every entry is written below: a matrix of the right size is reused as it is.
  z.n = static_cast<int>(mesh.unknowns());
  z.values.resize(static_cast<std::size_t>(z.n) * static_cast<std::size_t>(z.n));
  const auto n_r = static_cast<int>(rooftops.size());
  // Rows shrink along the triangle: dynamic scheduling balances them.
#pragma omp parallel for schedule(dynamic, 16)
  for (int m = 0; m < n_r; ++m) {
    const RooftopCells rm = rooftops[static_cast<std::size_t>(m)];
    const int layer_m = layers > 1 ? layer_of[static_cast<std::size_t>(m)] : 0;
    for (int n = m; n < n_r; ++n) {
      const TableView& view =
          layers > 1 ? views[static_cast<std::size_t>(
                           layer_pair(layer_m, layer_of[static_cast<std::size_t>(n)], layers))]
                     : views.front();
      const std::complex<double> value =
          basis_entry(view, rm, rooftops[static_cast<std::size_t>(n)]);
      z(m, n) = value;
      z(n, m) = value;
    }
  }
  if (!mesh.vias().empty()) add_via_border(via_border(mesh, tables, *vias), z);
}

std::vector<std::complex<double>> delta_gap_excitation(int unknowns, const std::vector<int>& basis,
                                                       std::complex<double> voltage,
                                                       double across_m) {
  std::vector<std::complex<double>> v(static_cast<std::size_t>(unknowns));
  for (const int m : basis) {
    if (m < 0 || m >= unknowns) {
      throw std::out_of_range("delta_gap_excitation: rooftop " + std::to_string(m) +
                              " outside [0, " + std::to_string(unknowns) + ")");
    }
    v[static_cast<std::size_t>(m)] += voltage * across_m;
  }
  return v;
}

}  // namespace pmom::mom
