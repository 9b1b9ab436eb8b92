// S of a small mesh by dense LU, every feed referred to 50 Ω, with the strips' conductor loss
// where the slab's metal is not perfect: what the tests that compare meshes of one circuit
// (cell bubbles, oblong cells) solve.
#pragma once

#include <Eigen/Dense>
#include <complex>
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/deembed.hpp"
#include "planarmom/mom/greens_table.hpp"
#include "planarmom/mom/surface_impedance.hpp"
#include "planarmom/mom/surface_loss.hpp"

namespace pmom::mom::test {

inline Eigen::MatrixXcd dense_s(const geometry::Mesh& mesh, const Slab& slab, double f_hz) {
  using cd = std::complex<double>;
  const auto n = static_cast<Eigen::Index>(mesh.basis().size());
  const auto p = static_cast<Eigen::Index>(mesh.ports().size());
  const GreensTable greens(slab, f_hz, required_rho_max(mesh.grid()));
  ImpedanceMatrix z = assemble_impedance(mesh, make_interaction_tables(greens, mesh));
  if (!slab.ground.perfect())
    add_surface_impedance(strip_loss_entries(mesh, true), strip_impedance(slab.ground, f_hz), z);
  std::vector<cd> v = port_excitations(mesh);
  using RowMajor = Eigen::Matrix<cd, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Eigen::MatrixXcd x = Eigen::Map<const RowMajor>(z.values.data(), n, n)
                                 .partialPivLu()
                                 .solve(Eigen::Map<const Eigen::MatrixXcd>(v.data(), n, p));
  const std::vector<cd> currents(x.data(), x.data() + p * n);
  const SParameters s = deembed(mesh, currents, std::vector<double>(static_cast<std::size_t>(p), 50));
  Eigen::MatrixXcd m(p, p);
  for (Eigen::Index r = 0; r < p; ++r)
    for (Eigen::Index c = 0; c < p; ++c) m(r, c) = s(static_cast<int>(r), static_cast<int>(c));
  return m;
}

}  // namespace pmom::mom::test
