// `planarmom sweep CONFIG.yaml`: the frequency sweep of a layout to S-parameters, written to
// HDF5 as it goes (resumable), then Touchstone, a layout picture and a plot of |S| in dB; under
// mpirun, across the ranks (one per GPU).
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "plot_script.hpp"
#include "planarmom/logging/logging.hpp"
#include "planarmom/sweep/current_picture.hpp"
#include "planarmom/sweep/mpi_sweep.hpp"
#include "planarmom/sweep/run.hpp"

namespace pmom::app {
namespace {

struct SweepFlags {
  std::string config;
  bool resume = false;
  bool restart = false;
  bool no_line_cache = false;
  bool adaptive = false;
  bool no_adaptive = false;
  std::string backend;  // overrides solver.backend
  std::string out_dir;  // puts the output files there, under their own names
};

// One line, redrawn in place: [#####     ] 17/101  2.320 GHz  572 iterations  ETA 5:41
void progress_bar(std::size_t done, std::size_t todo, double hz, int iterations, double eta_s) {
  constexpr std::size_t width = 30;
  const std::size_t filled = todo == 0 ? width : width * done / todo;
  const auto eta = static_cast<long long>(std::lround(eta_s));
  char line[160];
  std::snprintf(line, sizeof line, "\r[%s%s] %zu/%zu  %.3f GHz  %d iterations  ETA %lld:%02lld ",
                std::string(filled, '#').c_str(), std::string(width - filled, ' ').c_str(), done,
                todo, hz * 1e-9, iterations, eta / 60, eta % 60);
  std::cerr << line << std::flush;
}

// The plots of a finished sweep: |S| in dB, and |J| where the config asks for currents.
void draw(const sweep::SweepJob& job, const sweep::SweepSettings& out) {
  plot_with_script("plot_sweep.py", out.hdf5, out.plot);
  std::vector<std::string> ports;
  for (const geometry::Port& p : job.geometry.layout.ports) ports.push_back(p.name);
  for (const sweep::CurrentPicture& p :
       sweep::current_pictures(out.hdf5, out.current_frequencies_hz, ports, job.mesh.layers()))
    plot_with_script("plot_currents.py", p.csv, p.png);
  PMOM_LOG(info) << "wrote " << out.hdf5 << ", " << out.touchstone << ", " << out.plot << " and "
                 << out.layout;
}

int run(const SweepFlags& f, const logging::LogOptions& log) {
  sweep::RunOptions options;
  options.continuation = f.resume    ? sweep::Continuation::resume
                         : f.restart ? sweep::Continuation::restart
                                     : sweep::Continuation::automatic;
  if (!f.backend.empty()) options.backend = sweep::parse_backend_choice(f.backend);
  options.out_dir = f.out_dir;
  options.line_cache = !f.no_line_cache;
  if (f.adaptive || f.no_adaptive) options.adaptive = f.adaptive;
  // On a terminal a progress bar replaces the per-frequency log lines (which would break it).
  const bool terminal = isatty(STDERR_FILENO) != 0;
  options.progress = [terminal](const sweep::SweepProgress& p) {
    const io::FrequencyRecord& r = *p.record;
    const double eta = p.elapsed_s / static_cast<double>(p.done) *
                       static_cast<double>(p.todo - p.done);
    if (terminal) {
      progress_bar(p.done, p.todo, r.frequency_hz, r.iterations, eta);
      return;
    }
    PMOM_LOG(info) << "[" << p.done << "/" << p.todo << "] " << r.frequency_hz * 1e-9
                   << " GHz: " << r.iterations << " iterations, residual " << r.residual << ", "
                   << r.seconds_greens + r.seconds_fill + r.seconds_sparsify + r.seconds_solve +
                          r.seconds_deembed
                   << " s" << (p.workers > 1 ? " on rank " + std::to_string(p.worker) : "")
                   << ", ETA " << eta << " s";
  };
  // Under mpirun with more than one rank, the ranks share the frequencies (mpi_sweep.hpp).
  std::optional<sweep::MpiSession> mpi;
  if (sweep::MpiSession::launched()) mpi.emplace();
  if (mpi) sweep::share_host_cores(*mpi);
  if (mpi && mpi->size() > 1) {
    if (mpi->rank() != 0) {  // rank 0 reports the run; the others only what goes wrong
      logging::LogOptions mine = log;
      mine.prefix = "rank " + std::to_string(mpi->rank()) + " (" + mpi->host() + "): ";
      if (mine.verbosity == logging::Verbosity::normal) mine.verbosity = logging::Verbosity::quiet;
      logging::init_logging(mine);
    }
    const std::optional<sweep::SweepJob> job = sweep::run_sweep_on_ranks(f.config, options, *mpi);
    if (terminal && job) std::cerr << '\n';
    if (job) draw(*job, sweep::output_paths(*job, options));
    return 0;
  }
  const sweep::SweepJob job = sweep::load_sweep(f.config);
  (void)sweep::run_sweep(job, options);
  if (terminal) std::cerr << '\n';
  draw(job, sweep::output_paths(job, options));
  return 0;
}

}  // namespace

Command add_sweep_command(CLI::App& parent, const logging::LogOptions& log) {
  auto flags = std::make_shared<SweepFlags>();
  CLI::App* app = parent.add_subcommand(
      "sweep", "Sweep a layout's S-parameters over frequency (YAML config; HDF5, Touchstone, "
               "plot and layout picture out)");
  app->add_option("config", flags->config, "The sweep's YAML config (examples/*.yaml)")
      ->required()
      ->check(CLI::ExistingFile);
  CLI::Option* resume =
      app->add_flag("--resume", flags->resume,
                    "Continue a killed sweep from its partial HDF5 file, and stop with an error "
                    "where that file is another run's or damaged (without it, a partial or "
                    "finished file of this same run is continued too, and another run's is "
                    "discarded)");
  app->add_flag("--restart", flags->restart,
                "Discard the partial or finished HDF5 file of an earlier run and compute every "
                "frequency again")
      ->excludes(resume);
  CLI::Option* adaptive = app->add_flag(
      "--adaptive", flags->adaptive,
      "Solve a few of the frequencies and fit S at the others with a rational model, adding "
      "solves until two competing models agree (frequencies.adaptive: true; the default for 50 "
      "frequencies or more)");
  app->add_flag("--no-adaptive", flags->no_adaptive,
                "Solve every frequency (frequencies.adaptive: false)")
      ->excludes(adaptive);
  app->add_option("--out-dir", flags->out_dir,
                  "Write the output files into this folder (under the names the config gives)");
  app->add_option("--backend", flags->backend, "Override solver.backend: auto, cpu or cuda")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  app->add_flag("--no-line-cache", flags->no_line_cache,
                "Solve the feed line checks and compute the near tables' static parts even "
                "where the line cache ($PLANARMOM_CACHE_DIR, else ~/.cache/planarmom/lines) "
                "holds them, and store nothing there");
  return {app, [flags, &log] { return run(*flags, log); }};
}

}  // namespace pmom::app
