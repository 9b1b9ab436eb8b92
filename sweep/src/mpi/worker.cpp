// The MPI sweep's worker loop (worker.hpp).
#include "worker.hpp"

#include <complex>
#include <exception>
#include <utility>
#include <vector>

#include "agreement.hpp"
#include "planarmom/sweep/sweep_coordinator.hpp"
#include "transport.hpp"

namespace pmom::sweep::mpi {

bool run_worker(const Ask& ask, SweepPipeline& pipeline) {
  try {
    work(
        [&ask](io::FrequencyRecord* done) {
          Request q;
          if (done != nullptr) {
            q.kind = RequestKind::record;
            q.record = std::move(*done);
          }
          return ask(std::move(q));
        },
        [&pipeline](double hz, std::vector<std::complex<double>>& guess,
                    std::optional<double> next) { return pipeline.run(hz, guess, next); });
  } catch (const std::exception& e) {
    Request q;
    q.kind = RequestKind::failed;
    q.error = e.what();
    ask(std::move(q));
    return true;
  }
  return false;
}

void work_for_rank0(SweepPipeline& pipeline, const MpiSession& session) {
  bool stopped_failed = false;  // rank 0 stopped this rank after a failure
  const bool failed_here = run_worker(
      [&stopped_failed](Request q) {
        send_request(q);
        return receive_reply(stopped_failed);
      },
      pipeline);
  if (failed_here || stopped_failed)
    report_failure(session, "the sweep stopped; rank 0 says why");
}

}  // namespace pmom::sweep::mpi
