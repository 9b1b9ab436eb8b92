// FrequencySchedule (frequency_schedule.hpp): contiguous runs with work stealing.
#include "planarmom/sweep/frequency_schedule.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>

namespace pmom::sweep {

FrequencySchedule::FrequencySchedule(std::vector<std::size_t> todo, int workers)
    : todo_(std::move(todo)) {
  if (workers < 1)
    throw std::invalid_argument("FrequencySchedule: " + std::to_string(workers) + " workers");
  if (std::adjacent_find(todo_.begin(), todo_.end(), std::greater_equal<>()) != todo_.end())
    throw std::invalid_argument("FrequencySchedule: indices not ascending");
  const std::size_t w = static_cast<std::size_t>(workers);
  const std::size_t base = todo_.size() / w, longer = todo_.size() % w;
  std::size_t begin = 0;
  for (std::size_t k = 0; k < w; ++k) {
    const std::size_t length = base + (k < longer ? 1 : 0);
    runs_.push_back({begin, begin + length});
    begin += length;
  }
}

FrequencySchedule::Run& FrequencySchedule::run_of(int worker) {
  if (worker < 0 || static_cast<std::size_t>(worker) >= runs_.size())
    throw std::out_of_range("FrequencySchedule: no worker " + std::to_string(worker));
  return runs_[static_cast<std::size_t>(worker)];
}

std::optional<std::size_t> FrequencySchedule::next(int worker) {
  Run& mine = run_of(worker);
  if (mine.size() == 0) {
    const auto largest = std::max_element(
        runs_.begin(), runs_.end(), [](const Run& a, const Run& b) { return a.size() < b.size(); });
    if (largest->size() == 0) return std::nullopt;
    const std::size_t middle = largest->begin + largest->size() / 2;
    mine = {middle, largest->end};
    largest->end = middle;
  }
  return todo_[mine.begin++];
}

std::optional<std::size_t> FrequencySchedule::peek(int worker) const {
  const Run& mine = runs_.at(static_cast<std::size_t>(worker));
  if (mine.size() > 0) return todo_[mine.begin];
  return std::nullopt;
}

std::size_t FrequencySchedule::left() const {
  std::size_t n = 0;
  for (const Run& r : runs_) n += r.size();
  return n;
}

}  // namespace pmom::sweep
