// `mpirun -np R planarmom sweep CONFIG.yaml`: one rank per GPU (each rank takes the device of its
// place among its host's ranks; a rank without one runs the cpu backend), the frequencies handed
// out as ranks ask (SweepCoordinator on rank 0, in a thread beside rank 0's own solves), the
// feeds' line checks solved once on rank 0 and sent to the others, and one HDF5 file, written by
// rank 0 as the serial sweep writes it (resumable with any number of ranks). Every step before
// the frequencies is agreed: a rank that cannot read the config, make its backend or build its
// pipeline stops every rank, and rank 0 says which and why in one line.
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

#include "planarmom/sweep/run.hpp"

namespace pmom::sweep {

// MPI for the process's lifetime: initialised (MPI_THREAD_SERIALIZED: rank 0's coordinator
// thread sends and receives while its main thread solves) and finalised.
class MpiSession {
 public:
  // Whether mpirun (Open MPI, or a PMI launcher: MPICH's, Slurm's) started this process.
  [[nodiscard]] static bool launched();

  MpiSession();  // throws std::runtime_error when MPI cannot start as needed
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  [[nodiscard]] int rank() const { return rank_; }
  [[nodiscard]] int size() const { return size_; }
  [[nodiscard]] int local_rank() const { return local_rank_; }  // among this host's ranks
  [[nodiscard]] int local_size() const { return local_size_; }
  [[nodiscard]] const std::string& host() const { return host_; }

 private:
  int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
  std::string host_;
};

// The ranks of a host share its cores: each takes its part for OpenMP (unless OMP_NUM_THREADS
// says otherwise), and one that mpirun bound to fewer cores than that says so in a warning.
void share_host_cores(const MpiSession& session);

// Thrown on every rank when the run stops for a failure that rank 0 has logged already, so that
// it is said once and before any rank ends.
class FailureReported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runs the sweep of `config` on every rank of the session (called by each). Rank 0 returns the
// job, its file written and finished (then the caller draws the plots); the others return
// nothing. Throws on rank 0 what the serial sweep throws, naming the rank where it was another
// one's; a failure after the first frequency leaves the partial file, to resume with any
// number of ranks.
std::optional<SweepJob> run_sweep_on_ranks(const std::filesystem::path& config,
                                           const RunOptions& options, const MpiSession& session);

}  // namespace pmom::sweep
