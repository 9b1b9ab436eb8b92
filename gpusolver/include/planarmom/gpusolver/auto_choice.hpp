// `--solver auto` and `--format auto`: a ranked list of methods and a format chosen from the
// matrix's cheap features (matrix_features.hpp), and a solve that falls back to the next
// method when one fails, so auto never gives up where a listed method converges.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "planarmom/gpusolver/matrix_features.hpp"
#include "planarmom/gpusolver/solver.hpp"

namespace pmom {

struct AutoChoice {
  std::vector<Method> methods;  // tried in this order until one converges
  Format format = Format::csr;
  std::string reason;           // one line for the log: which features decided what
};

// device: the backend runs on a GPU (format choice matters there; the CPU kernels walk rows,
// so the CPU gets CSR).
AutoChoice choose_automatically(const MatrixFeatures& f, bool device);

// Solves with options.method and options.format where given, or with the automatic choice
// where choose_method / choose_format say so (then those two options are ignored). The result
// is that of the attempt that converged (or of the last), with seconds summed over attempts.
template <class T>
SolveResult solve_automatically(Backend<T>& backend, const Csr<T>& a, std::span<const T> b,
                                std::vector<T>& x, index_t nrhs, SolverOptions options,
                                bool choose_method, bool choose_format);

}  // namespace pmom
