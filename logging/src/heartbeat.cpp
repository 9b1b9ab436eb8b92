// Heartbeat (heartbeat.hpp): a thread waiting on a condition variable with a timeout.
#include "planarmom/logging/heartbeat.hpp"

#include "planarmom/logging/logging.hpp"

namespace pmom::logging {

Heartbeat::Heartbeat(std::string what, std::chrono::milliseconds period)
    : what_(std::move(what)), period_(period), start_(std::chrono::steady_clock::now()),
      thread_([this] { beat(); }) {}

Heartbeat::~Heartbeat() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stop_.notify_all();
  thread_.join();
}

void Heartbeat::beat() {
  std::unique_lock lock(mutex_);
  while (!stop_.wait_for(lock, period_, [this] { return stopping_; })) {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    PMOM_LOG(info) << what_ << ": still working, " << static_cast<int>(seconds) << " s";
  }
}

}  // namespace pmom::logging
