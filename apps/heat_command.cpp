// `planarmom heat`: the CG paper's 2D heat equation, stepped in time with the solver library;
// reports the solver's time per iteration and writes the final field (HDF5, and a picture).
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>

#include "commands.hpp"
#include "common_options.hpp"
#include "plot_script.hpp"
#include "planarmom/bench/heat_run.hpp"
#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/io/heat_file.hpp"

namespace pmom::app {
namespace {

namespace fs = std::filesystem;

struct HeatFlags {
  bench::HeatProblem problem;
  int steps = 10;
  std::string initial = "gaussian";
  std::string output = "heat.h5";
  std::string plot;  // empty: the output's name with .png
  bool no_plot = false;
  SolverFlags solver;
};

// Exit status when a step's solve stopped without converging, as for `planarmom solve`.
constexpr int not_converged_status = 2;

// The sine mode's largest deviation from its exact discrete decay, relative to its amplitude.
double sine_mode_error(const bench::HeatProblem& p, const std::vector<double>& start,
                       const std::vector<double>& end, int steps) {
  const double factor = std::pow(bench::sine_mode_decay(p), steps);
  double error = 0, amplitude = 0;
  for (std::size_t k = 0; k < start.size(); ++k) {
    error = std::max(error, std::abs(end[k] - factor * start[k]));
    amplitude = std::max(amplitude, std::abs(factor * start[k]));
  }
  return error / amplitude;
}

void print_summary(const HeatFlags& f, const bench::HeatRunStats& s) {
  const bench::HeatProblem& p = f.problem;
  const auto steps = static_cast<int>(s.steps.size());
  std::cout << "grid: n = " << p.n << ", " << s.unknowns << " unknowns, " << s.nnz
            << " non-zeros, kappa " << p.kappa << ", dt " << p.dt << ", boundary "
            << p.boundary << ", initial " << f.initial << '\n'
            << "solver: " << to_string(s.method) << " on " << s.backend;
  if (s.backend == "cpu") std::cout << " (" << omp_get_max_threads() << " threads)";
  std::cout << ", format " << f.solver.format << '\n'
            << "steps: " << steps << " to t = " << steps * p.dt << ", "
            << (s.all_converged() ? "all converged" : "NOT all converged") << '\n'
            << "iterations: " << s.iterations() << " (" << std::fixed << std::setprecision(1)
            << static_cast<double>(s.iterations()) / steps << " per step)\n"
            << std::setprecision(4) << "time: setup " << s.setup_seconds << " s, solve "
            << s.solve_seconds() << " s, " << std::setprecision(3)
            << s.seconds_per_iteration() * 1e6 << " us per iteration\n"
            << std::defaultfloat;
}

int run(const HeatFlags& f) {
  const bench::HeatProblem& p = f.problem;
  bench::validate(p);
  if (f.steps < 1)
    throw std::invalid_argument("heat: --steps must be >= 1, got " + std::to_string(f.steps));
  const bench::HeatInitial initial = bench::parse_heat_initial(f.initial);
  if (automatic_format(f.solver))
    throw std::invalid_argument("heat: name the format (--format csr, ellr, sellp, dia or hyb); "
                                "auto is for solve and bench");
  const SolverOptions options = resolve_solver_options(f.solver);
  auto backend = make_backend<double>(f.solver.backend);

  std::vector<double> u = bench::initial_field(p, initial);
  const std::vector<double> start = initial == bench::HeatInitial::sine ? u : std::vector<double>{};
  PMOM_LOG(info) << "heat equation on a " << p.n << " x " << p.n << " grid, " << f.steps
                 << " steps of " << p.dt << " on " << backend->name();
  const bench::HeatRunStats stats = bench::run_heat(
      p, u, f.steps, *backend, options, [&](int step, const bench::HeatStepStats& s) {
        PMOM_LOG(info) << "step " << step << "/" << f.steps << ": " << to_string(s.outcome)
                       << " after " << s.iterations << " iterations, " << s.seconds * 1e3
                       << " ms, true residual " << s.true_residual;
      });
  print_summary(f, stats);
  if (initial == bench::HeatInitial::sine && p.boundary == 0)
    std::cout << "sine mode: error against the exact decay " << std::scientific
              << std::setprecision(2) << sine_mode_error(p, start, u, f.steps)
              << " of the amplitude\n"
              << std::defaultfloat;

  io::HeatRecord record;
  record.n = p.n;
  record.u = std::move(u);
  record.kappa = p.kappa;
  record.dt = p.dt;
  record.boundary = p.boundary;
  record.initial = f.initial;
  record.solver = to_string(stats.method);
  record.backend = stats.backend;
  record.format = f.solver.format;
  record.program_version = PLANARMOM_VERSION;
  for (const bench::HeatStepStats& s : stats.steps) {
    record.iterations.push_back(s.iterations);
    record.seconds.push_back(s.seconds);
  }
  io::write_heat_file(f.output, record);
  PMOM_LOG(info) << "final field written to " << f.output;
  if (!f.no_plot) {
    const fs::path png =
        f.plot.empty() ? fs::path(f.output).replace_extension(".png") : fs::path(f.plot);
    if (plot_with_script("plot_heat.py", f.output, png))
      PMOM_LOG(info) << "picture written to " << png.string();
  }
  return stats.all_converged() ? 0 : not_converged_status;
}

}  // namespace

Command add_heat_command(CLI::App& parent) {
  auto flags = std::make_shared<HeatFlags>();
  flags->solver.method = "cg";
  CLI::App* app = parent.add_subcommand(
      "heat", "Step the 2D heat equation (backward Euler, 5-point Laplacian) with the solver; "
              "report time per iteration, write the field (HDF5, PNG); exit 2 if a step did "
              "not converge");
  app->add_option("--n", flags->problem.n, "Interior grid points per side (n^2 unknowns)")
      ->capture_default_str();
  app->add_option("--steps", flags->steps, "Time steps")->capture_default_str();
  app->add_option("--dt", flags->problem.dt, "Time step")->capture_default_str();
  app->add_option("--kappa", flags->problem.kappa, "Diffusivity")->capture_default_str();
  app->add_option("--boundary", flags->problem.boundary,
                  "Temperature held on the boundary")
      ->capture_default_str();
  app->add_option("--initial", flags->initial,
                  "Initial field: gaussian, square (hot middle square) or sine "
                  "(sin(pi x) sin(pi y), checked against its exact decay)")
      ->capture_default_str();
  app->add_option("-o,--output", flags->output, "The HDF5 file of the final field")
      ->capture_default_str();
  app->add_option("--plot", flags->plot, "The picture of the final field (default: the "
                                         "output's name with .png)");
  app->add_flag("--no-plot", flags->no_plot, "Write no picture")->excludes("--plot");
  add_solver_options(*app, flags->solver, false);
  return {app, [flags] { return run(*flags); }};
}

}  // namespace pmom::app
