// The heat equation's time loop: one matrix upload, then one warm-started solve per step.
#include "planarmom/bench/heat_run.hpp"

#include <chrono>
#include <memory>
#include <stdexcept>

namespace pmom::bench {

int HeatRunStats::iterations() const {
  int total = 0;
  for (const HeatStepStats& s : steps) total += s.iterations;
  return total;
}

double HeatRunStats::solve_seconds() const {
  double total = 0;
  for (const HeatStepStats& s : steps) total += s.seconds;
  return total;
}

double HeatRunStats::seconds_per_iteration() const {
  const int total = iterations();
  return total > 0 ? solve_seconds() / total : 0.0;
}

bool HeatRunStats::all_converged() const {
  for (const HeatStepStats& s : steps)
    if (s.outcome != Outcome::converged) return false;
  return true;
}

HeatRunStats run_heat(const HeatProblem& problem, std::vector<double>& u, int steps,
                      Backend<double>& backend, const SolverOptions& options,
                      const HeatStepCallback& on_step) {
  validate(problem);
  if (steps < 1) throw std::invalid_argument("heat equation: steps must be >= 1");
  const auto unknowns = static_cast<std::size_t>(problem.n) * static_cast<std::size_t>(problem.n);
  if (u.size() != unknowns)
    throw std::invalid_argument("heat equation: the initial field has " +
                                std::to_string(u.size()) + " values, the grid " +
                                std::to_string(unknowns));
  HeatRunStats stats;
  stats.backend = backend.name();
  SolverOptions o = options;
  o.record_history = false;
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<Solver<double>> solver;
  {
    // The host copy goes once the solver holds its own (on the device, or the CPU backend's).
    const Csr<double> a = heat_matrix(problem);
    stats.unknowns = a.rows;
    stats.nnz = static_cast<std::size_t>(a.nnz());
    solver = std::make_unique<Solver<double>>(backend, a, o);
  }
  stats.setup_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  stats.method = solver->method();
  std::vector<double> b;
  for (int step = 1; step <= steps; ++step) {
    heat_rhs(problem, u, b);
    const SolveResult r = solver->solve(b, u);  // u: the warm start in, the new field out
    const RhsResult& column = r.rhs.front();
    HeatStepStats s;
    s.outcome = column.outcome;
    s.iterations = column.iterations;
    s.seconds = r.seconds;
    s.true_residual = column.true_residual;
    stats.steps.push_back(s);
    if (on_step) on_step(step, s);
  }
  return stats;
}

}  // namespace pmom::bench
