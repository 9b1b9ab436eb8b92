// Feature extraction for the automatic choice: dominance, row-length statistics and the
// diagonal count, all from the CSR arrays in O(nnz).
#include "planarmom/gpusolver/matrix_features.hpp"

#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>
#include <unordered_set>

namespace pmom {

template <class T> MatrixFeatures matrix_features(const Csr<T>& a) {
  MatrixFeatures f;
  f.rows = a.rows;
  f.nnz = static_cast<std::size_t>(a.nnz());
  f.traits = analyse(a);
  if (a.rows == 0) return f;

  index_t weak = 0, strict = 0;
  f.min_dominance = std::numeric_limits<double>::infinity();
  double sum_len2 = 0;
  std::unordered_set<index_t> offsets;
  bool too_many = false;
  for (index_t i = 0; i < a.rows; ++i) {
    double diag = 0, off = 0;
    bool has_diag = false;
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const index_t j = a.col_idx[k];
      const double mag = std::abs(a.values[k]);
      if (j == i) {
        diag = mag;
        has_diag = a.values[k] != T(0);
      } else {
        off += mag;
      }
      if (!too_many) {
        offsets.insert(j - i);
        too_many = offsets.size() > static_cast<std::size_t>(MatrixFeatures::max_counted_diagonals);
      }
    }
    if (!has_diag) ++f.zero_diagonal_rows;
    f.min_dominance = std::min(f.min_dominance, has_diag ? diag / off : 0.0);
    weak += has_diag && diag >= off ? 1 : 0;
    strict += has_diag && diag > off ? 1 : 0;
    const index_t len = a.row_length(i);
    f.max_row_length = std::max(f.max_row_length, len);
    sum_len2 += static_cast<double>(len) * len;
  }
  const double n = a.rows;
  f.weakly_dominant_rows = weak / n;
  f.strictly_dominant_rows = strict / n;
  f.mean_row_length = static_cast<double>(f.nnz) / n;
  const double var = sum_len2 / n - f.mean_row_length * f.mean_row_length;
  f.row_length_cv = f.mean_row_length > 0 ? std::sqrt(std::max(var, 0.0)) / f.mean_row_length : 0;
  f.diagonals = static_cast<index_t>(offsets.size());
  f.dia_fill = f.nnz > 0 ? static_cast<double>(f.diagonals) * n / static_cast<double>(f.nnz) : 0;
  return f;
}

std::string describe(const MatrixFeatures& f) {
  std::ostringstream s;
  s << std::setprecision(3) << "n " << f.rows << ", nnz " << f.nnz << " (" << f.mean_row_length
    << "/row, max " << f.max_row_length << ", cv " << f.row_length_cv << "), ";
  if (f.diagonals > MatrixFeatures::max_counted_diagonals)
    s << "more than " << MatrixFeatures::max_counted_diagonals << " diagonals";
  else
    s << f.diagonals << " diagonals (DIA fill " << f.dia_fill << ")";
  s << ", " << (f.traits.hermitian ? "Hermitian" : f.traits.complex_symmetric ? "symmetric"
                                                                              : "unsymmetric")
    << (f.traits.positive_real_diagonal ? " with a positive real diagonal" : "")
    << ", diagonally dominant rows " << 100 * f.weakly_dominant_rows << "% (strict "
    << 100 * f.strictly_dominant_rows << "%)";
  if (f.zero_diagonal_rows > 0) s << ", " << f.zero_diagonal_rows << " zero diagonal entries";
  return s.str();
}

template MatrixFeatures matrix_features(const Csr<double>&);
template MatrixFeatures matrix_features(const Csr<std::complex<double>>&);

}  // namespace pmom
