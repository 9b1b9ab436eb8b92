// Summary statistics of repeated timings.
#include "planarmom/bench/timing.hpp"

#include <algorithm>
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

}  // namespace pmom::bench
