// every_point (sweep_record.hpp): a sweep's points, solved or fitted, in frequency order.
#include <algorithm>
#include <limits>
#include <stdexcept>

#include "planarmom/io/sweep_record.hpp"

namespace pmom::io {

std::vector<FrequencyRecord> every_point(const SweepData& sweep, std::vector<bool>* solved) {
  std::vector<FrequencyRecord> points;
  if (!sweep.fit) {
    points = sweep.records;
    std::stable_sort(points.begin(), points.end(),
                     [](const auto& a, const auto& b) { return a.frequency_hz < b.frequency_hz; });
    if (solved) solved->assign(points.size(), true);
    return points;
  }
  const SweepFit& fit = *sweep.fit;
  const std::size_t pp = sweep.info.ports() * sweep.info.ports();
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  if (solved) solved->clear();
  for (std::size_t i = 0; i < fit.frequency_hz.size(); ++i) {
    const auto record = std::find_if(sweep.records.begin(), sweep.records.end(), [&](const auto& r) {
      return r.frequency_hz == fit.frequency_hz[i];
    });
    const bool is_solved = fit.solved[i] != 0 && record != sweep.records.end();
    if (fit.solved[i] != 0 && !is_solved)
      throw std::invalid_argument("every_point: /fit marks a frequency solved that has no record");
    FrequencyRecord p;
    if (is_solved) {
      p = *record;
    } else {
      p.frequency_hz = fit.frequency_hz[i];
      p.s.assign(fit.s.begin() + static_cast<std::ptrdiff_t>(i * pp),
                 fit.s.begin() + static_cast<std::ptrdiff_t>((i + 1) * pp));
      p.residual = p.density = p.dense_error = nan;
    }
    points.push_back(std::move(p));
    if (solved) solved->push_back(is_solved);
  }
  return points;
}

}  // namespace pmom::io
