// The recycled LU preconditioner: when it asks for a new LU, and how large an LU it makes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <span>
#include <utility>
#include <vector>

#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/gpusolver/preconditioners/recycled_lu.hpp"
#include "support/gpu.hpp"

namespace pmom {
namespace {

using cd = std::complex<double>;

TEST(RecycledLu, AsksForANewLuAfterASlowSolve) {
  auto backend = make_cpu_backend<cd>();
  RecycledLu m(*backend);
  EXPECT_TRUE(m.stale());  // none yet
  Block<cd> a = backend->allocate<cd>(2, 2);
  backend->upload(std::span<const cd>(std::vector<cd>{2.0, 1.0, 1.0, 3.0}), a);
  m.refresh([&] { return std::move(a); });
  EXPECT_FALSE(m.stale());
  EXPECT_EQ(m.refreshes(), 1);
  // Solves of an hour an iteration: the 2x2 LU costs nothing beside them, so the renewal rule
  // would ask at once; a solve without iterations gives it no time per iteration.
  m.record(0, 0.0);
  EXPECT_FALSE(m.stale());
  m.record(kRefreshIterations + 1, 1e-9);
  EXPECT_TRUE(m.stale());  // too slow a solve, whatever the rule
  EXPECT_GT(largest_lu(*backend), 2126);  // the coupler example's LU is made on the host
}

// Renewal::when_slow (an adaptive sweep's systems, in no order): the cost rule never asks, only a
// solve slower than kRefreshIterations. The same solves make the by_cost rule ask at once.
TEST(RecycledLu, WhenSlowRenewsOnlyAfterASlowSolve) {
  auto backend = make_cpu_backend<cd>();
  RecycledLu by_cost(*backend), when_slow(*backend, Renewal::when_slow);
  for (RecycledLu* m : {&by_cost, &when_slow}) {
    Block<cd> a = backend->allocate<cd>(2, 2);
    backend->upload(std::span<const cd>(std::vector<cd>{2.0, 1.0, 1.0, 3.0}), a);
    m->refresh([&] { return std::move(a); });
    // Rising iterations of an hour each: the 2x2 LU costs nothing beside them.
    m->record(5, 5 * 3600.0);
    m->record(kRefreshIterations, kRefreshIterations * 3600.0);
  }
  EXPECT_TRUE(by_cost.stale());
  EXPECT_FALSE(when_slow.stale());
  when_slow.record(kRefreshIterations + 1, 1.0);
  EXPECT_TRUE(when_slow.stale());
}

// A solve on an LU of another system may take what a new LU costs in its iterations, at least
// kRefreshIterations; the system the LU was made of is not limited.
TEST(RecycledLu, ItsBudgetIsTheLuInIterationsAtLeastTheRefreshCount) {
  auto backend = make_cpu_backend<cd>();
  RecycledLu m(*backend);
  Block<cd> a = backend->allocate<cd>(2, 2);
  backend->upload(std::span<const cd>(std::vector<cd>{2.0, 1.0, 1.0, 3.0}), a);
  m.refresh([&] { return std::move(a); });
  EXPECT_EQ(m.iteration_budget(), 0);  // its own system
  m.record(0, 0.0);
  EXPECT_EQ(m.iteration_budget(), kRefreshIterations);  // no time per iteration yet
  m.record(4, 4 * 3600.0);  // iterations of an hour: the LU is cheaper than one
  EXPECT_EQ(m.iteration_budget(), kRefreshIterations);
  RecycledLu fast(*backend);
  Block<cd> b = backend->allocate<cd>(2, 2);
  backend->upload(std::span<const cd>(std::vector<cd>{2.0, 1.0, 1.0, 3.0}), b);
  fast.refresh([&] { return std::move(b); });
  fast.record(10, 10 * 1e-13);  // iterations far faster than the LU: its time in them
  EXPECT_EQ(fast.iteration_budget(),
            static_cast<int>(std::min(1e6, std::max<double>(kRefreshIterations,
                                                            std::ceil(fast.lu_seconds() / 1e-13)))));
  EXPECT_GT(fast.iteration_budget(), kRefreshIterations);
}

// On a device the LU and its inverse (2 n² × 16 bytes) take at most half of the free memory.
// 80 GB free hold the 0.2 mm FR-4 coupler's 30 064 unknowns.
TEST(RecycledLu, LargestLuOnADeviceIsWhatHalfItsFreeMemoryHolds) {
  for (const std::size_t free : {std::size_t{8} << 30, std::size_t{80} << 30,
                                 std::size_t{140} << 30}) {
    const auto n = static_cast<double>(largest_lu_in(free));
    EXPECT_LE(2 * n * n * 16, 0.5 * static_cast<double>(free));
    EXPECT_GT(2 * (n + 1) * (n + 1) * 16, 0.5 * static_cast<double>(free));
  }
  EXPECT_GT(largest_lu_in(std::size_t{80} << 30), 30064);
}

// On the host Z twice in double and the LU in single (40 n² bytes) take at most half of the
// available memory: CI's 24 GiB hold the stub band-pass example's 10 214 unknowns (4.2 GB).
TEST(RecycledLu, LargestLuOnTheHostIsWhatHalfItsAvailableMemoryHolds) {
  for (const std::size_t available : {std::size_t{2} << 30, std::size_t{24} << 30,
                                      std::size_t{512} << 30}) {
    const auto n = static_cast<double>(largest_host_lu_in(available));
    EXPECT_LE(40 * n * n, 0.5 * static_cast<double>(available));
    EXPECT_GT(40 * (n + 1) * (n + 1), 0.5 * static_cast<double>(available));
  }
  EXPECT_GT(largest_host_lu_in(std::size_t{24} << 30), 10214);
  // The host backend's limit is the available memory's.
  const std::size_t available = host_memory_available();
  ASSERT_GT(available, 0u);
  auto cpu = make_cpu_backend<cd>();
  const auto expected = static_cast<double>(largest_host_lu_in(available));
  EXPECT_NEAR(static_cast<double>(largest_lu(*cpu)), expected, 0.05 * expected);
}

TEST(RecycledLu, LargestLuOnTheGpuFollowsItsFreeMemory) {
  PMOM_REQUIRE_GPU();
  auto backend = make_cuda_backend<cd>();
  const std::size_t free = backend->device_memory_free();
  ASSERT_GT(free, 0u);
  // Free memory moves a little between the two reads (other processes): a few percent of n.
  const auto expected = static_cast<double>(largest_lu_in(free));
  EXPECT_NEAR(static_cast<double>(largest_lu(*backend)), expected, 0.02 * expected);
}

// The rule on the RO4003 coupler's iterations after an LU at 2 GHz (the main job's sweep,
// 0.02 GHz steps: 1, 4, 5, 5, 6, 6, 6, 7, 7, 8, 8, ...) with the LU worth 47 iterations (1.38 s
// against 0.029 s an iteration on 2 cores): not due while the average cost per frequency,
// (47 + Σ)/K, stays above the last solve's iterations; due once a solve exceeds it.
TEST(RecycledLu, RenewsWhenTheLastSolveCostsMoreThanTheAverageSinceTheLu) {
  EXPECT_FALSE(lu_renewal_due(47, 0, 0, 0));   // no solve yet
  EXPECT_FALSE(lu_renewal_due(47, 1, 0, 0));   // no iterations: no time per iteration
  EXPECT_FALSE(lu_renewal_due(47, 1, 1, 1));   // the LU's own frequency: 48 per frequency
  EXPECT_FALSE(lu_renewal_due(47, 9, 47, 8));  // (47 + 47)/9 = 10.4 > 8
  EXPECT_TRUE(lu_renewal_due(47, 9, 47, 11));  // a solve of 11 after them: renew
  // The same curve with an LU worth 150 iterations (9148 unknowns on an H100) renews later.
  EXPECT_FALSE(lu_renewal_due(150, 9, 47, 11));
  const std::vector<int> curve{1, 4, 5, 5, 6, 6, 6, 7, 7, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 10,
                               10, 10, 11, 11, 11, 11, 11, 11, 12, 13, 13, 13, 13, 13, 14, 14};
  const auto renewed_after = [&](double lu) {
    long long sum = 0;
    for (std::size_t k = 0; k < curve.size(); ++k) {
      sum += curve[k];
      if (lu_renewal_due(lu, static_cast<int>(k + 1), sum, curve[k])) return static_cast<int>(k + 1);
    }
    return static_cast<int>(curve.size()) + 1;
  };
  // Renewed after K solves: 20 (0.4 GHz) with the 2-core LU, 35 with the dearer one; each time
  // the cost per frequency (C + Σ)/K is within 1% of its least over the curve.
  for (const auto& [lu, expected] : {std::pair{47.0, 20}, std::pair{150.0, 35}}) {
    const int k = renewed_after(lu);
    EXPECT_EQ(k, expected) << "LU worth " << lu << " iterations";
    double best = HUGE_VAL, sum = 0, at_k = lu;
    for (std::size_t j = 0; j < curve.size(); ++j) {
      sum += curve[j];
      best = std::min(best, (lu + sum) / static_cast<double>(j + 1));
      if (static_cast<int>(j) < k) at_k += curve[j];
    }
    EXPECT_LT(at_k / k, 1.01 * best) << "LU worth " << lu << " iterations";
  }
}

}  // namespace
}  // namespace pmom
