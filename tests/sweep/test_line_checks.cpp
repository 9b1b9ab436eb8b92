// The sweep's line checks: the on-disk cache (exact round trip, misses for another key or a
// damaged file, no failure where it cannot write), SweepLineChecks serving a second run from
// it with the very same numbers, and the Krylov solve on a backend against the host LU (CPU
// here; the CUDA device in the GPU test, skipped without one).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <fstream>
#include <optional>
#include <random>

#include "io/temp_dir.hpp"
#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/geometry/mesh.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/convolution_operator.hpp"
#include "planarmom/mom/table_plan.hpp"
#include "planarmom/sweep/line_checks.hpp"
#include "support/gpu.hpp"

namespace pmom::sweep {
namespace {

using cd = std::complex<double>;

TEST(LineCache, RoundTripsExactlyAndMissesWhatItDoesNotHold) {
  const test::TempDir dir("line_cache");
  const LineCache cache(dir.path() / "lines");
  EXPECT_FALSE(cache.get("a").has_value());
  std::mt19937_64 rng(5);
  std::vector<double> values;
  for (int k = 0; k < 50; ++k)
    values.push_back(std::ldexp(std::uniform_real_distribution<double>(-1, 1)(rng), k - 25));
  cache.put("a", values);
  ASSERT_TRUE(cache.get("a").has_value());
  EXPECT_EQ(*cache.get("a"), values);  // bit for bit
  EXPECT_FALSE(cache.get("b").has_value());
  // A damaged file is a miss.
  for (const auto& entry : std::filesystem::directory_iterator(cache.folder()))
    std::ofstream(entry.path()) << "{\"key\": \"a\", \"values\": [1, ";
  EXPECT_FALSE(cache.get("a").has_value());
}

TEST(LineCache, AFolderThatCannotBeWrittenIsNoFailure) {
  const test::TempDir dir("line_cache");
  std::ofstream(dir.path() / "file") << "not a folder";
  const LineCache cache(dir.path() / "file" / "lines");
  EXPECT_NO_THROW(cache.put("a", {1.0}));
  EXPECT_FALSE(cache.get("a").has_value());
}

const mom::LineSpec kSpec{3.38, 0.508, 1.2, 3, 30};

TEST(SweepLineChecks, ASecondRunReadsTheCacheAndGetsTheSameNumbers) {
  const test::TempDir dir("line_cache");
  const auto run = [&](int& from_cache) {
    SweepLineChecks checks(nullptr, LineCache(dir.path()), 1);
    const mom::LineCheck c = checks.checks()(kSpec, 3e9, true);
    from_cache = checks.from_cache();
    return std::pair{c.line, c.load};
  };
  int first_hits = -1, second_hits = -1;
  const auto [line1, load1] = run(first_hits);
  const auto [line2, load2] = run(second_hits);
  EXPECT_EQ(first_hits, 0);
  EXPECT_EQ(second_hits, 1);
  EXPECT_EQ(line1.gamma, line2.gamma);
  EXPECT_EQ(line1.z0, line2.z0);
  EXPECT_EQ(line1.eps_eff, line2.eps_eff);
  EXPECT_EQ(load1, load2);
  // The same numbers as the uncached host path.
  const mom::LineCheck direct = mom::line_check(kSpec, 3e9, true);
  EXPECT_EQ(direct.line.z0, line1.z0);
  EXPECT_EQ(direct.load, load1);
}

// The backend's route against the host's mirror-split LU: Z0, γ and the load to 1e-8 (κ of a
// line's Z times COCG's tolerance of 1e-12, with margin; the backend's LU is closer still).
void expect_backend_equals_lu(Backend<cd>& backend,
                              std::optional<index_t> direct_up_to = std::nullopt) {
  const mom::LineSolver on_backend = [&](const mom::LineSystem& s) {
    return solve_line_on_backend(s, backend, 1e-12, direct_up_to);
  };
  const mom::LineResult lu = mom::characterise_line(kSpec, 3e9);
  const mom::LineResult other = mom::characterise_line(kSpec, 3e9, on_backend);
  const cd load_lu = mom::matched_gap_load(kSpec, 3e9, lu.gamma);
  const cd load_other = mom::matched_gap_load(kSpec, 3e9, lu.gamma, on_backend);
  std::printf("[line_checks] %s, %s: Z0 %.10f vs LU %.10f, load %.8f%+.8fj vs %.8f%+.8fj\n",
              backend.name().c_str(), direct_up_to == index_t{0} ? "exact operator" : "its LU",
              other.z0.real(), lu.z0.real(), load_other.real(), load_other.imag(),
              load_lu.real(), load_lu.imag());
  EXPECT_LT(std::abs(other.z0 - lu.z0), 1e-8 * std::abs(lu.z0));
  EXPECT_LT(std::abs(other.gamma - lu.gamma), 1e-8 * std::abs(lu.gamma));
  EXPECT_LT(std::abs(load_other - load_lu), 1e-8 * std::abs(load_lu));
}

TEST(SolveLineOnBackend, EqualsTheLuOnTheCpu) {
  auto backend = make_cpu_backend<cd>();
  expect_backend_equals_lu(*backend);
}

TEST(SolveLineOnBackend, EqualsTheLuOnTheGpu) {
  PMOM_REQUIRE_GPU();
  auto backend = make_cuda_backend<cd>();
  expect_backend_equals_lu(*backend);
}

// The same line on the exact operator (Z·x by FFT) and COCG, the route of lines larger than
// the backend's LU takes: here forced on a small line so that the LU can check it.
TEST(SolveLineOnBackend, ExactOperatorEqualsTheLuOnTheCpu) {
  if (!mom::ConvolutionOperator::available())
    GTEST_SKIP() << "this build has no FFTW (install libfftw3-dev: tools/install-deps.sh)";
  auto backend = make_cpu_backend<cd>();
  expect_backend_equals_lu(*backend, 0);
}

TEST(SolveLineOnBackend, ExactOperatorEqualsTheLuOnTheGpu) {
  PMOM_REQUIRE_GPU();
  auto backend = make_cuda_backend<cd>();
  expect_backend_equals_lu(*backend, 0);
}

// The backend's LU route solved for right-hand sides of no parity, against the host's LU, on
// a straight line (mirror-symmetric: folded on the backend into its two parity parts, whose
// LUs it solves) and on the same line with a stub on one side (no mirror: one LU of Z). The
// solutions to 1e-9 of their largest entry: the same Z (filled on the device or on the host)
// and two LUs in double, on systems whose κ is ~1e3.
void expect_solutions_equal_lu(Backend<cd>& backend) {
  for (const bool stub : {false, true}) {
    geometry::Layout layout;
    layout.substrate = {4.4, 1.6, 0.0};
    layout.rects = {{0, 0, 24, 1.2}};
    if (stub) layout.rects.push_back({6, 1.2, 7.2, 4.8});
    const geometry::Mesh mesh = geometry::make_mesh(layout, geometry::CellSize{0.4, 0.4});
    const mom::GreensTable greens(mom::Slab{4.4, 0.0, 1.6e-3, {}}, 3e9,
                                  mom::required_rho_max(mesh.grid()));
    const mom::TablePlan plan = mom::make_table_plan(mesh);
    const auto n = mesh.basis().size();
    std::mt19937_64 rng(11);
    std::normal_distribution<double> normal;
    std::vector<cd> rhs(2 * n);
    for (cd& v : rhs) v = {normal(rng), normal(rng)};
    const mom::LineSystem system{mesh, plan, greens, rhs, 2, {}};
    const std::vector<cd> lu = mom::solve_line_by_lu(system).x;
    const std::vector<cd> got = solve_line_on_backend(system, backend).x;
    ASSERT_EQ(got.size(), lu.size());
    double largest = 0, diff = 0;
    for (std::size_t k = 0; k < lu.size(); ++k) {
      largest = std::max(largest, std::abs(lu[k]));
      diff = std::max(diff, std::abs(got[k] - lu[k]));
    }
    std::printf("[line_checks] %s, %s line (%zu unknowns): max |x - x_lu| %.2e of %.2e\n",
                backend.name().c_str(), stub ? "stubbed" : "straight", n, diff, largest);
    EXPECT_LT(diff, 1e-9 * largest) << (stub ? "stubbed" : "straight");
  }
}

TEST(SolveLineOnBackend, SolutionsEqualTheLuOnTheCpu) {
  auto backend = make_cpu_backend<cd>();
  expect_solutions_equal_lu(*backend);
}

TEST(SolveLineOnBackend, SolutionsEqualTheLuOnTheGpu) {
  PMOM_REQUIRE_GPU();
  auto backend = make_cuda_backend<cd>();
  expect_solutions_equal_lu(*backend);
}

}  // namespace
}  // namespace pmom::sweep
