// The GPU baselines the project's own solvers must beat: Jacobi-preconditioned BiCG and
// BiCGSTAB through cuSPARSE and cuBLAS only, every scalar going through the host each
// iteration (the library route of the BiCGSTAB paper, DESIGN §8).
#pragma once

#include <span>
#include <vector>

#include "planarmom/gpusolver/csr.hpp"
#include "planarmom/gpusolver/solver.hpp"

namespace pmom::bench {

struct BaselineResult {
  Outcome outcome = Outcome::max_iterations;
  int iterations = 0;
  double recurrence_residual = 0;  // ‖r‖/‖b‖ of the recurrence when it stopped
  double true_residual = 0;        // ‖b − Ax‖/‖b‖ recomputed at the end
  double seconds = 0;              // r₀ and the iterations: no uploads, no final residual
};

// Solves A x = b for one right-hand side with BiCG in Jacobs' form (DESIGN §4). x holds the
// initial guess on entry (zeros if empty) and the solution on return.
//
// Of `options` it follows tolerance, max_iterations, stagnation_window, jacobi, shadow_start
// and adjoint (stored: a second CSR holding Aᴴ; transposed_kernel: cuSPARSE's conjugate-
// transpose SpMV on A). It always runs BiCG on CSR, reads ‖r‖ every iteration whatever
// check_every says, keeps no history and never replaces the residual: a converged outcome
// means the recurrence reached the tolerance, true_residual says whether b − Ax agrees.
//
// Throws std::invalid_argument on mismatched sizes, and std::runtime_error naming the failing
// call (e.g. "cusparseSpMV: CUSPARSE_STATUS_...") on any CUDA, cuSPARSE or cuBLAS error.
template <class T>
BaselineResult baseline_bicg(const Csr<T>& a, std::span<const T> b, std::vector<T>& x,
                             const SolverOptions& options);

// Solves A x = b for one right-hand side with Jacobi right-preconditioned BiCGSTAB as
// Solver<T> runs it (gpusolver/core/solver.cpp), one library call per vector operation: per
// iteration 2 cuSPARSE SpMVs, 16 cuBLAS calls and 5 host round trips (ρ, r̂ᴴv, tᴴs, ‖t‖, ‖r‖;
// docs/PERFORMANCE.md lists them with their bytes).
//
// It stops as the solver does with check_every = 1, so that iteration counts compare one to
// one: the same outcome order and breakdowns (ρ = 0, r̂ᴴv = 0, ω = 0 from tᴴt ≠ 0), and a
// recurrence residual at the tolerance is confirmed with b − Ax and, where that is above it,
// replaced by it with the recurrences restarted (at most max_residual_replacements times, then
// residual_gap). Of `options` it follows tolerance, max_iterations, stagnation_window, jacobi
// and max_residual_replacements; it always uses CSR. Throws as baseline_bicg does.
template <class T>
BaselineResult baseline_bicgstab(const Csr<T>& a, std::span<const T> b, std::vector<T>& x,
                                 const SolverOptions& options);

// False when the project is built without CUDA; the baselines then always throw.
bool baseline_available();

// The baselines' instantiations, for value type T: declared here (KEYWORDS `extern template`),
// defined (KEYWORDS `template`) by baseline.cu or, without CUDA, baseline_unavailable.cpp.
#define PMOM_BASELINE_INSTANCES(KEYWORDS, T)                                                   \
  KEYWORDS BaselineResult baseline_bicg<T>(const Csr<T>&, std::span<const T>, std::vector<T>&, \
                                           const SolverOptions&);                              \
  KEYWORDS BaselineResult baseline_bicgstab<T>(const Csr<T>&, std::span<const T>,             \
                                               std::vector<T>&, const SolverOptions&);
PMOM_BASELINE_INSTANCES(extern template, double)
PMOM_BASELINE_INSTANCES(extern template, std::complex<double>)

}  // namespace pmom::bench
