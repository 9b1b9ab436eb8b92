// Z of metal on two interfaces of a stack (issue 39): the entries between the layers, which have
// no 1/R part to take out (G stays finite there, peaked over a width Δz at ρ = 0), converge in
// the quadrature: the default Gauss orders (the near ones raised where the layers lie closer than
// half a cell, make_table_plan) against twice as many points and against a reference of 64 near
// points per piece and a near zone twice as wide, on layers 2 to 1/10 of a cell apart. (One table serves both orders of
// a pair, G_ab = G_ba: test_layered_spectrum checks the spectra against the fields of Maxwell's
// equations with the source on either interface.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/greens_table.hpp"
#include "planarmom/mom/stackup.hpp"
#include "planarmom/mom/table_plan.hpp"

namespace pmom::mom {
namespace {

// A stripline board: 0.5 mm of RO4003, a core of FR-4 `core_mm` thick, 0.5 mm of RO4003, a
// ground on top; strips on the core's bottom and top (interfaces 1 and 2).
geometry::Substrate board(double core_mm) {
  geometry::Substrate s;
  s.eps_r = 3.38;
  s.height_mm = 0.5;
  s.cover = {{4.4, core_mm, 0.0}, {3.38, 0.5, 0.0}};
  s.top = geometry::Top::ground;
  return s;
}

// Two 0.6 mm strips, one on each interface, overlapping over 2 mm and offset along by 1 mm, on
// 0.1 mm cells.
geometry::Mesh two_strips(double core_mm) {
  geometry::Layout layout;
  layout.substrate = board(core_mm);
  layout.rects = {{0.0, 0.0, 3.0, 0.6, 1}, {1.0, 0.0, 4.0, 0.6, 2}};
  return geometry::make_mesh(layout, 0.1);
}

TEST(LayerTables, EntriesBetweenLayersConvergeInTheQuadrature) {
  AssemblyOptions fine;
  fine.far_order = 8;
  fine.near_order = 16;
  fine.distant_order = 6;
  fine.remote_order = 4;
  AssemblyOptions finer = fine;
  finer.near_order = 64;
  finer.near_cells = 6;
  for (const double core_mm : {0.2, 0.1, 0.05, 0.02, 0.01}) {
    const geometry::Mesh mesh = two_strips(core_mm);
    ASSERT_EQ(mesh.layer_count(), 2);
    const Stackup stack = stackup(mesh.layout().substrate, Conductor{});
    const std::vector<GreensTable> pairs = layer_pair_tables(
        stack, mesh.layers(), GreensTable(stack, 3e9, required_rho_max(mesh.grid())));
    const auto z = [&](const AssemblyOptions& o) {
      return assemble_impedance(mesh, evaluate_layer_tables(make_table_plan(mesh, o), pairs));
    };
    const ImpedanceMatrix coarse = z({}), mid = z(fine), ref = z(finer);
    // The block between the layers, against its largest entry.
    double scale = 0, d_default = 0, d_fine = 0;
    const auto& basis = mesh.basis();
    for (int m = 0; m < coarse.n; ++m)
      for (int n = 0; n < coarse.n; ++n) {
        if (basis[static_cast<std::size_t>(m)].layer == basis[static_cast<std::size_t>(n)].layer)
          continue;
        scale = std::max(scale, std::abs(ref(m, n)));
        d_default = std::max(d_default, std::abs(coarse(m, n) - ref(m, n)));
        d_fine = std::max(d_fine, std::abs(mid(m, n) - ref(m, n)));

      }
    std::printf("[layers] core %.2f mm (%.1f cells): Z between the layers, default orders %.2e, "
                "twice %.2e of the largest entry from the reference\n",
                core_mm, core_mm / 0.1, d_default / scale, d_fine / scale);
    EXPECT_GT(scale, 0.0);
    EXPECT_LT(d_default / scale, 1e-6);  // below the Green's tables' own accuracy
  }
}

}  // namespace
}  // namespace pmom::mom
