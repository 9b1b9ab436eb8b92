// ‖b − Ax‖₂/‖b‖₂ and A·1 from a Matrix Market matrix's own entries by Eigen's sparse product:
// independent of the project's CSR conversion, its SpMV kernels and the solvers' residual
// bookkeeping, so that a test of a solver does not take the solver's word for its answer.
#pragma once

#include <Eigen/SparseCore>
#include <cmath>
#include <complex>
#include <span>
#include <type_traits>
#include <vector>

#include "planarmom/io/matrix_market.hpp"

namespace pmom::test {

using SparseC = Eigen::SparseMatrix<std::complex<double>>;
using VectorC = Eigen::VectorXcd;

inline SparseC eigen_matrix(const io::MatrixMarketMatrix& m) {
  std::vector<Eigen::Triplet<std::complex<double>>> t;
  const Coo<std::complex<double>>& e = m.entries;
  t.reserve(e.values.size());
  for (std::size_t k = 0; k < e.values.size(); ++k)
    t.emplace_back(e.row_idx[k], e.col_idx[k], e.values[k]);
  SparseC a(e.rows, e.cols);
  a.setFromTriplets(t.begin(), t.end());
  return a;
}

template <class T> VectorC to_complex(std::span<const T> v) {
  VectorC c(static_cast<Eigen::Index>(v.size()));
  for (std::size_t i = 0; i < v.size(); ++i) c(static_cast<Eigen::Index>(i)) = v[i];
  return c;
}

// A·1 in the solver's value type (real matrices have zero imaginary parts).
template <class T> std::vector<T> times_ones(const SparseC& a) {
  const VectorC b = a * VectorC::Ones(a.cols());
  std::vector<T> out(static_cast<std::size_t>(b.size()));
  for (Eigen::Index i = 0; i < b.size(); ++i) {
    if constexpr (std::is_same_v<T, double>) out[static_cast<std::size_t>(i)] = b(i).real();
    else out[static_cast<std::size_t>(i)] = b(i);
  }
  return out;
}

// x of the wrong length (a solver that returned nothing) gives +inf, a failure, not a crash.
template <class T>
double relative_residual(const SparseC& a, std::span<const T> b, std::span<const T> x) {
  if (x.size() != static_cast<std::size_t>(a.cols()) ||
      b.size() != static_cast<std::size_t>(a.rows()))
    return HUGE_VAL;
  const VectorC bc = to_complex(b);
  return (bc - a * to_complex(x)).norm() / bc.norm();
}

}  // namespace pmom::test
