// The adaptive sampler replayed on the examples' full 101-point sweeps (tests/data/adaptive: each
// example with every frequency solved, cuda backend on an H200, solver tolerance 1e-9): the
// solves it asks for and its S at every point against the full sweep's. The solves are then
// moved at and well above the solver's own accuracy: the sampler must ask for the same solves,
// so that a change in the last digits of S (another backend, another build) cannot add or drop
// solves, and stay within the issue's |ΔS| 1e-3 of the full sweep.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "planarmom/io/touchstone.hpp"
#include "planarmom/sweep/adaptive_sampler.hpp"
#include "support/solve_noise.hpp"

namespace pmom::sweep {
namespace {

using cd = std::complex<double>;

struct Replay {
  std::vector<std::size_t> order;  // the grid indices solved, in order
  double error = 0;                // the fit's largest |ΔS| from the full sweep, every point
  double estimate = 0;
  bool stalled = false;
};

// The sampler at the sweep's tolerance on `full`, each solve's entries moved by `noise` in a
// random direction (a fixed sequence per seed).
Replay replay(const io::TouchstoneData& full, double noise, std::uint64_t seed) {
  const std::size_t k = full.ports * full.ports;
  AdaptiveSampler sampler(full.frequency_hz, k, 1e-3);
  Replay r;
  pmom::test::SolveNoise moved(noise, seed);
  const auto solve = [&](std::size_t i) {
    std::vector<cd> v = full.s[i];
    moved.add_to(v);
    r.order.push_back(i);
    sampler.add(i, v);
  };
  for (const std::size_t i : sampler.initial()) solve(i);
  while (const auto i = sampler.next()) solve(*i);
  r.estimate = sampler.estimate();
  r.stalled = sampler.stalled();
  const AdaptiveFit fit = sampler.fit();
  for (std::size_t i = 0; i < full.frequency_hz.size(); ++i)
    for (std::size_t e = 0; e < k; ++e)
      r.error = std::max(r.error, std::abs(fit.s[i * k + e] - full.s[i][e]));
  return r;
}

class AdaptiveExamples : public ::testing::TestWithParam<std::string> {};

TEST_P(AdaptiveExamples, TheSameSolvesUnderTheSolversNoiseAndSWithinTheTolerance) {
  const std::filesystem::path dir =
      std::filesystem::path(PLANARMOM_SOURCE_DIR) / "tests" / "data" / "adaptive";
  std::filesystem::path file;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().stem() == GetParam()) file = e.path();
  ASSERT_FALSE(file.empty()) << "no full sweep of " << GetParam() << " in " << dir;
  const io::TouchstoneData full = io::read_touchstone(file);
  ASSERT_EQ(full.frequency_hz.size(), 101u);
  const Replay exact = replay(full, 0.0, 1);
  std::cout << GetParam() << ": " << exact.order.size() << " solves, |dS| from the full sweep "
            << exact.error << ", estimate " << exact.estimate << "\n";
  EXPECT_FALSE(exact.stalled);
  EXPECT_LE(exact.error, 1e-3);
  EXPECT_LE(exact.order.size(), 20u);
  // 1e-9 is the examples' solver tolerance; 1e-6 a thousand times more.
  for (const double noise : {1e-9, 1e-6})
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      const Replay r = replay(full, noise, seed);
      EXPECT_EQ(r.order, exact.order) << "noise " << noise << ", seed " << seed;
      EXPECT_LE(r.error, 1e-3) << "noise " << noise << ", seed " << seed;
    }
}

INSTANTIATE_TEST_SUITE_P(Examples, AdaptiveExamples,
                         ::testing::Values("branch_line_coupler", "branch_line_coupler_fr4",
                                           "two_couplers", "stepped_lowpass_fr4", "wilkinson_fr4",
                                           "mitred_bend", "rat_race", "edge_coupled_filter",
                                           "stub_bandpass_ro4003", "branch_line_coupler_masked"));

}  // namespace
}  // namespace pmom::sweep
