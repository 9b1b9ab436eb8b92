// The sweep's solver settings as the gpusolver library takes them: one place that turns the
// typed config (config.hpp) into SolverOptions and says which preconditioner applies.
#pragma once

#include <complex>

#include "planarmom/gpusolver/solver.hpp"
#include "planarmom/sweep/config.hpp"

namespace pmom::sweep {

// Z is complex symmetric by construction: the pattern and the loads are, and the lower
// triangle's entries are the upper triangle's evaluations (the thresholding keeps pairs).
inline const MatrixTraits kSymmetric{true, false, false};

// The block and LU preconditioners serve COCG (method auto resolves to it on Z, complex
// symmetric).
[[nodiscard]] bool uses_blocks(const SweepSettings& s);
[[nodiscard]] bool uses_lu(const SweepSettings& s);

// The solver's options for an operator of this format (Jacobi unless a block or LU
// preconditioner is set on the solver instead).
[[nodiscard]] SolverOptions solver_options(const SweepSettings& s, Format format);

// A thresholded Z's format: given, or chosen from its rows.
[[nodiscard]] Format format_for(const SweepSettings& s, const Csr<std::complex<double>>& a);

}  // namespace pmom::sweep
