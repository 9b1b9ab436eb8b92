// AdaptiveSampler (adaptive_sampler.hpp): the competing models and where they disagree.
#include "planarmom/sweep/adaptive_sampler.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace pmom::sweep {
namespace {

// The AAA fit's own target, well under the sampler's tolerance: the model then follows the
// solves to about the solver's accuracy, and the two models' difference measures the sampling.
constexpr double kFitFraction = 1e-2;

}  // namespace

AdaptiveSampler::AdaptiveSampler(std::vector<double> grid_hz, std::size_t components,
                                 double tolerance)
    : grid_(std::move(grid_hz)),
      components_(components),
      tolerance_(tolerance),
      s_(grid_.size()),
      estimate_(std::numeric_limits<double>::infinity()),
      best_(std::numeric_limits<double>::infinity()) {
  if (grid_.empty() || components_ == 0 || !(tolerance_ > 0))
    throw std::invalid_argument("adaptive sweep: needs frequencies, S entries and a tolerance > 0");
}

std::vector<std::size_t> AdaptiveSampler::initial() const {
  const std::size_t n = grid_.size();
  if (n <= kInitial) {
    std::vector<std::size_t> all(n);
    for (std::size_t i = 0; i < n; ++i) all[i] = i;
    return all;
  }
  std::vector<std::size_t> picks;
  for (std::size_t j = 0; j < kInitial; ++j)
    picks.push_back(static_cast<std::size_t>(
        std::lround(static_cast<double>(j) * static_cast<double>(n - 1) / (kInitial - 1))));
  return picks;
}

void AdaptiveSampler::add(std::size_t index, std::vector<cd> s) {
  if (index >= grid_.size() || is_solved(index) || s.size() != components_)
    throw std::invalid_argument("adaptive sweep: a solve off the grid, twice, or of another size");
  s_[index] = std::move(s);
  order_.push_back(index);
}

RationalModel AdaptiveSampler::model_without(std::optional<std::size_t> left_out) const {
  std::vector<double> f;
  std::vector<cd> values;
  for (std::size_t i = 0; i < grid_.size(); ++i) {
    if (!is_solved(i) || i == left_out) continue;
    f.push_back(grid_[i]);
    values.insert(values.end(), s_[i].begin(), s_[i].end());
  }
  return aaa_fit(f, values, kFitFraction * tolerance_);
}

std::optional<std::size_t> AdaptiveSampler::latest_inside() const {
  // Leaving out an end of the band would make the second model extrapolate, not compete.
  for (auto it = order_.rbegin(); it != order_.rend(); ++it)
    if (*it != 0 && *it + 1 != grid_.size()) return *it;
  return std::nullopt;
}

double AdaptiveSampler::difference(const RationalModel& a, const RationalModel& b,
                                   double hz) const {
  const std::vector<cd> x = a(hz), y = b(hz);
  double d = 0;
  for (std::size_t k = 0; k < components_; ++k) d = std::max(d, std::abs(x[k] - y[k]));
  return d;
}

std::size_t AdaptiveSampler::widest_gap_middle() const {
  // Each frequency's distance (in grid steps) to the nearest solve, from both sides.
  const std::size_t n = grid_.size();
  std::vector<std::size_t> distance(n, n);
  for (std::size_t i = 0, d = n; i < n; ++i) {
    d = is_solved(i) ? 0 : d + 1;
    distance[i] = d;
  }
  for (std::size_t i = n, d = n; i-- > 0;) {
    d = is_solved(i) ? 0 : d + 1;
    distance[i] = std::min(distance[i], d);
  }
  return static_cast<std::size_t>(std::max_element(distance.begin(), distance.end()) -
                                  distance.begin());
}

std::optional<std::size_t> AdaptiveSampler::next() {
  if (order_.size() == grid_.size()) return std::nullopt;
  const std::optional<std::size_t> latest = latest_inside();
  const RationalModel all = model_without(std::nullopt);
  const RationalModel fewer = model_without(latest);
  // At the latest solve the difference is the second model's error at a solve it had not seen.
  estimate_ = latest ? difference(all, fewer, grid_[*latest]) : 0.0;
  double worst = -1;
  std::size_t at = 0;
  for (std::size_t i = 0; i < grid_.size(); ++i)
    if (!is_solved(i))
      if (const double d = difference(all, fewer, grid_[i]); d > worst) {
        worst = d;
        at = i;
      }
  estimate_ = std::max(estimate_, worst);
  agreed_ = estimate_ <= tolerance_ ? agreed_ + 1 : 0;
  if (agreed_ >= 2) return std::nullopt;
  since_best_ = estimate_ < best_ ? 0 : since_best_ + 1;
  best_ = std::min(best_, estimate_);
  if (since_best_ >= kStallSteps) {
    stalled_ = true;
    return std::nullopt;
  }
  // Where the models disagree most; once they agree, a second look in the widest gap between
  // solves, at a frequency neither model has seen.
  // (estimate_ is at least worst.)
  return worst <= tolerance_ ? widest_gap_middle() : at;
}

AdaptiveFit AdaptiveSampler::fit() const {
  AdaptiveFit out;
  out.frequencies_hz = grid_;
  out.model = model_without(std::nullopt);
  const RationalModel fewer = model_without(latest_inside());
  out.solved.resize(grid_.size());
  out.estimate.assign(grid_.size(), 0.0);
  for (std::size_t i = 0; i < grid_.size(); ++i) {
    out.solved[i] = is_solved(i);
    const std::vector<cd> v = is_solved(i) ? s_[i] : out.model(grid_[i]);
    out.s.insert(out.s.end(), v.begin(), v.end());
    if (!is_solved(i)) out.estimate[i] = difference(out.model, fewer, grid_[i]);
  }
  return out;
}

}  // namespace pmom::sweep
