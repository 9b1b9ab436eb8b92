// The subcommands of the planarmom CLI: each registers its options and returns the action
// to run once the command line has been parsed.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

#include "planarmom/logging/logging.hpp"

namespace pmom::app {

struct Command {
  CLI::App* app = nullptr;   // the registered subcommand
  std::function<int()> run;  // its action; returns the exit status
};

Command add_bench_command(CLI::App& parent);
Command add_solve_command(CLI::App& parent);
Command add_device_info_command(CLI::App& parent);
Command add_line_command(CLI::App& parent);
// The sweep re-initialises logging on MPI ranks other than 0 (their lines named, info quiet).
Command add_sweep_command(CLI::App& parent, const logging::LogOptions& log);
Command add_heat_command(CLI::App& parent);

}  // namespace pmom::app
