// Well-conditioned random test systems of the three kinds the solvers must handle:
// complex non-Hermitian, complex symmetric (Aᵀ = A) and Hermitian positive definite.
#pragma once

#include "support/random_matrix.hpp"

namespace pmom::test {

enum class SystemKind { general, complex_symmetric, hermitian_positive_definite };

// Sparse S (5% dense, values N(0,1) in both parts) made into the requested kind, plus a
// diagonal of modulus `dominance` times the largest off-diagonal row sum, so that the
// condition number stays near (dominance + 1)/(dominance - 1) and a solution to 1e-10
// relative residual is accurate to about 1e-9.
template <class T>
Csr<T> make_system(SystemKind kind, index_t n, std::uint64_t seed, double dominance = 1.5) {
  Dense<T> s = to_dense(to_csr(random_coo<T>(n, n, seed, Shape{0.05})));
  s.diagonal().setZero();
  Dense<T> a;
  switch (kind) {
    case SystemKind::general: a = s; break;
    case SystemKind::complex_symmetric: a = s + s.transpose(); break;
    case SystemKind::hermitian_positive_definite: a = s + s.adjoint(); break;
  }
  double max_row = 0;
  for (index_t i = 0; i < n; ++i) max_row = std::max(max_row, a.row(i).cwiseAbs().sum());
  const double d = dominance * std::max(max_row, 1.0);
  std::mt19937_64 rng(seed + 1);
  std::uniform_real_distribution<double> phase(0.0, 6.283185307179586);
  for (index_t i = 0; i < n; ++i) {
    if constexpr (is_complex_v<T>) {
      a(i, i) = kind == SystemKind::hermitian_positive_definite ? T(d) : std::polar(d, phase(rng));
    } else {
      a(i, i) = (kind == SystemKind::hermitian_positive_definite || i % 2 == 0) ? d : -d;
    }
  }
  return from_dense(a);
}

}  // namespace pmom::test
