// `planarmom bench`: runs the solvers over Matrix Market files and measures them.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "planarmom/bench/timing.hpp"
#include "planarmom/gpusolver/precision.hpp"
#include "planarmom/gpusolver/auto_choice.hpp"
#include "planarmom/gpusolver/solver.hpp"

namespace pmom::bench {

enum class RhsKind { a_times_ones, ones, random };
enum class FieldFilter { all, complex, real };

struct BenchOptions {
  // Method::automatic in `methods` and automatic.choose_format: the choice of
  // auto_choice.hpp, with its fallbacks (and its trial where automatic.trial), timed as one
  // run: the attempts' solve times summed, plus the trial's whole wall time. choose_method is
  // set per run.
  AutoOptions automatic;
  std::vector<std::filesystem::path> inputs;  // files, or folders searched for *.mtx[.gz]
  std::vector<index_t> synthetic_sizes;       // MoM-like matrices generated at these sizes
  double synthetic_density = 0.05;
  // Few-diagonal matrices (bench/artificial.hpp) at these sizes, real and complex as `field`
  // allows, generated from `seed`.
  std::vector<index_t> artificial_sizes;
  int artificial_diagonals = 5;
  bool artificial_dominant = true;
  // Methods to try on each matrix; a method that does not apply (COCG on a non-symmetric,
  // CG on a non-Hermitian matrix) is skipped unless `force` is set.
  std::vector<Method> methods{Method::bicg, Method::cocg, Method::bicgstab, Method::cg};
  // Sweep orders each sweeping run (gauss-seidel, ssor) is repeated with; other runs go once.
  // Natural order is skipped on a backend that sweeps colours only.
  std::vector<SweepOrder> orderings{SweepOrder::automatic};
  bool force = false;
  FieldFilter field = FieldFilter::all;
  RhsKind rhs = RhsKind::a_times_ones;
  // Right-hand sides solved together (one matrix read per iteration serves all). With more
  // than one, column 0 is `rhs` and the others are seeded random; the baseline solves them
  // one after the other.
  index_t nrhs = 1;
  std::uint64_t seed = 1;
  std::string backend = "cpu";
  SolverOptions solver;  // method is overwritten per run
  // Each named-method run is repeated in these precisions (auto and the baseline: double).
  std::vector<Precision> precisions{Precision::double_precision};
  RefinementOptions refinement;  // Precision::mixed
  int warmup = 1;
  int repetitions = 3;
};

struct BenchRow {
  std::string matrix;
  std::string field;  // "real" or "complex"
  index_t n = 0;
  std::size_t nnz = 0;
  std::string backend;
  std::string format;
  Method method = Method::bicg;  // the method that converged (or ran last) for an automatic row
  bool automatic = false;        // method and/or format chosen by auto
  std::string precision = "double";
  int refinements = 0;         // mixed: the most outer steps over the right-hand sides
  bool finished_in_double = false;  // mixed: some column stagnated and double finished it
  bool trial = false;            // ... by auto's timed trial
  std::string preconditioner;  // of a Krylov method; empty for jacobi and gauss-seidel
  std::string ordering;        // of the sweeps, natural or multicolour; empty without sweeps
  index_t colours = 0;         // multicolour only
  index_t nrhs = 1;
  // Over the right-hand sides: the first outcome that is not convergence (else converged),
  // the most iterations, the largest residuals.
  Outcome outcome = Outcome::max_iterations;
  int iterations = 0;
  double true_residual = 0;
  double true_residual_inf = 0;  // ‖b − Ax‖∞ (absolute); NaN for the baseline
  double recurrence_residual = 0;
  TimingStats time;
  double seconds_per_iteration = 0;
  double gflops = 0;
};

// Expands folders to the sorted list of matrix files in them; throws if none is found.
std::vector<std::filesystem::path> collect_matrix_files(
    const std::vector<std::filesystem::path>& inputs);

// Called once per finished run, for progress output.
using RowCallback = std::function<void(const BenchRow&)>;

std::vector<BenchRow> run_bench(const BenchOptions& options, const RowCallback& on_row = {});

std::string to_string(RhsKind kind);
RhsKind parse_rhs_kind(const std::string& name);

}  // namespace pmom::bench
