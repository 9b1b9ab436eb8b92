// Command-line options shared by the subcommands: logging and solver settings.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "planarmom/gpusolver/precision.hpp"
#include "planarmom/gpusolver/auto_choice.hpp"
#include "planarmom/gpusolver/solver.hpp"
#include "planarmom/logging/logging.hpp"

namespace pmom::app {

void add_log_options(CLI::App& app, logging::LogOptions& options);

// Solver choice and settings; `method` is kept as text so each command can parse a list.
struct SolverFlags {
  std::string method = "auto";
  std::string format = "csr";
  std::string adjoint = "stored";
  std::string backend = "cpu";
  std::string preconditioner = "jacobi";
  std::string ordering = "auto";
  std::string precision = "double";
  std::string summation = "plain";
  bool no_graphs = false;
  SolverOptions options;
  RefinementOptions refinement;
};
// backends: the names --backend accepts.
void add_solver_options(CLI::App& app, SolverFlags& flags, bool method_list,
                        const std::vector<std::string>& backends = {"cpu", "cuda"});
// Applies the text flags to flags.options (throws std::invalid_argument on bad values);
// --format auto leaves CSR there, for the commands that choose (automatic_format) to replace.
SolverOptions resolve_solver_options(const SolverFlags& flags);
inline bool automatic_format(const SolverFlags& flags) { return flags.format == "auto"; }

// --auto-trial and its budget (solve and bench), into `options`; the commands set what is
// chosen from --solver and --format.
void add_auto_options(CLI::App& app, AutoOptions& options);

}  // namespace pmom::app
