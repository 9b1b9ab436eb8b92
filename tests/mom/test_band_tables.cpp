// BandTables: the offset tables interpolated over a band against evaluate_tables at frequencies
// between the nodes, on a thin lossy RO4003 board and on thick FR-4 with copper (lossy ground
// tables), over 1-6 GHz (more than the octaves the examples sweep).
//
// Tolerance: the interpolation is accepted when two checks between its nodes agree to 1e-9 of
// the largest entry; elsewhere in the band its error is of the same size (Chebyshev
// interpolation's error is spread evenly over the band), so 1e-8 leaves room without hiding a
// wrong phase or node (those give errors of order 1e-3 and more).
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <complex>

#include "geometry/layouts.hpp"
#include "planarmom/geometry/mesh.hpp"
#include "planarmom/mom/band_tables.hpp"
#include "planarmom/mom/surface_impedance.hpp"

namespace pmom::mom {
namespace {

using cd = std::complex<double>;

// An L of two 50-ohm-ish strips, 40 and 30 mm: offsets up to 50 mm (k0 R up to 6 rad at 6 GHz).
geometry::Mesh l_mesh(double eps_r, double height_mm, double loss_tangent) {
  geometry::Layout layout =
      geometry::test::layout_of({{0, 0, 40.2, 1.2}, {39.0, 1.2, 40.2, 30.0}});
  layout.substrate = {eps_r, height_mm, loss_tangent};
  return geometry::make_mesh(layout, 0.6);
}

struct Board {
  geometry::Mesh mesh;
  Conductor metal;
};

double relative_error(const InteractionTables& got, const InteractionTables& want) {
  EXPECT_EQ(got.values.size(), want.values.size());
  double worst = 0, largest = 0;
  for (std::size_t i = 0; i < want.values.size(); ++i) {
    worst = std::max(worst, std::abs(got.values[i] - want.values[i]));
    largest = std::max(largest, std::abs(want.values[i]));
  }
  return worst / largest;
}

void expect_interpolated(const Board& board) {
  const geometry::Substrate& sub = board.mesh.layout().substrate;
  const auto greens = [&](double f) {
    return GreensTable(Slab{sub.eps_r, sub.loss_tangent, sub.height_mm * 1e-3, board.metal}, f,
                       required_rho_max(board.mesh.grid()));
  };
  const TablePlan plan = make_table_plan(board.mesh);
  const BandTables band(plan, greens, 1e9, 6e9, 1e-9);
  ASSERT_TRUE(band.interpolates()) << "error " << band.error();
  EXPECT_LE(band.error(), 1e-9);
  EXPECT_LE(band.evaluations(), 19) << "at most the 17 nodes of the third level and 2 checks";
  std::cout << "  " << band.nodes() << " nodes, " << band.evaluations()
            << " evaluations, checks " << band.error() << " of the largest entry\n";
  // A sweep passes the last frequency's tables back to be overwritten (the unused slots stay
  // 0): the same tables bit for bit as a fresh interpolation.
  InteractionTables reused = evaluate_tables(plan, greens(6e9));
  for (const double f : {1.0123e9, 2.2e9, 3.5e9, 4.87e9, 5.99e9}) {
    const GreensTable g = greens(f);
    const InteractionTables fresh = band.at(g);
    const double error = relative_error(fresh, evaluate_tables(plan, g));
    EXPECT_LE(error, 1e-8) << "at " << f * 1e-9 << " GHz";
    std::cout << "  " << f * 1e-9 << " GHz: " << error << "\n";
    band.at(g, reused);
    EXPECT_EQ(reused.values, fresh.values) << "at " << f * 1e-9 << " GHz";
    EXPECT_EQ(reused.frequency_hz, f);
  }
  // Outside the band the tables are evaluated, bit for bit.
  const GreensTable outside = greens(7e9);
  EXPECT_EQ(band.at(outside).values, evaluate_tables(plan, outside).values);
}

TEST(BandTables, InterpolateTheTablesOfAThinLossyBoard) {
  expect_interpolated({l_mesh(3.38, 0.508, 0.0027), {}});
}

TEST(BandTables, InterpolateTheTablesOfThickFr4WithCopper) {
  expect_interpolated({l_mesh(4.4, 1.6, 0.02), conductor(geometry::Metal{false, 5.8e7, 35})});
}

TEST(BandTables, EvaluateEveryFrequencyWhereTheToleranceIsOutOfReach) {
  // A short strip: the 65 evaluations this takes are quick.
  const geometry::Mesh mesh = geometry::make_mesh(geometry::test::layout_of({{0, 0, 6, 1.2}}), 0.6);
  const auto greens = [&](double f) {
    return GreensTable(Slab{3.38, 0.0027, 0.508e-3, {}}, f, required_rho_max(mesh.grid()));
  };
  const TablePlan plan = make_table_plan(mesh);
  const BandTables band(plan, greens, 2e9, 4e9, 1e-15);  // under the tables' own rounding
  EXPECT_FALSE(band.interpolates());
  const GreensTable g = greens(3.1e9);
  EXPECT_EQ(band.at(g).values, evaluate_tables(plan, g).values);
}

TEST(BandTables, RefuseAnEmptyBandAndAToleranceOutOfRange) {
  const geometry::Mesh mesh = l_mesh(3.38, 0.508, 0.0027);
  const TablePlan plan = make_table_plan(mesh);
  const auto greens = [&](double f) {
    return GreensTable(Slab{3.38, 0.0027, 0.508e-3, {}}, f, required_rho_max(mesh.grid()));
  };
  EXPECT_THROW(BandTables(plan, greens, 3e9, 3e9, 1e-9), std::invalid_argument);
  EXPECT_THROW(BandTables(plan, greens, 2e9, 4e9, 0.0), std::invalid_argument);
  EXPECT_THROW(BandTables(plan, greens, 2e9, 4e9, 1.0), std::invalid_argument);
}

}  // namespace
}  // namespace pmom::mom
