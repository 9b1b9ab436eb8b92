// Rank 0's coordinator thread and its own worker (coordinator.hpp).
#include "coordinator.hpp"

#include <chrono>
#include <exception>
#include <optional>
#include <thread>
#include <utility>

#include "agreement.hpp"
#include "local_channel.hpp"
#include "planarmom/logging/logging.hpp"
#include "planarmom/sweep/sweep_coordinator.hpp"
#include "transport.hpp"
#include "worker.hpp"

namespace pmom::sweep::mpi {
namespace {

// The reply to `worker`'s request: its next frequency, or nothing once it is to stop (a failure
// there, or here, stops the handing out).
std::optional<Assignment> serve(SweepCoordinator& coordinator,
                                const std::vector<std::string>& ranks, int worker, Request& q) {
  try {
    if (q.kind == RequestKind::failed) {
      coordinator.fail(ranks[static_cast<std::size_t>(worker)] + ": " + q.error);
      return std::nullopt;
    }
    return coordinator.next(worker, q.kind == RequestKind::record ? &q.record : nullptr);
  } catch (const std::exception& e) {
    coordinator.fail(e.what());
    return std::nullopt;
  }
}

// The coordinator thread: serves rank 0's worker through `local` and the other ranks by MPI,
// until every worker has been told to stop.
void coordinate(SweepCoordinator& coordinator, LocalChannel& local, const MpiSession& session,
                const std::vector<std::string>& ranks) {
  int stopped = 0;
  while (stopped < session.size()) {
    bool served = false;
    if (std::optional<Request> q = local.take()) {
      std::optional<Assignment> a = serve(coordinator, ranks, 0, *q);
      stopped += a ? 0 : 1;
      local.answer(std::move(a));
      served = true;
    }
    if (std::optional<std::pair<int, Request>> got = take_request()) {
      auto& [worker, q] = *got;
      const std::optional<Assignment> a = serve(coordinator, ranks, worker, q);
      stopped += a ? 0 : 1;
      send_reply(a, coordinator.failure().has_value(), worker);
      served = true;
    }
    if (!served) std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

}  // namespace

void coordinate_and_work(io::SweepFile& file, const SweepSettings& settings,
                         const RunOptions& options, SweepPipeline& pipeline,
                         const std::vector<std::string>& ranks, const MpiSession& session) {
  SweepCoordinator coordinator(file, settings.frequencies_hz, session.size(), options.progress);
  PMOM_LOG(info) << coordinator.todo() << " frequencies to compute on " << session.size()
                 << " ranks, handed out as they ask";
  LocalChannel local;
  std::thread thread([&] { coordinate(coordinator, local, session, ranks); });
  // A failure here reaches the coordinator as this worker's last request: its failure() says it.
  (void)run_worker([&local](Request q) { return local.ask(std::move(q)); }, pipeline);
  thread.join();
  coordinator.log_rate();
  if (const std::optional<std::string>& failure = coordinator.failure())
    report_failure(session, *failure + " (" + std::to_string(coordinator.done()) + " of " +
                                std::to_string(coordinator.todo()) + " frequencies written to " +
                                io::SweepFile::partial_path(settings.hdf5).string() +
                                ": --resume continues from them, with any number of ranks)");
}

}  // namespace pmom::sweep::mpi
