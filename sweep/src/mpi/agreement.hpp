// The MPI sweep's failure agreement: a step that fails on any rank stops every rank, and rank 0
// logs why, once and naming the rank, before any rank ends (mpirun ends the job as soon as one
// rank exits non-zero, taking rank 0's line with it if rank 0 had not written it yet).
#pragma once

#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "planarmom/sweep/mpi_sweep.hpp"

namespace pmom::sweep::mpi {

// Every rank's text, gathered on rank 0 as {rank's name, text} (empty elsewhere); the name is
// "rank 1 of 2 (host, pid 4242)".
std::vector<std::pair<std::string, std::string>> gather_named(const MpiSession& session,
                                                              const std::string& text);

// A failure every rank knows of is reported: rank 0 logs it, then every rank meets the others
// and throws FailureReported. On a busy host a rank that ended first took rank 0's line with
// it: the disk-full sweep ended with no error line at all.
[[noreturn]] void report_failure(const MpiSession& session, const std::string& message);

// One agreed step: each rank's error (empty: none) goes to rank 0, which sends the first to
// every rank; then it is reported (naming the rank it came from where that was another).
void agree(const MpiSession& session, const std::string& error);

// Runs `step`, then agrees on whether it failed anywhere.
template <class Step> void agreed(const MpiSession& session, Step&& step) {
  std::string error;
  try {
    step();
  } catch (const std::exception& e) {
    error = e.what();
    if (error.empty()) error = "an error without a message";
  }
  agree(session, error);
}

}  // namespace pmom::sweep::mpi
