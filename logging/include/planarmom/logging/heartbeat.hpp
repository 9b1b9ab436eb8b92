// A log line every `period` while a long step runs ("WHAT: still working, N s"), from a
// background thread, so that no stage of a run is silent for longer than that (a dense LU, a
// large table plan, a slow solve); nothing when the step ends sooner.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace pmom::logging {

class Heartbeat {
 public:
  explicit Heartbeat(std::string what,
                     std::chrono::milliseconds period = std::chrono::milliseconds(2000));
  ~Heartbeat();
  Heartbeat(const Heartbeat&) = delete;
  Heartbeat& operator=(const Heartbeat&) = delete;

 private:
  void beat();

  std::string what_;
  std::chrono::milliseconds period_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable stop_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace pmom::logging
