// The agreed set-up steps of an MPI sweep, in the order every rank runs them: each ends with an
// agreement (agreement.hpp), so that a rank that cannot take a step stops every rank, and rank 0
// says which and why.
#pragma once

#include <complex>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/io/sweep_file.hpp"
#include "planarmom/sweep/line_checks.hpp"
#include "planarmom/sweep/mpi_sweep.hpp"
#include "planarmom/sweep/pipeline.hpp"
#include "planarmom/sweep/run.hpp"

namespace pmom::sweep::mpi {

// Every rank reads and meshes the config; it must be the same sweep everywhere.
SweepJob load_same_sweep(const std::filesystem::path& config, const MpiSession& session);

// Each rank's backend: the device of its place on its host, each rank's logged on rank 0.
struct RankBackends {
  std::unique_ptr<Backend<std::complex<double>>> mine;
  std::string named;               // on rank 0: the file's name for them all ("cpu+cuda")
  std::vector<std::string> ranks;  // on rank 0: each rank's name, "rank 1 of 2 (host, pid 4242)"
};
RankBackends make_backends(const SweepSettings& settings, const MpiSession& session);

// Rank 0 checks the outputs and opens the file (resumed or fresh); the others get nothing.
std::optional<io::SweepFile> open_file(const SweepJob& job, const SweepSettings& settings,
                                       const RunOptions& options, const std::string& backends,
                                       const MpiSession& session);

// Rank 0 solves the feeds' line checks and sends them to the others.
LineResults share_line_checks(const SweepJob& job, const SweepSettings& settings,
                              Backend<std::complex<double>>& backend, const MpiSession& session);

// Once every rank has built its pipeline: where any rank fills Z on the host from tables over
// the band, every rank evaluates its share of their nodes and receives the others'.
void share_band_tables(SweepPipeline& pipeline, const MpiSession& session);

}  // namespace pmom::sweep::mpi
