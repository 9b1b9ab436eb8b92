// Rank 0's part of an MPI sweep's frequencies: a coordinator thread hands them out to every
// rank's worker as it asks (SweepCoordinator owns the file), beside rank 0's own worker, so that
// rank 0 solves too.
#pragma once

#include <string>
#include <vector>

#include "planarmom/io/sweep_file.hpp"
#include "planarmom/sweep/config.hpp"
#include "planarmom/sweep/mpi_sweep.hpp"
#include "planarmom/sweep/pipeline.hpp"
#include "planarmom/sweep/run.hpp"

namespace pmom::sweep::mpi {

// Returns once every rank's worker is told to stop, every record appended to `file`. Throws
// FailureReported (report_failure) after a failure on any rank, saying how many frequencies
// the partial file holds; `ranks` names the ranks in its message.
void coordinate_and_work(io::SweepFile& file, const SweepSettings& settings,
                         const RunOptions& options, SweepPipeline& pipeline,
                         const std::vector<std::string>& ranks, const MpiSession& session);

}  // namespace pmom::sweep::mpi
