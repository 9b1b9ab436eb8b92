// Cheap structural and numerical features of a matrix, found in one or two passes over its
// CSR arrays: what the automatic solver and format choice decide from (and log as the reason).
#pragma once

#include <string>

#include "planarmom/gpusolver/csr.hpp"
#include "planarmom/gpusolver/solver.hpp"

namespace pmom {

struct MatrixFeatures {
  index_t rows = 0;
  std::size_t nnz = 0;
  MatrixTraits traits;          // symmetric / Hermitian / positive real diagonal
  index_t zero_diagonal_rows = 0;
  // Rows with |a_ii| >= Σ_{j≠i} |a_ij| (weak) and with > (strict), as fractions of all rows.
  double weakly_dominant_rows = 0;
  double strictly_dominant_rows = 0;
  // min_i |a_ii| / Σ_{j≠i} |a_ij| (infinite for a diagonal matrix, 0 with a zero diagonal):
  // the Jacobi iteration contracts at least by its inverse per step.
  double min_dominance = 0;
  // Row lengths: mean, largest, and coefficient of variation (standard deviation / mean).
  double mean_row_length = 0;
  index_t max_row_length = 0;
  double row_length_cv = 0;
  // Distinct offsets j - i holding entries, counted up to max_counted_diagonals (then
  // diagonals = max_counted_diagonals + 1, "too many"); DIA's stored values over nnz.
  index_t diagonals = 0;
  double dia_fill = 0;
  static constexpr index_t max_counted_diagonals = 64;
};

template <class T> MatrixFeatures matrix_features(const Csr<T>& a);

// One line for the log: "n 1280, nnz 47906 (37.4/row, max 80, cv 0.31), 24 diagonals ...".
std::string describe(const MatrixFeatures& f);

}  // namespace pmom
