// planarmom command-line entry point: parses the subcommand, sets up logging, and turns any
// error into one line on stderr and a non-zero exit status.
#include <CLI/CLI.hpp>
#include <exception>
#include <vector>

#include "commands.hpp"
#include "common_options.hpp"
#include "planarmom/sweep/mpi_sweep.hpp"

int main(int argc, char** argv) {
  CLI::App app{"planarmom: S-parameters of microstrip circuits by the method of moments, "
               "with GPU Krylov solvers",
               "planarmom"};
  app.set_version_flag("--version", PLANARMOM_VERSION);
  app.require_subcommand(1);
  pmom::logging::LogOptions log;
  pmom::app::add_log_options(app, log);

  const std::vector<pmom::app::Command> commands{pmom::app::add_bench_command(app),
                                                 pmom::app::add_solve_command(app),
                                                 pmom::app::add_device_info_command(app),
                                                 pmom::app::add_line_command(app),
                                                 pmom::app::add_sweep_command(app, log),
                                                 pmom::app::add_heat_command(app)};
  // Lets the logging options stand after the subcommand's name as well.
  for (const auto& c : commands) c.app->fallthrough();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    pmom::logging::init_logging(log);
    for (const auto& c : commands)
      if (c.app->parsed()) return c.run();
  } catch (const pmom::sweep::FailureReported&) {
    return 1;  // rank 0 of the MPI sweep has said why, once
  } catch (const std::exception& e) {
    PMOM_LOG(error) << e.what();
    return 1;
  }
  return 1;
}
