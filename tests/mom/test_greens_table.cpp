// GreensTable: interpolation accuracy between samples, the ρ = 0 sample, errors, build time.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

#include "mom/greens_reference.hpp"
#include "planarmom/mom/constants.hpp"
#include "planarmom/mom/greens_table.hpp"

namespace {

using namespace pmom::mom;
using pmom::mom::test::relative_error;

struct TableCase {
  Slab slab;
  double f;
  double rho_max;
};

class TableTest : public ::testing::TestWithParam<TableCase> {};

TEST_P(TableTest, InterpolationMeetsTheStatedAccuracy) {
  // The stated accuracy (default 1e-6, max relative error of G over 0 < ρ ≤ ρmax) checked
  // where cubic interpolation is worst, midway between samples, against direct integration.
  const TableCase& c = GetParam();
  const auto start = std::chrono::steady_clock::now();
  const GreensTable table(c.slab, c.f, c.rho_max);
  const double build_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  RecordProperty("build_ms", std::to_string(build_ms));
  RecordProperty("samples", std::to_string(table.sample_rho().size()));
  const auto& rho = table.sample_rho();
  double worst = 0.0;
  for (std::size_t i = 0; i + 1 < rho.size(); ++i) {
    const double mid = 0.5 * (rho[i] + rho[i + 1]);
    const GreensValues direct = greens_direct(c.slab, c.f, mid);
    const GreensValues tab = table(mid);
    worst = std::max({worst, relative_error(tab.g_a, direct.g_a),
                      relative_error(tab.g_v, direct.g_v)});
  }
  std::ostringstream text;
  text << std::scientific << worst;
  RecordProperty("worst_midpoint_error", text.str());
  EXPECT_LT(worst, 1e-6);
  // At the samples the table returns its samples (c/ρ added back: rounding only).
  for (std::size_t i = 1; i < rho.size(); i += 37) {
    const GreensValues direct = greens_direct(c.slab, c.f, rho[i]);
    EXPECT_LT(relative_error(table(rho[i]).g_v, direct.g_v), 1e-9) << rho[i];
  }
}

INSTANTIATE_TEST_SUITE_P(Substrates, TableTest,
                         ::testing::Values(TableCase{{3.38, 0.0027, 0.508e-3}, 3e9, 0.1},
                                           TableCase{{4.4, 0.0, 1.6e-3}, 6e9, 0.1}));

TEST(GreensTable, SmoothPartAtTheSourceIsTheDirectValue) {
  const Slab slab{3.38, 0.0027, 0.508e-3};
  const GreensTable table(slab, 3e9, 0.02);
  const GreensValues direct = greens_smooth_direct(slab, 3e9, 0.0);
  // ρ = 0 is a sample: equal up to rounding in the Lagrange weights.
  EXPECT_LT(relative_error(table.smooth(0.0).g_a, direct.g_a), 1e-12);
  EXPECT_LT(relative_error(table.smooth(0.0).g_v, direct.g_v), 1e-12);
}

TEST(GreensTable, RejectsWhatItCannotAnswer) {
  const Slab slab{3.38, 0.0, 0.508e-3};
  const GreensTable table(slab, 3e9, 0.01);
  EXPECT_THROW(table(0.0), std::out_of_range);
  EXPECT_THROW(table(0.02), std::out_of_range);
  EXPECT_THROW(table.smooth(-1e-6), std::out_of_range);
  EXPECT_THROW(GreensTable(slab, 3e9, -0.01), std::invalid_argument);
  TableOptions raw;
  raw.path.extraction = Extraction::none;
  EXPECT_THROW(GreensTable(slab, 3e9, 0.01, raw), std::invalid_argument);
}

}  // namespace
