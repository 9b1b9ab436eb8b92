// A small circuit with junctions and corners, and S of a mesh by dense LU: what the tests that
// compare meshes of one circuit (cell bubbles, oblong cells) build and solve.
#pragma once

#include <Eigen/Dense>
#include <complex>
#include <utility>
#include <vector>

#include "geometry/layouts.hpp"
#include "planarmom/geometry/mesh.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/deembed.hpp"
#include "planarmom/mom/greens_table.hpp"
#include "planarmom/mom/surface_impedance.hpp"
#include "planarmom/mom/surface_loss.hpp"

namespace pmom::mom::test {

// A square ring of 1.6 mm strips (12.8 mm outside) between two 20 mm feeds at opposite
// corners, on the coupler's substrate: four T-junctions and corners, two cells across at
// 0.8 mm, where every cell is an edge cell. Transposed: mirrored in the diagonal x = y.
inline geometry::Layout ring_layout(bool transposed = false) {
  using geometry::Direction;
  using geometry::test::port;
  std::vector<geometry::Rect> rects{{20.0, 0.0, 32.8, 1.6}, {20.0, 11.2, 32.8, 12.8},
                                    {20.0, 0.0, 21.6, 12.8}, {31.2, 0.0, 32.8, 12.8},
                                    {0.0, 11.2, 20.0, 12.8}, {32.8, 0.0, 52.8, 1.6}};
  std::vector<geometry::Port> ports{port("a", 0.0, 12.0, Direction::pos_x, 20),
                                    port("b", 52.8, 0.8, Direction::neg_x, 20)};
  if (transposed) {
    for (geometry::Rect& r : rects) r = {r.y0, r.x0, r.y1, r.x1};
    for (geometry::Port& p : ports) {
      std::swap(p.x_mm, p.y_mm);
      p.direction = p.direction == Direction::pos_x ? Direction::pos_y : Direction::neg_y;
    }
  }
  geometry::Layout layout = geometry::test::layout_of(rects, ports);
  layout.substrate = {3.38, 0.508, 0.0027};
  return layout;
}

// S by dense LU, every feed referred to 50 Ω, with the strips' conductor loss where the slab's
// metal is not perfect.
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
  const SParameters s = deembed(mesh, currents, std::vector<cd>(static_cast<std::size_t>(p), 50));
  Eigen::MatrixXcd m(p, p);
  for (Eigen::Index r = 0; r < p; ++r)
    for (Eigen::Index c = 0; c < p; ++c) m(r, c) = s(static_cast<int>(r), static_cast<int>(c));
  return m;
}

}  // namespace pmom::mom::test
