// run_sweep_on_ranks (mpi_sweep.hpp): the steps every rank takes, from the units under mpi/ (the
// agreed set-up, then the frequencies: rank 0 coordinates beside its own worker).
#include "planarmom/sweep/mpi_sweep.hpp"

#include <optional>
#include <stdexcept>

#include "mpi/agreement.hpp"
#include "planarmom/logging/logging.hpp"
#include "mpi/coordinator.hpp"
#include "mpi/setup.hpp"
#include "mpi/worker.hpp"
#include "planarmom/sweep/pipeline.hpp"
#include "sweep_steps.hpp"

namespace pmom::sweep {

namespace {

// An adaptive sweep chooses each solve from the ones before it, so it runs on one rank: ranks
// share a sweep of every frequency instead (an error where adaptive was asked for).
SweepSettings every_frequency(SweepSettings settings, const MpiSession& session) {
  if (settings.sampling == Sampling::adaptive)
    throw std::runtime_error("frequencies.adaptive runs on one rank: each solve is chosen from "
                             "the ones before it; run without mpirun, or give adaptive: false "
                             "to share every frequency across the ranks");
  if (is_adaptive(settings) && session.rank() == 0)
    PMOM_LOG(info) << "on " << session.size() << " ranks every frequency is solved (an adaptive "
                   << "sweep runs on one rank)";
  settings.sampling = Sampling::every_frequency;
  return settings;
}

}  // namespace

std::optional<SweepJob> run_sweep_on_ranks(const std::filesystem::path& config,
                                           const RunOptions& options, const MpiSession& session) {
  // 1. Every rank reads and meshes the config; it must be the same sweep everywhere.
  std::optional<SweepJob> job(mpi::load_same_sweep(config, session));
  // 2. Each rank's backend: the device of its place on its host.
  const SweepSettings settings = every_frequency(output_paths(*job, options), session);
  const mpi::RankBackends backends = mpi::make_backends(settings, session);
  // 3. Rank 0 checks the outputs and opens the file (resumed or fresh).
  std::optional<io::SweepFile> file =
      mpi::open_file(*job, settings, options, backends.named, session);
  // 4. Rank 0 solves the line checks and sends them to the others; then every rank builds its
  // pipeline (the tables' plan, the operator) at once, and they share the band's tables.
  LineResults lines = mpi::share_line_checks(*job, settings, *backends.mine, session);
  std::optional<SweepPipeline> pipeline;
  mpi::agreed(session, [&] { pipeline.emplace(job->mesh, settings, *backends.mine, &lines); });
  mpi::share_band_tables(*pipeline, session);
  // 5. The frequencies: rank 0 hands them out from its coordinator thread and solves its own.
  if (session.rank() != 0) {
    mpi::work_for_rank0(*pipeline, session);
    return std::nullopt;
  }
  mpi::coordinate_and_work(*file, settings, options, *pipeline, backends.ranks, session);
  steps::finish(*file, *job, settings);
  return job;
}

}  // namespace pmom::sweep
