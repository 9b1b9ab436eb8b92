// The CUDA fill against the host fill (the reference): every table entry and every stored Z
// entry, port loads included, on the coupler example's mesh (mpie pattern at 5%, lossy RO4003)
// and on an FR-4 variant, and on a dense pattern of a small L shape with cell bubbles. GPU test:
// skipped without a device (a failure under PLANARMOM_REQUIRE_GPU=1).
//
// Tolerance 1e-10 relative per entry: both sides run the same template code and differ only
// in the device's fused multiply-adds and summation rounding (~1e-16 per operation), magnified
// where the four charge terms of a far pair nearly cancel (a second difference of G, ~(a/d)²
// of its terms at d cells: 5e-5 across the coupler), so ~1e-11 at worst.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <complex>
#include <iostream>

#include "geometry/layouts.hpp"
#include "planarmom/geometry/config_yaml.hpp"
#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/mom/device_fill.hpp"
#include "planarmom/mom/port_loads.hpp"
#include "planarmom/mom/sparse_assembly.hpp"
#include "planarmom/mom/surface_loss.hpp"
#include "support/gpu.hpp"

namespace pmom::mom {
namespace {

using cd = std::complex<double>;

double worst_relative(const std::vector<cd>& got, const std::vector<cd>& want) {
  double worst = 0;
  for (std::size_t k = 0; k < want.size(); ++k)
    if (want[k] != cd(0.0)) worst = std::max(worst, std::abs(got[k] - want[k]) / std::abs(want[k]));
  return worst;
}

void expect_same_fill(const geometry::Mesh& mesh, const MpiePattern& host_pattern, double f_hz,
                      const std::vector<cd>& loads, const Conductor& metal = {}) {
  const FillPattern pattern{host_pattern.n, host_pattern.row_ptr, host_pattern.col_idx,
                            charge_reach2(host_pattern.sparsity)};
  const geometry::Substrate& sub = mesh.layout().substrate;
  const GreensTable greens(Slab{sub.eps_r, sub.loss_tangent, sub.height_mm * 1e-3, metal}, f_hz,
                           required_rho_max(mesh.grid()));
  const StripImpedance zs = strip_impedance(metal, f_hz);
  const TablePlan plan = make_table_plan(mesh);
  const InteractionTables tables = evaluate_tables(plan, greens);
  Csr<cd> z = assemble_sparse_impedance(mesh, tables, host_pattern);
  add_gap_loads(mesh, loads, z);
  const std::vector<GramEntry> gram =
      metal.perfect() ? std::vector<GramEntry>{}
                      : entries_in_pattern(strip_loss_entries(mesh, plan.edge_profiles),
                                           host_pattern.row_ptr, host_pattern.col_idx);
  add_surface_impedance(gram, zs, z);

  auto backend = make_cuda_backend<cd>();
  Block<cd> values = backend->allocate<cd>(static_cast<index_t>(z.nnz()), 1);
  backend->synchronize();  // the allocation's zeroing is queued on the backend's stream
  DeviceFill fill(mesh, plan, pattern, gram);
  fill.fill(greens, loads, values.data(), zs);
  const std::vector<cd> device_z = backend->download(values);
  std::vector<cd> used_host, used_device;
  const std::vector<cd> device_tables = fill.tables();
  for (const TablePlan::Entry& e : plan.entries) {
    used_host.push_back(tables.values[static_cast<std::size_t>(e.slot)]);
    used_device.push_back(device_tables[static_cast<std::size_t>(e.slot)]);
  }
  for (const long long slot : plan.copy_to) {
    used_host.push_back(tables.values[static_cast<std::size_t>(slot)]);
    used_device.push_back(device_tables[static_cast<std::size_t>(slot)]);
  }
  const double tables_error = worst_relative(used_device, used_host);
  const double z_error = worst_relative(device_z, z.values);
  std::cout << "[device_fill] " << mesh.basis().size() << " unknowns, " << used_host.size()
            << " table entries, nnz " << z.nnz() << ": worst relative difference tables "
            << tables_error << ", Z " << z_error << '\n';
  EXPECT_LE(tables_error, 1e-10);
  EXPECT_LE(z_error, 1e-10);
}

MpiePattern mpie_at(const geometry::Mesh& mesh, double density) {
  return mpie_pattern(mesh, choose_mpie_sparsity(mesh, density).sparsity);
}

geometry::Mesh coupler_mesh(double eps_r, double height_mm, double loss_tangent) {
  const std::string file =
      std::string(PLANARMOM_SOURCE_DIR) + "/examples/branch_line_coupler.yaml";
  geometry::GeometryConfig config = geometry::parse_geometry_config(YAML::LoadFile(file), file);
  config.layout.substrate = {eps_r, height_mm, loss_tangent};
  return config.make_mesh({0.4, 0.4});
}

TEST(DeviceFill, EqualsTheHostFillOnTheCouplerExample) {
  PMOM_REQUIRE_GPU();
  const geometry::Mesh mesh = coupler_mesh(3.38, 0.508, 0.0027);
  expect_same_fill(mesh, mpie_at(mesh, 0.05), 3e9,
                   {cd(50, -3), cd(49, 2), cd(51, 1), cd(50, 0)});
}

// Copper strips and ground: the lossy ground's tables and the strips' Gram entries too.
TEST(DeviceFill, EqualsTheHostFillOnFr4WithCopper) {
  PMOM_REQUIRE_GPU();
  const geometry::Mesh mesh = coupler_mesh(4.4, 1.6, 0.02);
  expect_same_fill(mesh, mpie_at(mesh, 0.05), 2.4e9, std::vector<cd>(4, cd(50, 0)),
                   Conductor{5.8e7, 35e-6});
}

// Every pair of the mesh's basis functions stored, with the scalar part's full reach.
MpiePattern every_pair(const geometry::Mesh& mesh) {
  MpiePattern dense;
  dense.sparsity = {1e9, 1e9, 1e9};
  dense.n = static_cast<index_t>(mesh.basis().size());
  for (index_t m = 0; m < dense.n; ++m) {
    for (index_t c = 0; c < dense.n; ++c) dense.col_idx.push_back(c);
    dense.row_ptr.push_back(static_cast<index_t>(dense.col_idx.size()));
  }
  return dense;
}

// Every pair stored: the scalar part's full reach, and the bubbles' four-term entries.
TEST(DeviceFill, EqualsTheHostFillOnADensePattern) {
  PMOM_REQUIRE_GPU();
  geometry::Layout l_shape = geometry::test::layout_of({{0, 0, 4, 1.5}, {0, 0, 1.5, 3}});
  l_shape.substrate = {3.38, 0.508, 0.0027};
  const geometry::Mesh mesh = geometry::make_mesh(l_shape, 0.5);
  ASSERT_GT(mesh.bubble_count(), 0);
  const MpiePattern dense = every_pair(mesh);
  expect_same_fill(mesh, dense, 6e9, {});
}

// Oblong cells (0.5 x 0.25 mm): the entries' two sides, the y-rooftops' charges and the loads
// across each port's gap.
TEST(DeviceFill, EqualsTheHostFillOnOblongCells) {
  PMOM_REQUIRE_GPU();
  geometry::Layout l_shape = geometry::test::layout_of(
      {{0, 0, 4, 1.5}, {0, 0, 1.5, 3}},
      {geometry::test::port("a", 4, 0.75, geometry::Direction::neg_x, 1.5),
       geometry::test::port("b", 0.75, 3, geometry::Direction::neg_y, 1)});
  l_shape.substrate = {3.38, 0.508, 0.0027};
  const geometry::Mesh mesh = geometry::make_mesh(l_shape, geometry::CellSize{0.5, 0.25});
  const MpiePattern dense = every_pair(mesh);
  expect_same_fill(mesh, dense, 6e9, {cd(50, 10), cd(30, -5)}, Conductor{5.8e7, 35e-6});
}

TEST(DeviceFill, RefusesAPatternOfAnotherSize) {
  PMOM_REQUIRE_GPU();
  const geometry::Mesh mesh = geometry::make_mesh(geometry::test::layout_of({{0, 0, 4, 1}}), 0.5);
  FillPattern wrong;
  wrong.n = 3;
  wrong.row_ptr = {0, 0, 0, 0};
  EXPECT_THROW(DeviceFill(mesh, make_table_plan(mesh), wrong), std::invalid_argument);
}

}  // namespace
}  // namespace pmom::mom
