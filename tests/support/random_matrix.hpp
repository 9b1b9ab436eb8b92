// Random sparse matrices for tests: genuinely complex values, awkward shapes (empty rows,
// one dense row), and conversion to and from Eigen dense matrices for reference products.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "planarmom/gpusolver/convert.hpp"

namespace pmom::test {

template <class T> using Dense = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
template <class T> using DenseVector = Eigen::Matrix<T, Eigen::Dynamic, 1>;

// Drawn in double and rounded to T's precision.
template <class T> T random_value(std::mt19937_64& rng) {
  using R = real_t<T>;
  std::normal_distribution<double> normal(0.0, 1.0);
  if constexpr (is_complex_v<T>) return T(static_cast<R>(normal(rng)), static_cast<R>(normal(rng)));
  else return static_cast<R>(normal(rng));
}

template <class T> Dense<T> random_dense(index_t rows, index_t cols, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Dense<T> d(rows, cols);
  for (index_t j = 0; j < cols; ++j)
    for (index_t i = 0; i < rows; ++i) d(i, j) = random_value<T>(rng);
  return d;
}

// Random entries and a diagonal of n: well conditioned in any precision.
template <class T> Dense<T> well_conditioned_dense(index_t n, std::uint64_t seed) {
  return random_dense<T>(n, n, seed) + Dense<T>::Identity(n, n) * T(static_cast<real_t<T>>(n));
}

template <class T> DenseVector<T> random_vector(index_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  DenseVector<T> v(n);
  for (index_t i = 0; i < n; ++i) v(i) = random_value<T>(rng);
  return v;
}

struct Shape {
  double density = 0.1;
  bool empty_rows = false;  // every third row left empty
  bool dense_row = false;   // row 0 filled completely
};

template <class T>
Coo<T> random_coo(index_t rows, index_t cols, std::uint64_t seed, const Shape& shape = {}) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Coo<T> coo;
  coo.rows = rows;
  coo.cols = cols;
  for (index_t i = 0; i < rows; ++i) {
    if (shape.empty_rows && i % 3 == 1) continue;
    for (index_t j = 0; j < cols; ++j) {
      if ((shape.dense_row && i == 0) || u(rng) < shape.density)
        coo.push_back(i, j, random_value<T>(rng));
    }
  }
  return coo;
}

template <class T> Dense<T> to_dense(const Csr<T>& a) {
  Dense<T> d = Dense<T>::Zero(a.rows, a.cols);
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) d(i, a.col_idx[k]) += a.values[k];
  return d;
}

template <class T> Csr<T> from_dense(const Dense<T>& d) {
  Coo<T> coo;
  coo.rows = static_cast<index_t>(d.rows());
  coo.cols = static_cast<index_t>(d.cols());
  for (index_t i = 0; i < coo.rows; ++i)
    for (index_t j = 0; j < coo.cols; ++j)
      if (d(i, j) != T(0)) coo.push_back(i, j, d(i, j));
  return to_csr(coo);
}

// Vectors between Eigen and the solvers' std::vector.
template <class T> std::vector<T> to_std(const DenseVector<T>& v) {
  return std::vector<T>(v.data(), v.data() + v.size());
}
template <class T> DenseVector<T> to_eigen(const std::vector<T>& v) {
  return Eigen::Map<const DenseVector<T>>(v.data(), static_cast<Eigen::Index>(v.size()));
}

template <class T> double relative_error(const DenseVector<T>& x, const DenseVector<T>& ref) {
  const double den = ref.norm();
  return den == 0 ? (x - ref).norm() : (x - ref).norm() / den;
}

// Square blocks one after another, each row-major (Backend::invert_blocks's layout): random
// entries plus 2k on the diagonal of a block of size k, which keeps each block's condition
// number small (a few), so that inverses computed in any order agree to a few ulps times k.
template <class T> std::vector<T> random_blocks(const std::vector<index_t>& sizes, std::uint64_t seed) {
  std::vector<T> packed;
  for (const index_t k : sizes) {
    Dense<T> b = random_dense<T>(k, k, seed++);
    b.diagonal().array() += T(real_t<T>(2 * k));
    for (index_t i = 0; i < k; ++i)
      for (index_t j = 0; j < k; ++j) packed.push_back(b(i, j));
  }
  return packed;
}

}  // namespace pmom::test
