// Summary statistics of repeated timings.
#include "planarmom/bench/timing.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace pmom::bench {

TimingStats summarize(std::vector<double> seconds) {
  if (seconds.empty()) throw std::invalid_argument("summarize: no timings");
  std::sort(seconds.begin(), seconds.end());
  const std::size_t n = seconds.size();
  TimingStats s;
  s.median = n % 2 ? seconds[n / 2] : 0.5 * (seconds[n / 2 - 1] + seconds[n / 2]);
  s.min = seconds.front();
  s.max = seconds.back();
  s.repetitions = static_cast<int>(n);
  return s;
}

CallTiming time_per_call(const std::function<void()>& call, const BatchTiming& how) {
  if (!how.wait || how.batches < 1 || !(how.min_batch_seconds > 0))
    throw std::invalid_argument("time_per_call: needs a wait, batches >= 1 and a positive "
                                "minimum batch time");
  const auto batch = [&](int reps) {
    if (how.before_batch) how.before_batch();
    how.wait();
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i) call();
    how.wait();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  call();
  how.wait();
  CallTiming result;
  result.reps = 1;
  for (double t = batch(result.reps); t < how.min_batch_seconds; t = batch(result.reps))
    result.reps = std::max(2 * result.reps,
                           static_cast<int>(std::min(
                               1e8, std::ceil(1.2 * how.min_batch_seconds / t * result.reps))));
  std::vector<double> per_call;
  for (int b = 0; b < how.batches; ++b) per_call.push_back(batch(result.reps) / result.reps);
  result.seconds = summarize(std::move(per_call)).median;
  return result;
}

}  // namespace pmom::bench
