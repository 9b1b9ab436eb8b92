// The loop each rank of an MPI sweep runs on the frequencies: it asks rank 0 for one, computes
// it with its pipeline and asks again with the record, until told to stop; a failure is sent
// as its last request, so that rank 0 stops the others and says why.
#pragma once

#include <functional>
#include <optional>

#include "messages.hpp"
#include "planarmom/sweep/mpi_sweep.hpp"
#include "planarmom/sweep/pipeline.hpp"

namespace pmom::sweep::mpi {

// The loop with `ask` carrying its requests and returning the replies. Returns whether it
// failed here.
using Ask = std::function<std::optional<Assignment>(Request)>;
bool run_worker(const Ask& ask, SweepPipeline& pipeline);

// The loop on a rank other than 0, asking by MPI. Throws FailureReported (report_failure) where
// it failed, or rank 0 stopped it after a failure.
void work_for_rank0(SweepPipeline& pipeline, const MpiSession& session);

}  // namespace pmom::sweep::mpi
