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

// How time_per_call times asynchronous work (GPU launches queue and return at once).
struct BatchTiming {
  std::function<void()> wait;          // waits for every call queued so far (a stream sync)
  std::function<void()> before_batch;  // untimed set-up before each batch, e.g. restoring state
  double min_batch_seconds = 0.05;
  int batches = 5;
};

struct CallTiming {
  double seconds = 0;  // per call: median over the batches of batch time / reps
  int reps = 0;        // calls per batch
};

// One untimed warm-up call, then batches of R calls between two waits, R grown until a batch
// takes min_batch_seconds: queued launches then amortise their overhead, as in a solver's loop.
CallTiming time_per_call(const std::function<void()>& call, const BatchTiming& how);

}  // namespace pmom::bench
