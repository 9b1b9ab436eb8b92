// dense_solution_error(): the dense and the sparsified system, each solved by Eigen's
// partial-pivot LU, one n x n work matrix alive at a time.
#include "planarmom/sparsify/dense_check.hpp"

#include <Eigen/Dense>
#include <stdexcept>
#include <string>

#include "dense_pairs.hpp"

namespace pmom::sparsify {

namespace {

using detail::cplx;
using Matrix = Eigen::MatrixXcd;
using RowMajorMatrix = Eigen::Matrix<cplx, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Factors `a` in place. A singular matrix shows as a non-finite solution: partial pivoting
// divides by a zero pivot rather than reporting it.
Matrix lu_solve(Matrix& a, const Eigen::Map<const Matrix>& b, const std::string& if_singular) {
  const Eigen::PartialPivLU<Eigen::Ref<Matrix>> lu(a);
  Matrix x = lu.solve(b);
  if (!x.allFinite()) throw std::runtime_error("dense_solution_error: " + if_singular);
  return x;
}

Matrix densify(const Csr<cplx>& s) {
  Matrix d = Matrix::Zero(s.rows, s.cols);
  for (index_t i = 0; i < s.rows; ++i)
    for (index_t k = s.row_ptr[i]; k < s.row_ptr[i + 1]; ++k) d(i, s.col_idx[k]) = s.values[k];
  return d;
}

}  // namespace

std::vector<double> dense_solution_error(std::span<const cplx> z, index_t n, const Csr<cplx>& s,
                                         std::span<const cplx> b) {
  detail::check_dense_input(z, n, "dense_solution_error");
  if (s.rows != n || s.cols != n)
    throw std::invalid_argument("dense_solution_error: the sparse matrix is " +
                                std::to_string(s.rows) + " x " + std::to_string(s.cols) +
                                ", the dense one " + std::to_string(n) + " x " +
                                std::to_string(n));
  s.validate();
  const auto rows = static_cast<std::size_t>(n);
  if (b.empty() || b.size() % rows != 0)
    throw std::invalid_argument("dense_solution_error: the right-hand sides must be n x k "
                                "column-major with n = " + std::to_string(n) +
                                " and k >= 1, got " + std::to_string(b.size()) + " values");
  const Eigen::Map<const Matrix> rhs(b.data(), n, static_cast<Eigen::Index>(b.size() / rows));
  Matrix x_dense, x_sparse;
  {
    Matrix a = Eigen::Map<const RowMajorMatrix>(z.data(), n, n);
    x_dense = lu_solve(a, rhs, "the dense matrix is singular to working precision or not finite");
  }
  {
    Matrix a = densify(s);
    x_sparse = lu_solve(a, rhs,
                        "the sparsified matrix is singular to working precision; keep more "
                        "entries (a higher density or a lower threshold)");
  }
  std::vector<double> errors;
  for (Eigen::Index c = 0; c < rhs.cols(); ++c) {
    const double reference = x_dense.col(c).norm();
    const double difference = (x_sparse.col(c) - x_dense.col(c)).norm();
    errors.push_back(reference > 0 ? difference / reference : difference);
  }
  return errors;
}

}  // namespace pmom::sparsify
