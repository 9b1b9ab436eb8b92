// Time stepping of the heat equation with the solver library, measured the CG paper's way:
// iterations and solve time per step, and the time per solver iteration over the run.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "planarmom/bench/heat_equation.hpp"
#include "planarmom/gpusolver/solver.hpp"

namespace pmom::bench {

struct HeatStepStats {
  Outcome outcome = Outcome::max_iterations;
  int iterations = 0;
  double seconds = 0;        // the solve's iterations only (SolveResult::seconds)
  double true_residual = 0;  // ‖b − Au‖/‖b‖ of the new field
};

struct HeatRunStats {
  Method method = Method::cg;  // the method that ran (automatic resolved)
  std::string backend;
  index_t unknowns = 0;
  std::size_t nnz = 0;
  double setup_seconds = 0;  // building the matrix and handing it to the solver
  std::vector<HeatStepStats> steps;

  [[nodiscard]] int iterations() const;
  [[nodiscard]] double solve_seconds() const;
  // Solve time over iterations, the paper's figure of merit; 0 when nothing iterated.
  [[nodiscard]] double seconds_per_iteration() const;
  [[nodiscard]] bool all_converged() const;
};

// Called after each step with its number (from 1) and its figures, for progress output.
using HeatStepCallback = std::function<void(int, const HeatStepStats&)>;

// Advances u (the field at the start, n² values) by `steps` backward-Euler steps on `backend`.
// Each solve starts from the field of the step before, which differs from the answer by
// O(Δt), so later steps need fewer iterations than a cold start. Throws std::invalid_argument
// on a bad problem, a field of the wrong size or steps < 1.
HeatRunStats run_heat(const HeatProblem& problem, std::vector<double>& u, int steps,
                      Backend<double>& backend, const SolverOptions& options,
                      const HeatStepCallback& on_step = {});

}  // namespace pmom::bench
