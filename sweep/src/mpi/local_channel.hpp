// Where rank 0's own worker and the coordinator thread beside it meet: the worker posts a request
// and waits for the reply; the coordinator takes the request when it polls and answers it.
#pragma once

#include <condition_variable>
#include <mutex>
#include <optional>

#include "messages.hpp"

namespace pmom::sweep::mpi {

class LocalChannel {
 public:
  // The worker's side: returns the coordinator's answer to `request`.
  std::optional<Assignment> ask(Request request);
  // The coordinator's side: the request posted (nothing: none), then its answer.
  std::optional<Request> take();
  void answer(std::optional<Assignment> assignment);

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::optional<Request> request_;
  std::optional<std::optional<Assignment>> reply_;
};

}  // namespace pmom::sweep::mpi
