// Rank 0's worker and coordinator thread meeting (local_channel.hpp).
#include "local_channel.hpp"

#include <utility>

namespace pmom::sweep::mpi {

std::optional<Assignment> LocalChannel::ask(Request request) {
  std::unique_lock lock(mutex_);
  request_ = std::move(request);
  reply_.reset();
  changed_.wait(lock, [this] { return reply_.has_value(); });
  std::optional<Assignment> a = std::move(*reply_);
  reply_.reset();
  return a;
}

std::optional<Request> LocalChannel::take() {
  const std::lock_guard lock(mutex_);
  std::optional<Request> q = std::move(request_);
  request_.reset();
  return q;
}

void LocalChannel::answer(std::optional<Assignment> assignment) {
  {
    const std::lock_guard lock(mutex_);
    reply_.emplace(std::move(assignment));
  }
  changed_.notify_all();
}

}  // namespace pmom::sweep::mpi
