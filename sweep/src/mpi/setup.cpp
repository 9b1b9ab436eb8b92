// The MPI sweep's agreed set-up steps (setup.hpp).
#include "setup.hpp"

#include <omp.h>

#include <cstddef>
#include <functional>
#include <set>
#include <sstream>
#include <utility>

#include "../sweep_steps.hpp"
#include "agreement.hpp"
#include "planarmom/logging/logging.hpp"
#include "planarmom/mom/band_tables.hpp"
#include "transport.hpp"

namespace pmom::sweep::mpi {
namespace {

using cd = std::complex<double>;

// How the sweep's backends are named in its file: the one all ranks run, or each of them
// ("cpu+cuda").
std::string joined(const std::vector<std::string>& names) {
  const std::set<std::string> distinct(names.begin(), names.end());
  std::string all;
  for (const std::string& n : distinct) all += (all.empty() ? "" : "+") + n;
  return all;
}

// A batch of the band's entries (mom::BandTables::Share) shared by every rank: frequency k is
// evaluated by rank k mod R, and each evaluation is then broadcast from its rank. A rank that
// fails to evaluate stops every rank (agree) before any broadcast waits for it.
mom::BandTables::Share share_among(const MpiSession& session) {
  return [&session](const std::vector<double>& frequencies, const mom::TablePlan& plan,
                    const std::function<mom::BandTables::Entries(double)>& one) {
    const auto ranks = static_cast<std::size_t>(session.size());
    std::vector<mom::BandTables::Entries> values(frequencies.size());
    agreed(session, [&] {
      for (std::size_t k = static_cast<std::size_t>(session.rank()); k < frequencies.size();
           k += ranks)
        values[k] = one(frequencies[k]);
    });
    for (std::size_t k = 0; k < frequencies.size(); ++k) {
      values[k].resize(plan.entries.size());
      broadcast(values[k], static_cast<int>(k % ranks));
    }
    return values;
  };
}

}  // namespace

SweepJob load_same_sweep(const std::filesystem::path& config, const MpiSession& session) {
  std::optional<SweepJob> job;
  agreed(session, [&] { job = load_sweep(config); });
  std::ostringstream mine;
  mine << std::hash<std::string>{}(steps::sweep_info(*job, "").config_text) << ' '
       << job->mesh.basis().size() << ' ' << job->settings.frequencies_hz.size();
  const auto sweeps = gather_named(session, mine.str());
  std::string differs;
  for (std::size_t r = 1; r < sweeps.size() && differs.empty(); ++r)
    if (sweeps[r].second != sweeps[0].second)
      differs = sweeps[r].first + " read another sweep than rank 0 from " + config.string() +
                " (config text, unknowns or frequencies differ): every rank must read the same "
                "file (a shared folder, or the same copy on every host)";
  agree(session, differs);
  return std::move(*job);
}

// Each rank's backend, the device of its place on its host (cuda falls back to the cpu where a
// rank has none: named by what it made).
RankBackends make_backends(const SweepSettings& settings, const MpiSession& session) {
  RankBackends made;
  std::string name, device = "cpu";
  agreed(session, [&] {
    const int ordinal = settings.backend == BackendChoice::cpu
                            ? -1
                            : select_cuda_device(session.local_rank());
    made.mine = make_backend<cd>(to_string(steps::choose_backend(settings.backend)));
    const bool on_device = made.mine->on_device();
    name = to_string(on_device ? BackendChoice::cuda : BackendChoice::cpu);
    device = on_device ? "cuda device " + std::to_string(ordinal) + ", " +
                             cuda_device_status().description
                       : "cpu, " + std::to_string(omp_get_max_threads()) + " threads";
  });
  made.named = joined(gather(session, name));
  for (const auto& [rank, what] : gather_named(session, device)) {
    PMOM_LOG(info) << rank << ": " << what;
    made.ranks.push_back(rank);
  }
  return made;
}

std::optional<io::SweepFile> open_file(const SweepJob& job, const SweepSettings& settings,
                                       const RunOptions& options, const std::string& backends,
                                       const MpiSession& session) {
  std::optional<io::SweepFile> file;
  agreed(session, [&] {
    if (session.rank() != 0) return;
    steps::prepare_outputs(job, settings, options);
    file.emplace(settings.hdf5, steps::sweep_info(job, backends),
                 steps::file_mode(options.continuation));
  });
  return file;
}

LineResults share_line_checks(const SweepJob& job, const SweepSettings& settings,
                              Backend<cd>& backend, const MpiSession& session) {
  const bool root = session.rank() == 0;
  LineResults lines;
  agreed(session, [&] {
    if (root) solve_line_checks(job.mesh, settings, backend, lines);
  });
  Packet got = broadcast(root ? pack(lines) : Packet{});
  if (!root) lines = unpack_lines(got);
  return lines;
}

void share_band_tables(SweepPipeline& pipeline, const MpiSession& session) {
  if (on_any_rank(pipeline.wants_band_tables())) pipeline.make_band_tables(share_among(session));
}

}  // namespace pmom::sweep::mpi
