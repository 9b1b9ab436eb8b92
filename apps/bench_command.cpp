// `planarmom bench`: the solver benchmark over Matrix Market files.
#include <filesystem>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "common_options.hpp"
#include "planarmom/bench/matrix_bench.hpp"
#include "planarmom/bench/report.hpp"

namespace pmom::app {
namespace {

struct BenchFlags {
  std::vector<std::string> inputs;
  std::string rhs = "A1";
  std::string field = "all";
  std::string json;
  bool non_dominant = false;
  SolverFlags solver;
  bench::BenchOptions options;
};

// The items of a comma-separated list, each through `parse`.
template <class Parse> auto parse_list(const std::string& list, Parse parse) {
  std::vector<decltype(parse(list))> items;
  std::stringstream ss(list);
  for (std::string item; std::getline(ss, item, ',');) items.push_back(parse(item));
  return items;
}

std::vector<Method> parse_methods(const std::string& list) {
  return parse_list(list, [](const std::string& item) {
    return parse_method(item);
  });
}

int run(BenchFlags& f) {
  bench::BenchOptions& o = f.options;
  o.inputs.assign(f.inputs.begin(), f.inputs.end());
  o.artificial_dominant = !f.non_dominant;
  o.rhs = bench::parse_rhs_kind(f.rhs);
  o.field = f.field == "complex" ? bench::FieldFilter::complex
            : f.field == "real" ? bench::FieldFilter::real
                                : bench::FieldFilter::all;
  SolverFlags one_order = f.solver;  // the list of orders is the bench's, not the solver's
  one_order.ordering = "auto";
  o.solver = resolve_solver_options(one_order);
  o.methods = parse_methods(f.solver.method);
  o.automatic.choose_format = automatic_format(f.solver);
  o.orderings = parse_list(f.solver.ordering, parse_sweep_order);
  o.backend = f.solver.backend;
  o.precisions = parse_list(f.solver.precision, parse_precision);
  o.refinement = f.solver.refinement;
  const auto rows = bench::run_bench(o, [](const bench::BenchRow& r) {
    PMOM_LOG(info) << r.matrix << " " << to_string(r.method)
                   << (r.ordering.empty() ? "" : " (" + r.ordering + " order)") << ": "
                   << to_string(r.outcome)
                   << " after " << r.iterations << " iterations, true residual "
                   << r.true_residual << ", " << r.time.median * 1e3 << " ms";
  });
  bench::print_table(std::cout, rows);
  if (!f.json.empty()) {
    bench::write_json(f.json, o, rows);
    PMOM_LOG(info) << "results written to " << f.json;
  }
  return 0;
}

}  // namespace

Command add_bench_command(CLI::App& parent) {
  auto flags = std::make_shared<BenchFlags>();
  flags->solver.method = "bicg,cocg,bicgstab,cg";
  CLI::App* app = parent.add_subcommand(
      "bench", "Run the solvers on Matrix Market files and report iterations, residuals, "
               "time and GFLOP/s");
  app->add_option("inputs", flags->inputs, "Matrix Market files or folders of them");
  app->add_option("--synthetic", flags->options.synthetic_sizes,
                  "Also run MoM-like complex symmetric matrices of these sizes")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  app->add_option("--density", flags->options.synthetic_density,
                  "Density of the synthetic matrices")
      ->capture_default_str()
      ->check(CLI::Range(1e-6, 1.0));
  app->add_option("--artificial", flags->options.artificial_sizes,
                  "Also run artificial few-diagonal matrices of these sizes, real and complex "
                  "(see --field)")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  app->add_option("--diagonals", flags->options.artificial_diagonals,
                  "Diagonals of the artificial matrices (odd, 1 to 15)")
      ->capture_default_str();
  app->add_flag("--non-dominant", flags->non_dominant,
                "Artificial matrices with diagonals half their rows' off-diagonal sums "
                "(Jacobi and Gauss-Seidel need not converge)");
  app->add_option("--rhs", flags->rhs, "Right-hand side: A1 (b = A*1), ones, or random")
      ->capture_default_str()
      ->check(CLI::IsMember({"A1", "ones", "random"}));
  app->add_option("--nrhs", flags->options.nrhs,
                  "Right-hand sides solved together (the first from --rhs, the rest random)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app->add_option("--seed", flags->options.seed,
                  "Seed of the random right-hand side and of the generated matrices")
      ->capture_default_str();
  app->add_option("--field", flags->field, "Which matrices: all, complex or real")
      ->capture_default_str()
      ->check(CLI::IsMember({"all", "complex", "real"}));
  app->add_flag("--force", flags->options.force,
                "Also run COCG/CG on matrices without the symmetry they assume");
  app->add_option("--warmup", flags->options.warmup, "Untimed runs before timing")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app->add_option("--reps", flags->options.repetitions, "Timed runs (the median is reported)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app->add_option("--json", flags->json, "Write the results as JSON to this file");
  add_solver_options(*app, flags->solver, true, {"cpu", "cuda", "baseline"});
  add_auto_options(*app, flags->options.automatic);
  return {app, [flags] { return run(*flags); }};
}

}  // namespace pmom::app
