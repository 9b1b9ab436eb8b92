// SweepCoordinator and the worker loop (sweep_coordinator.hpp).
#include "planarmom/sweep/sweep_coordinator.hpp"

#include <chrono>

#include "planarmom/logging/logging.hpp"

namespace pmom::sweep {
namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::vector<std::size_t> not_in_file(const io::SweepFile& file,
                                      const std::vector<double>& frequencies) {
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < frequencies.size(); ++i)
    if (!file.contains(frequencies[i])) todo.push_back(i);
  return todo;
}

}  // namespace

SweepCoordinator::SweepCoordinator(io::SweepFile& file, std::vector<double> frequencies,
                                   int workers, std::function<void(const SweepProgress&)> progress)
    : file_(file),
      frequencies_(std::move(frequencies)),
      schedule_(not_in_file(file, frequencies_), workers),
      last_(static_cast<std::size_t>(workers)),
      report_(std::move(progress)),
      start_s_(now_s()) {
  progress_.todo = schedule_.left();
  progress_.workers = workers;
}

std::optional<Assignment> SweepCoordinator::next(int worker, io::FrequencyRecord* done) {
  if (done != nullptr) {
    file_.append(*done);
    ++progress_.done;
    progress_.record = done;
    progress_.worker = worker;
    progress_.elapsed_s = now_s() - start_s_;
    if (report_) report_(progress_);
  }
  if (failure_) return std::nullopt;
  const std::optional<std::size_t> i = schedule_.next(worker);
  if (!i) return std::nullopt;
  Assignment a;
  a.index = *i;
  a.frequency_hz = frequencies_[*i];
  if (const auto after = schedule_.peek(worker)) a.next_hz = frequencies_[*after];
  // A resumed sweep (or a run another worker computed) starts from the currents stored with the
  // frequency before, so that one worker repeats the uninterrupted serial sweep bit for bit.
  std::optional<std::size_t>& last = last_.at(static_cast<std::size_t>(worker));
  if (*i > 0 && last && *last + 1 == *i) {
    a.guess = Assignment::Guess::previous;
  } else if (*i > 0 && file_.contains(frequencies_[*i - 1])) {
    a.guess = Assignment::Guess::given;
    a.currents = file_.currents(frequencies_[*i - 1]);
  }
  last = *i;
  return a;
}

void SweepCoordinator::log_rate() const {
  const double seconds = now_s() - start_s_;
  PMOM_LOG(info) << progress_.done << " frequencies in " << seconds << " s, "
                 << static_cast<double>(progress_.done) / seconds << " a second"
                 << (progress_.workers > 1
                         ? " on " + std::to_string(progress_.workers) + " ranks"
                         : std::string());
}

void SweepCoordinator::fail(std::string message) {
  if (!failure_) failure_ = std::move(message);
}

void work(const NextAssignment& next, const ComputeFrequency& compute) {
  std::vector<std::complex<double>> guess;
  std::optional<io::FrequencyRecord> done;
  while (std::optional<Assignment> a = next(done ? &*done : nullptr)) {
    if (a->guess == Assignment::Guess::zero) guess.clear();
    if (a->guess == Assignment::Guess::given) guess = std::move(a->currents);
    io::FrequencyRecord r = compute(a->frequency_hz, guess, a->next_hz);
    r.currents = guess;  // compute leaves the solutions in guess
    done = std::move(r);
  }
}

}  // namespace pmom::sweep
