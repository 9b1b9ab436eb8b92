// Well-conditioned random test systems of the three kinds the solvers must handle:
// complex non-Hermitian, complex symmetric (Aᵀ = A) and Hermitian positive definite; and a
// symmetric indefinite one on which CG breaks down.
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

// Blocks s [[2, 0, 1], [0, 1, 1], [1, 1, t]] down the diagonal, t = 3/4 and 5/4 in turn, with
// b = s (2, 1, -t) per block. Symmetric with a positive diagonal, so the feature rule picks CG;
// each block's determinant (2t - 3) is negative, so A is indefinite. Jacobi-preconditioned CG
// starts with z = D⁻¹b = (1, 1, -1) per block, and z^T A z = s (t - 1) sums to exactly zero
// over each pair of blocks (every value is dyadic): CG breaks down at its first step. BiCGSTAB
// starts with r^T A D⁻¹ r = s² (2 - 2t + t²) > 0 and goes on.
struct IndefiniteSystem {
  Csr<double> a;
  std::vector<double> b;
};

inline IndefiniteSystem indefinite_system(index_t pairs) {
  Coo<double> coo;
  coo.rows = coo.cols = 6 * pairs;
  IndefiniteSystem sys;
  const double scales[] = {0.5, 1.0, 2.0, 4.0};
  for (index_t blk = 0; blk < 2 * pairs; ++blk) {
    const double s = scales[(blk / 2) % 4];
    const double t = blk % 2 == 0 ? 0.75 : 1.25;
    const index_t o = 3 * blk;
    const double block[3][3] = {{2, 0, 1}, {0, 1, 1}, {1, 1, t}};
    for (index_t i = 0; i < 3; ++i)
      for (index_t j = 0; j < 3; ++j)
        if (block[i][j] != 0) coo.push_back(o + i, o + j, s * block[i][j]);
    for (const double v : {2.0, 1.0, -t}) sys.b.push_back(s * v);
  }
  sys.a = to_csr(coo);
  return sys;
}

}  // namespace pmom::test
