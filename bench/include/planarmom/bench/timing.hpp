// Repeated timing as Ginkgo's benchmarks do it: warm-up runs first, then the median of the
// timed repetitions (robust to one slow run).
#pragma once

#include <functional>
#include <vector>

namespace pmom::bench {

struct TimingStats {
  double median = 0, min = 0, max = 0;
  int repetitions = 0;
};

TimingStats summarize(std::vector<double> seconds);

}  // namespace pmom::bench
