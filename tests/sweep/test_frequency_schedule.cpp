// How an (MPI) sweep hands its frequencies out: FrequencySchedule's runs and stealing, and
// SweepCoordinator's initial guesses, records and failure. Exact: these are index bookkeeping.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <vector>

#include "io/sweep_example.hpp"
#include "io/temp_dir.hpp"
#include "planarmom/sweep/frequency_schedule.hpp"
#include "planarmom/sweep/sweep_coordinator.hpp"

namespace pmom::sweep {
namespace {

std::vector<std::size_t> iota(std::size_t n) {
  std::vector<std::size_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = i;
  return v;
}

TEST(FrequencySchedule, OneWorkerWalksTheFrequenciesInOrder) {
  FrequencySchedule s({0, 2, 3, 7}, 1);
  EXPECT_EQ(s.left(), 4u);
  for (const std::size_t i : {0u, 2u, 3u, 7u}) {
    EXPECT_EQ(s.peek(0), i);
    EXPECT_EQ(s.next(0), i);
  }
  EXPECT_EQ(s.next(0), std::nullopt);
  EXPECT_EQ(s.left(), 0u);
}

TEST(FrequencySchedule, WorkersStartOnContiguousRunsOfNearlyEqualLength) {
  FrequencySchedule s(iota(10), 3);  // runs 0-3, 4-6, 7-9
  EXPECT_EQ(s.next(0), 0u);
  EXPECT_EQ(s.next(1), 4u);
  EXPECT_EQ(s.next(2), 7u);
  EXPECT_EQ(s.next(1), 5u);  // each continues its own run: warm starts
  EXPECT_EQ(s.peek(0), 1u);
}

TEST(FrequencySchedule, AWorkerOutOfFrequenciesTakesTheUpperHalfOfTheLargestRunLeft) {
  FrequencySchedule s(iota(20), 2);  // runs 0-9, 10-19
  for (std::size_t i = 10; i < 20; ++i) EXPECT_EQ(s.next(1), i);  // worker 0 slow: still at 0
  EXPECT_EQ(s.next(0), 0u);
  // Worker 1 is done with its run; worker 0 has 1-9 left (9): worker 1 takes 5-9.
  EXPECT_EQ(s.next(1), 5u);
  EXPECT_EQ(s.next(1), 6u);
  EXPECT_EQ(s.next(0), 1u);
  EXPECT_EQ(s.peek(0), 2u);
  EXPECT_EQ(s.left(), 3u + 3u);  // 2-4 and 7-9
}

TEST(FrequencySchedule, HandsEveryIndexOutExactlyOnceWhateverTheOrderOfAsking) {
  for (const int workers : {1, 2, 3, 7}) {
    FrequencySchedule s(iota(23), workers);
    std::multiset<std::size_t> handed;
    // Workers ask in a skewed pattern: worker w asks w + 1 times a round.
    for (bool any = true; any;) {
      any = false;
      for (int w = 0; w < workers; ++w)
        for (int k = 0; k <= w; ++k)
          if (const auto i = s.next(w)) {
            handed.insert(*i);
            any = true;
          }
    }
    EXPECT_EQ(handed.size(), 23u) << workers << " workers";
    EXPECT_EQ(std::set<std::size_t>(handed.begin(), handed.end()).size(), 23u);
  }
}

TEST(FrequencySchedule, LastFrequencyLeftGoesToTheWorkerThatAsks) {
  FrequencySchedule s(iota(3), 2);  // runs 0-1, 2
  EXPECT_EQ(s.next(1), 2u);
  EXPECT_EQ(s.next(0), 0u);
  EXPECT_EQ(s.next(1), 1u);  // one left in worker 0's run: taken whole
  EXPECT_EQ(s.next(0), std::nullopt);
}

TEST(FrequencySchedule, RefusesNoWorkersAndUnsortedIndices) {
  EXPECT_THROW(FrequencySchedule(iota(3), 0), std::invalid_argument);
  EXPECT_THROW(FrequencySchedule({1, 0}, 1), std::invalid_argument);
  EXPECT_THROW(FrequencySchedule({1, 1}, 1), std::invalid_argument);
}

constexpr std::size_t kPorts = 2;

io::FrequencyRecord record_at(std::size_t index) { return test::example_record(index, kPorts); }

std::vector<double> frequencies(std::size_t n) {
  std::vector<double> f;
  for (std::size_t i = 0; i < n; ++i) f.push_back(record_at(i).frequency_hz);
  return f;
}

TEST(SweepCoordinator, GuessesFromTheWorkersOwnRunElseTheFileElseZero) {
  const test::TempDir dir("coordinator_guess");
  io::SweepFile file(dir.path() / "s.h5", test::example_sweep_info(kPorts),
                     io::SweepFile::Mode::fresh);
  file.append(record_at(1));  // as a resumed file holding the second frequency
  std::size_t reports = 0;
  SweepCoordinator c(file, frequencies(6), 2, [&](const SweepProgress& p) {
    ++reports;
    EXPECT_EQ(p.workers, 2);
  });
  EXPECT_EQ(c.todo(), 5u);  // runs 0, 2, 3 | 4, 5
  auto a = c.next(0, nullptr);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->index, 0u);
  EXPECT_EQ(a->guess, Assignment::Guess::zero);
  EXPECT_EQ(a->next_hz, record_at(2).frequency_hz);
  auto b = c.next(1, nullptr);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->index, 4u);
  EXPECT_EQ(b->guess, Assignment::Guess::zero) << "frequency 3 is not computed yet";
  io::FrequencyRecord r0 = record_at(0);
  a = c.next(0, &r0);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->index, 2u);
  EXPECT_EQ(a->guess, Assignment::Guess::given) << "its own last is 0; the file holds 1";
  EXPECT_EQ(a->currents, record_at(1).currents);
  io::FrequencyRecord r4 = record_at(4);
  b = c.next(1, &r4);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->index, 5u);
  EXPECT_EQ(b->guess, Assignment::Guess::previous);
  EXPECT_TRUE(b->currents.empty());
  EXPECT_EQ(reports, 2u);
  EXPECT_EQ(c.done(), 2u);
  EXPECT_TRUE(file.contains(record_at(0).frequency_hz));
  EXPECT_TRUE(file.contains(record_at(4).frequency_hz));
}

TEST(SweepCoordinator, HandsNothingOutAfterAFailureButKeepsTheRecordsReturned) {
  const test::TempDir dir("coordinator_fail");
  io::SweepFile file(dir.path() / "s.h5", test::example_sweep_info(kPorts),
                     io::SweepFile::Mode::fresh);
  SweepCoordinator c(file, frequencies(4), 2, nullptr);
  ASSERT_TRUE(c.next(0, nullptr));
  ASSERT_TRUE(c.next(1, nullptr));
  c.fail("rank 1: out of memory");
  c.fail("a later failure");
  io::FrequencyRecord r0 = record_at(0);
  EXPECT_EQ(c.next(0, &r0), std::nullopt);
  EXPECT_TRUE(file.contains(r0.frequency_hz)) << "a record computed before the stop is kept";
  ASSERT_TRUE(c.failure());
  EXPECT_EQ(*c.failure(), "rank 1: out of memory");
}

TEST(SweepCoordinator, TheWorkerLoopKeepsItsSolutionAsTheNextGuess) {
  const test::TempDir dir("coordinator_work");
  io::SweepFile file(dir.path() / "s.h5", test::example_sweep_info(kPorts),
                     io::SweepFile::Mode::fresh);
  SweepCoordinator c(file, frequencies(3), 1, nullptr);
  std::vector<std::size_t> guess_sizes;
  work([&c](io::FrequencyRecord* done) { return c.next(0, done); },
       [&](double hz, std::vector<std::complex<double>>& guess, std::optional<double>) {
         guess_sizes.push_back(guess.size());
         std::size_t i = 0;
         while (record_at(i).frequency_hz != hz) ++i;
         io::FrequencyRecord r = record_at(i);
         guess = r.currents;  // the solution, left in guess
         return r;
       });
  EXPECT_EQ(guess_sizes, (std::vector<std::size_t>{0, kPorts * test::kExampleUnknowns,
                                                   kPorts * test::kExampleUnknowns}));
  EXPECT_EQ(file.frequencies(), frequencies(3));
  EXPECT_EQ(c.done(), 3u);
}

}  // namespace
}  // namespace pmom::sweep
