// Definitions of the shared command-line options.
#include "common_options.hpp"

namespace pmom::app {

void add_log_options(CLI::App& app, logging::LogOptions& options) {
  auto* verbose = app.add_flag_callback(
      "-v,--verbose", [&options] { options.verbosity = logging::Verbosity::verbose; },
      "Log debug messages too");
  app.add_flag_callback(
         "-q,--quiet", [&options] { options.verbosity = logging::Verbosity::quiet; },
         "Log only warnings and errors")
      ->excludes(verbose);
  app.add_option_function<std::string>(
      "--log-file", [&options](const std::string& f) { options.file = f; },
      "Also write the full (debug) log to this file");
}

void add_solver_options(CLI::App& app, SolverFlags& flags, bool method_list,
                        const std::vector<std::string>& backends) {
  app.add_option("--solver", flags.method,
                 method_list ? "Comma-separated solvers from bicg, cocg, bicgstab, cg, jacobi, "
                               "gauss-seidel"
                             : "auto (COCG if A^T = A, CG if Hermitian with positive diagonal, "
                               "else BiCG; in solve and bench, BiCGSTAB next if that fails), "
                               "bicg, cocg, bicgstab, cg, or the stationary iterations jacobi "
                               "and gauss-seidel")
      ->capture_default_str();
  app.add_option("--tol", flags.options.tolerance, "Stop at ||r||/||b|| <= tol")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--max-iter", flags.options.max_iterations, "Iteration limit")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_option("--check-every", flags.options.check_every,
                 "Iterations between residual checks on the host (0: 1 on cpu, 8 on cuda)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  std::vector<std::string> formats{"auto"};
  for (const Format f : all_formats) formats.push_back(to_string(f));
  app.add_option("--format", flags.format,
                 "Sparse format: csr, hyb (ELL + COO), ellr (ELLPACK-R), sellp (sliced ELL), "
                 "dia (diagonals), or auto (solve and bench: chosen per matrix, logged)")
      ->capture_default_str()
      ->check(CLI::IsMember(formats));
  SolverOptions& o = flags.options;
  app.add_option("--sellp-slice", o.sellp.slice_rows, "SELL-P: rows per slice (b)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
  app.add_option("--sellp-threads", o.sellp.threads_per_row,
                 "SELL-P: GPU threads per row (t), a power of two up to 32; 0 picks it from the "
                 "mean row length")
      ->capture_default_str()
      ->check(CLI::IsMember({0, 1, 2, 4, 8, 16, 32}));
  app.add_option("--sellp-sort", o.sellp.sort_window,
                 "SELL-P: sort rows by length within windows of this many rows (sigma; 1: no "
                 "sorting)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_flag("--dia-periodic", o.dia.periodic,
               "DIA: fold column offsets modulo n, so periodic wrap-around entries share the "
               "band's diagonals");
  app.add_option("--dia-max-fill", o.dia.max_fill,
                 "DIA: refuse matrices that would store more than this many values per entry")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--adjoint", flags.adjoint,
                 "A^H product: stored conjugate transpose or transposed kernel")
      ->capture_default_str()
      ->check(CLI::IsMember({"stored", "transposed"}));
  app.add_option("--backend", flags.backend,
                 "Where to solve (cuda falls back to cpu, saying why, without a device)")
      ->capture_default_str()
      ->check(CLI::IsMember(backends));
  app.add_option("--precond", flags.preconditioner,
                 "Preconditioner of the Krylov solvers: none, jacobi, or ssor (cg and cocg "
                 "only); jacobi and gauss-seidel ignore it")
      ->capture_default_str()
      ->check(CLI::IsMember({"none", "jacobi", "ssor"}));
  app.add_option("--omega", flags.options.omega,
                 "Relaxation factor of jacobi (> 0), gauss-seidel and ssor (between 0 and 2)")
      ->capture_default_str();
  auto* ordering = app.add_option(
      "--ordering", flags.ordering,
      std::string("Row order of gauss-seidel and ssor sweeps: natural (row after row, cpu "
                  "only), multicolour (greedy colouring of A + A^T, each colour in parallel) "
                  "or auto (natural on cpu, multicolour on cuda)") +
          (method_list ? "; comma-separated orders run each" : ""));
  ordering->capture_default_str();
  if (!method_list) ordering->check(CLI::IsMember({"auto", "natural", "multicolour"}));
  auto* precision = app.add_option(
      "--precision", flags.precision,
      std::string("double, single (the solver in float / complex<float>, residuals checked in "
                  "double) or mixed (refinement: single-precision inner solves to --inner-tol, "
                  "double residuals, until --tol)") +
          (method_list ? "; comma-separated precisions run each" : ""));
  precision->capture_default_str();
  if (!method_list) precision->check(CLI::IsMember({"double", "single", "mixed"}));
  app.add_option("--summation", flags.summation,
                 "Dot products and norms: plain, or compensated (Kahan, double-word: about twice "
                 "the working precision)")
      ->capture_default_str()
      ->check(CLI::IsMember({"plain", "compensated"}));
  app.add_option("--inner-tol", flags.refinement.inner_tolerance,
                 "Mixed precision: relative tolerance of each single-precision inner solve")
      ->capture_default_str()
      ->check(CLI::Range(1e-12, 0.999));
  app.add_option("--max-refinements", flags.refinement.max_refinements,
                 "Mixed precision: most outer refinement steps")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_flag("--no-graphs", flags.no_graphs,
               "Launch each kernel of an iteration instead of replaying a CUDA graph");
}

void add_auto_options(CLI::App& app, AutoOptions& options) {
  app.add_flag("--auto-trial", options.trial,
               "With --solver auto and/or --format auto: run each plausible (solver, format) "
               "pair briefly, estimate its time to the tolerance from its time per iteration "
               "and residual reduction, and solve with the fastest (logged; its time counts)");
  app.add_option("--auto-trial-iterations", options.trial_iterations,
                 "Iterations each trial runs at most")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option_function<double>(
         "--auto-trial-ms", [&options](double ms) { options.trial_seconds = ms * 1e-3; },
         "Milliseconds of iterating each trial runs at most (whichever limit comes first)")
      ->default_str(std::to_string(options.trial_seconds * 1e3))
      ->check(CLI::PositiveNumber);
}

SolverOptions resolve_solver_options(const SolverFlags& flags) {
  SolverOptions o = flags.options;
  o.format = flags.format == "auto" ? Format::csr : parse_format(flags.format);
  o.adjoint = flags.adjoint == "transposed" ? AdjointMode::transposed_kernel : AdjointMode::stored;
  o.preconditioner = parse_preconditioner(flags.preconditioner);
  o.ordering = parse_sweep_order(flags.ordering);
  o.use_graphs = !flags.no_graphs;
  o.summation = parse_summation(flags.summation);
  return o;
}

}  // namespace pmom::app
