// The one owner of a sweep's file while it runs: hands the frequencies out to the workers
// (FrequencySchedule) with the initial guess each solve starts from, appends the records they
// return in the order they come, and reports progress. The serial sweep has one worker and calls
// it directly; an MPI sweep (mpi_sweep.hpp) runs it on rank 0 for every rank.
#pragma once

#include <complex>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "planarmom/io/sweep_file.hpp"
#include "planarmom/sweep/frequency_schedule.hpp"
#include "planarmom/sweep/run.hpp"

namespace pmom::sweep {

// One frequency for a worker to compute.
struct Assignment {
  enum class Guess {
    previous,  // the worker's own last solution: the frequency before this one
    given,     // `currents`: those stored in the file with the frequency before this one
    zero,
  };
  std::size_t index = 0;  // in the sweep's frequency list
  double frequency_hz = 0;
  std::optional<double> next_hz;  // the worker's likely next frequency (tables prepared ahead)
  Guess guess = Guess::zero;
  std::vector<std::complex<double>> currents;  // N×P, column-major, for Guess::given
};

class SweepCoordinator {
 public:
  // `file`: open, perhaps resumed; the frequencies it holds are not handed out. `progress` is
  // called after each record is appended.
  SweepCoordinator(io::SweepFile& file, std::vector<double> frequencies, int workers,
                   std::function<void(const SweepProgress&)> progress);

  // Appends `done` (the worker's last record; nullptr on its first call) and returns its next
  // frequency: nothing once every one is handed out or after fail(). Throws what
  // SweepFile::append throws.
  std::optional<Assignment> next(int worker, io::FrequencyRecord* done);

  // Hands nothing more out: a worker failed with `message` (the first failure is kept).
  void fail(std::string message);
  [[nodiscard]] const std::optional<std::string>& failure() const { return failure_; }

  // Logs how many frequencies were computed, in how long and how many a second.
  void log_rate() const;

  [[nodiscard]] std::size_t todo() const { return progress_.todo; }
  [[nodiscard]] std::size_t done() const { return progress_.done; }

 private:
  io::SweepFile& file_;
  std::vector<double> frequencies_;
  FrequencySchedule schedule_;
  std::vector<std::optional<std::size_t>> last_;  // each worker's last frequency index
  std::function<void(const SweepProgress&)> report_;
  SweepProgress progress_;
  double start_s_ = 0;
  std::optional<std::string> failure_;
};

// The worker's loop: asks `next` for a frequency (passing its last record, nullptr at first),
// computes it with `compute` (frequency, guess in/solution out, likely next frequency) and asks
// again, until `next` gives nothing. The record returned keeps the solution as its currents.
using NextAssignment = std::function<std::optional<Assignment>(io::FrequencyRecord* done)>;
using ComputeFrequency = std::function<io::FrequencyRecord(
    double frequency_hz, std::vector<std::complex<double>>& guess, std::optional<double> next)>;
void work(const NextAssignment& next, const ComputeFrequency& compute);

}  // namespace pmom::sweep
