// Solving a double-precision system in single or mixed precision: the same solvers run on
// float / complex<float> copies, and mixed-precision iterative refinement wraps a single-
// precision inner solve in a double-precision residual loop, so that the answer has double
// precision's accuracy while the iterations move single precision's bytes.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "planarmom/gpusolver/backend.hpp"
#include "planarmom/gpusolver/csr.hpp"
#include "planarmom/gpusolver/solver.hpp"

namespace pmom {

// double: the solver as it is. single: the solver in T's single-precision twin, solution and
// residuals handed back in T (the residuals recomputed in T against the given A). mixed:
// iterative refinement, below.
enum class Precision { double_precision, single_precision, mixed };
std::string to_string(Precision p);      // "double", "single", "mixed"
Precision parse_precision(const std::string& name);  // throws std::invalid_argument
std::string to_string(Summation s);      // "plain", "compensated"
Summation parse_summation(const std::string& name);

template <class T> struct single_of { using type = float; };
template <class R> struct single_of<std::complex<R>> { using type = std::complex<float>; };
template <class T> using single_t = typename single_of<T>::type;

// Mixed-precision refinement: x ← x + ‖r‖ d with A d = r/‖r‖ solved in single precision to
// inner_tolerance, r = b − Ax recomputed in double, until ‖r‖/‖b‖ meets the outer
// tolerance (SolverOptions::tolerance). A column stagnates when a refinement step leaves its
// residual above min_reduction times the previous one (the single-precision solve can no
// longer resolve the correction; the step is undone if it made things worse). With
// finish_in_double, columns that end unconverged (stagnated, not finite, out of steps) are
// then solved in double from the refined iterate, and where that fails, from the initial
// guess.
struct RefinementOptions {
  // 1e-4: float carries about 7 digits; asking for 4 leaves the matrix's conditioning room to
  // cost the other 3 before the inner solve stagnates, and 2 steps take 1e-8 of the residual.
  double inner_tolerance = 1e-4;
  int max_refinements = 30;
  double min_reduction = 0.5;
  bool finish_in_double = true;
};

template <class T> class PrecisionSolver {
 public:
  using Single = single_t<T>;
  // `backend` is the name make_backend takes ("cpu", "cuda"); single and mixed make the
  // single-precision backend beside it. Setup (conversion, uploads) happens here.
  PrecisionSolver(const std::string& backend, const Csr<T>& a, SolverOptions options,
                  Precision precision, RefinementOptions refinement = {});
  ~PrecisionSolver();
  PrecisionSolver(const PrecisionSolver&) = delete;
  PrecisionSolver& operator=(const PrecisionSolver&) = delete;

  // As Solver::solve. For mixed, RhsResult::iterations sums the inner iterations (and the
  // double finish's), refinements counts the outer steps, finished_in_double is set where
  // the double solver had to finish, and history holds the outer relative residuals;
  // seconds covers it all (inner solves, residuals, transfers, conversions, the finish and
  // its setup).
  SolveResult solve(std::span<const T> b, std::vector<T>& x, index_t nrhs = 1);

  [[nodiscard]] std::string backend_name() const;
  [[nodiscard]] Method method() const;

 private:
  SolveResult solve_single(std::span<const T> b, std::vector<T>& x, index_t nrhs);
  SolveResult refine(std::span<const T> b, std::vector<T>& x, index_t nrhs);
  // Solves the listed columns in double from their current x (else from x0), into result.
  void finish_in_double(std::span<const T> b, std::vector<T>& x, const std::vector<T>& x0,
                        const std::vector<index_t>& columns, SolveResult& result);
  // Per column: ‖b − Ax‖₂ and ‖b − Ax‖∞, with r = b − Ax computed on the double backend.
  void residuals(std::span<const T> b, std::span<const T> x, index_t nrhs, std::vector<T>& r,
                 std::vector<double>& norm2, std::vector<double>& norm_inf);

  Precision precision_;
  SolverOptions options_;
  RefinementOptions refinement_;
  Csr<T> a_;
  std::unique_ptr<Backend<T>> backend_;
  std::unique_ptr<Backend<Single>> single_backend_;
  std::unique_ptr<Solver<T>> solver_;               // double, and mixed's finish
  std::unique_ptr<Solver<Single>> single_solver_;   // single, and mixed's inner solve
  std::unique_ptr<Operator<T>> op_;                 // single, mixed: A for the double residuals
  Block<T> x_block_, r_block_;                      // residuals()' x and b − Ax, n x nrhs
};

extern template class PrecisionSolver<double>;
extern template class PrecisionSolver<std::complex<double>>;

}  // namespace pmom
