// How a sweep's frequencies are handed to its workers (the MPI ranks, or the one process): each
// worker walks a contiguous run of the frequencies still to compute, so that every solve but its
// first starts from its own previous solution, and a worker whose run is done takes the upper half
// of the largest run left. Frequencies are handed out as workers ask, so a slow one holds no one
// up. A single worker walks the frequencies in order, as the serial sweep always has.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace pmom::sweep {

class FrequencySchedule {
 public:
  // todo: the indices of the frequencies to compute, ascending; split into `workers` runs of
  // lengths differing by at most one (the first runs the longer). Throws std::invalid_argument
  // for workers < 1 or todo not ascending.
  FrequencySchedule(std::vector<std::size_t> todo, int workers);

  // The next index for `worker`: the next of its run, else the first of the upper half of the
  // largest run left (rounded up: one left is taken whole), which becomes its run. Nothing once
  // every index is handed out.
  std::optional<std::size_t> next(int worker);

  // The index next(worker) gives if no other worker takes it first (its Green's table can be
  // prepared while the current one solves).
  [[nodiscard]] std::optional<std::size_t> peek(int worker) const;

  // Indices not handed out yet.
  [[nodiscard]] std::size_t left() const;

 private:
  struct Run {
    std::size_t begin = 0, end = 0;  // positions in todo_ not handed out yet
    [[nodiscard]] std::size_t size() const { return end - begin; }
  };
  Run& run_of(int worker);

  std::vector<std::size_t> todo_;
  std::vector<Run> runs_;
};

}  // namespace pmom::sweep
