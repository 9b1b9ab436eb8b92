// Which frequencies of a sweep to solve, and S at the others from a rational model of the
// solved ones (rational_fit.hpp): the adaptive sweep of `frequencies: {adaptive: true}`.
//
// It starts from a few frequencies spread over the band, then adds one solve at a time where two
// competing models differ most: the AAA model of every solve, and that of every solve but the
// latest one inside the band (so each step also measures, at the latest solve, how far the
// model before it was from a solve it had not seen). The sweep is done once they agree within
// the tolerance at every frequency of the sweep twice running, or when every one is solved. It
// gives up (stalled()) when kStallSteps solves in a row bring the models no closer than they
// have been: the solves' own noise then lies above the tolerance, and a fit would be a guess.
#pragma once

#include <complex>
#include <cstddef>
#include <optional>
#include <vector>

#include "planarmom/sweep/rational_fit.hpp"

namespace pmom::sweep {

// The outcome: S at every frequency of the sweep (the solved S where solved) and the model.
struct AdaptiveFit {
  std::vector<double> frequencies_hz;
  std::vector<std::complex<double>> s;  // frequencies × components, row-major
  std::vector<bool> solved;
  std::vector<double> estimate;  // the competing models' largest |ΔS| (0 where solved)
  RationalModel model;           // of every solve
};

class AdaptiveSampler {
 public:
  using cd = std::complex<double>;
  // `grid_hz`: the sweep's frequencies, increasing; `components`: entries of S a frequency;
  // `tolerance`: the largest |ΔS| the two models may differ by.
  AdaptiveSampler(std::vector<double> grid_hz, std::size_t components, double tolerance);

  // The first solves: kInitial frequencies evenly spread over the grid, its ends included (all
  // of them for a shorter grid), in increasing order.
  static constexpr std::size_t kInitial = 7;
  [[nodiscard]] std::vector<std::size_t> initial() const;

  // A solve of grid frequency `index` (its S, `components` entries). Throws std::invalid_argument
  // for an index off the grid, one already solved or S of another size.
  void add(std::size_t index, std::vector<cd> s);

  // The next grid frequency to solve, or nothing once the models agree twice running, every
  // frequency is solved, or it stalled. Call after the initial ones are added.
  [[nodiscard]] std::optional<std::size_t> next();

  // The largest |ΔS| between the two models at the unsolved frequencies when next() last looked
  // (infinity before it did); the number of solves so far.
  [[nodiscard]] double estimate() const { return estimate_; }
  [[nodiscard]] std::size_t solves() const { return order_.size(); }
  [[nodiscard]] bool is_solved(std::size_t index) const { return !s_[index].empty(); }
  // Whether it gave up: the models stopped coming closer before they agreed.
  static constexpr int kStallSteps = 10;
  [[nodiscard]] bool stalled() const { return stalled_; }
  // The models' smallest difference so far.
  [[nodiscard]] double best_estimate() const { return best_; }

  // S at every grid frequency from the solves so far.
  [[nodiscard]] AdaptiveFit fit() const;

 private:
  [[nodiscard]] RationalModel model_without(std::optional<std::size_t> left_out) const;
  // The latest solve that is not an end of the grid.
  [[nodiscard]] std::optional<std::size_t> latest_inside() const;
  // The largest |ΔS| over the entries of two models at a frequency.
  [[nodiscard]] double difference(const RationalModel& a, const RationalModel& b, double hz) const;
  // The unsolved frequency in the middle of the widest run between solves.
  [[nodiscard]] std::size_t widest_gap_middle() const;

  std::vector<double> grid_;
  std::size_t components_;
  double tolerance_;
  std::vector<std::vector<cd>> s_;  // per grid frequency; empty where not solved
  std::vector<std::size_t> order_;  // grid indices in the order they were solved
  double estimate_;
  int agreed_ = 0;  // consecutive next() calls whose models agreed
  double best_;
  int since_best_ = 0;  // next() calls since the smallest estimate
  bool stalled_ = false;
};

}  // namespace pmom::sweep
