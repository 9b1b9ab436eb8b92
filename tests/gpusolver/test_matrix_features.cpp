// The features the automatic choice reads: each checked on a matrix whose value is known by
// construction (counted by hand, not taken from the code's output).
#include <gtest/gtest.h>

#include "planarmom/gpusolver/convert.hpp"
#include <cmath>
#include <filesystem>
#include <iostream>

#include "planarmom/gpusolver/auto_choice.hpp"
#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/gpusolver/matrix_features.hpp"
#include "planarmom/io/load_matrix.hpp"
#include "support/independent_residual.hpp"

namespace pmom {
namespace {

using cplx = std::complex<double>;

// Tridiagonal n x n with diagonal d and off-diagonals -1 (optionally with the periodic corners).
Csr<double> tridiagonal(index_t n, double d) {
  Coo<double> coo;
  coo.rows = coo.cols = n;
  for (index_t i = 0; i < n; ++i) {
    if (i > 0) coo.push_back(i, i - 1, -1.0);
    coo.push_back(i, i, d);
    if (i + 1 < n) coo.push_back(i, i + 1, -1.0);
  }
  return to_csr(coo);
}

TEST(MatrixFeatures, TridiagonalLaplacian) {
  const MatrixFeatures f = matrix_features(tridiagonal(10, 2.0));
  EXPECT_EQ(f.rows, 10);
  EXPECT_EQ(f.nnz, 28u);  // 10 diagonal + 2 * 9 off-diagonal
  EXPECT_EQ(f.diagonals, 3);
  EXPECT_DOUBLE_EQ(f.dia_fill, 30.0 / 28.0);
  // |2| >= 1 + 1 in every row, strictly only in the first and last (one neighbour each).
  EXPECT_DOUBLE_EQ(f.weakly_dominant_rows, 1.0);
  EXPECT_DOUBLE_EQ(f.strictly_dominant_rows, 0.2);
  EXPECT_EQ(f.max_row_length, 3);
  EXPECT_DOUBLE_EQ(f.mean_row_length, 2.8);
  // Lengths 2, 3 x 8, 2: E[len²] = (4 + 72 + 4) / 10 = 8, var = 8 − 2.8² = 0.16, cv = 0.4 / 2.8.
  EXPECT_NEAR(f.row_length_cv, 0.4 / 2.8, 1e-12);  // rounding of the two sums only
  EXPECT_TRUE(f.traits.hermitian);
  EXPECT_TRUE(f.traits.positive_real_diagonal);
  EXPECT_EQ(f.zero_diagonal_rows, 0);
  EXPECT_DOUBLE_EQ(f.min_dominance, 1.0);  // interior rows: 2 / (1 + 1)
}

TEST(MatrixFeatures, ComplexSymmetricWithAMissingDiagonal) {
  Coo<cplx> coo;
  coo.rows = coo.cols = 3;
  coo.push_back(0, 0, cplx(1, 1));
  coo.push_back(0, 2, cplx(0, 3));
  coo.push_back(2, 0, cplx(0, 3));
  coo.push_back(1, 1, cplx(4, 0));
  const MatrixFeatures f = matrix_features(to_csr(coo));
  EXPECT_TRUE(f.traits.complex_symmetric);
  EXPECT_FALSE(f.traits.hermitian);
  EXPECT_EQ(f.zero_diagonal_rows, 1);  // row 2 stores no diagonal
  // Row 0: |1+i| = 1.41 < 3; row 1: 4 > 0; row 2: no diagonal.
  EXPECT_DOUBLE_EQ(f.strictly_dominant_rows, 1.0 / 3.0);
  EXPECT_EQ(f.diagonals, 3);  // offsets 0, +2, -2
}

TEST(MatrixFeatures, CountsDiagonalsOnlyUpToTheCap) {
  // A dense 100 x 100 matrix has 199 diagonals; the count stops just past the cap.
  Coo<double> coo;
  coo.rows = coo.cols = 100;
  for (index_t i = 0; i < 100; ++i)
    for (index_t j = 0; j < 100; ++j) coo.push_back(i, j, i == j ? 200.0 : 1.0);
  const MatrixFeatures f = matrix_features(to_csr(coo));
  EXPECT_EQ(f.diagonals, MatrixFeatures::max_counted_diagonals + 1);
  EXPECT_DOUBLE_EQ(f.strictly_dominant_rows, 1.0);  // 200 > 99
  EXPECT_NE(describe(f).find("more than 64 diagonals"), std::string::npos) << describe(f);
}

TEST(MatrixFeatures, EmptyMatrix) {
  Csr<double> a;
  const MatrixFeatures f = matrix_features(a);
  EXPECT_EQ(f.rows, 0);
  EXPECT_EQ(f.nnz, 0u);
  EXPECT_EQ(f.diagonals, 0);
}

}  // namespace
}  // namespace pmom

namespace pmom {
namespace {

MatrixFeatures features_of(bool hermitian, bool symmetric, double min_dominance,
                           double strict_rows) {
  MatrixFeatures f;
  f.rows = 1000;
  f.nnz = 7000;
  f.traits.hermitian = hermitian;
  f.traits.positive_real_diagonal = hermitian;
  f.traits.complex_symmetric = symmetric;
  f.min_dominance = min_dominance;
  f.strictly_dominant_rows = strict_rows;
  f.mean_row_length = 7;
  f.max_row_length = 9;
  f.diagonals = MatrixFeatures::max_counted_diagonals + 1;
  return f;
}

TEST(AutoChoice, RanksMethodsBySymmetryAndDominance) {
  using V = std::vector<Method>;
  EXPECT_EQ(choose_automatically(features_of(true, true, 0.5, 0), true).methods,
            (V{Method::cg, Method::bicgstab}));
  EXPECT_EQ(choose_automatically(features_of(false, true, 0.5, 0), true).methods,
            (V{Method::cocg, Method::bicgstab}));
  EXPECT_EQ(choose_automatically(features_of(false, false, 0.5, 0), true).methods,
            (V{Method::bicg, Method::bicgstab}));
  EXPECT_EQ(choose_automatically(features_of(false, false, 1.2, 1.0), true).methods,
            (V{Method::bicg, Method::bicgstab, Method::gauss_seidel}));
  EXPECT_EQ(choose_automatically(features_of(false, false, 2.0, 1.0), true).methods,
            (V{Method::jacobi, Method::bicg, Method::bicgstab}));
}

TEST(AutoChoice, PicksTheFormatFromTheRowsAndDiagonals) {
  MatrixFeatures f = features_of(false, false, 0.5, 0);
  EXPECT_EQ(choose_automatically(f, true).format, Format::csr);
  EXPECT_EQ(choose_automatically(f, false).format, Format::csr);
  f.max_row_length = 71;  // more than 10 x the mean of 7
  EXPECT_EQ(choose_automatically(f, true).format, Format::hyb);
  EXPECT_NE(choose_automatically(f, true).reason.find("hyb"), std::string::npos);
  f.diagonals = 5;
  f.dia_fill = 1.01;
  EXPECT_EQ(choose_automatically(f, true).format, Format::hyb);  // 1000 rows: too few for DIA
  f.max_row_length = 9;
  f.rows = 2'000'000;
  EXPECT_EQ(choose_automatically(f, true).format, Format::dia);
  EXPECT_EQ(choose_automatically(f, false).format, Format::csr);  // cpu: rows
}

// The fallback, on olm1000 (SuiteSparse Bai/olm1000), where BiCG stagnates and BiCGSTAB
// converges (docs/BENCHMARKS.md): auto must end converged, with BiCGSTAB, at the solution.
// b = A·1 and ‖b − Ax‖ come from Eigen on the file's entries (not the solver's own sums); x is
// then 1 to κ₂(A)·‖b − Ax‖/‖b‖, κ₂ = 1.487e6 (numpy.linalg.cond of the dense matrix).
TEST(AutoChoice, FallsBackWhenTheFirstMethodFails) {
  const std::filesystem::path file =
      std::filesystem::path(PLANARMOM_SOURCE_DIR) / ".." / "shared" / "matrices" / "olm1000.mtx";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << "shared matrices not present: " << file;
  const io::MatrixMarketMatrix m = io::read_matrix_market(file);
  const Csr<double> a = io::to_csr_matrix<double>(m, file);
  const test::SparseC reference = test::eigen_matrix(m);
  const std::vector<double> b = test::times_ones<double>(reference);
  auto backend = make_cpu_backend<double>();
  std::vector<double> x;
  const AutoOptions automatic{.choose_method = true, .choose_format = true};
  const SolveResult r = solve_automatically<double>(*backend, a, b, x, 1, {}, automatic);
  EXPECT_EQ(r.format, Format::csr);
  ASSERT_EQ(r.rhs.size(), 1u);
  EXPECT_EQ(to_string(r.method), "bicgstab") << "bicg should have failed first";
  EXPECT_EQ(r.rhs[0].outcome, Outcome::converged) << to_string(r.rhs[0].outcome);
  ASSERT_EQ(x.size(), b.size());
  const double residual = test::relative_residual<double>(reference, b, x);
  EXPECT_LE(residual, 10 * SolverOptions{}.tolerance);
  double error = 0;
  for (const double xi : x) error += (xi - 1) * (xi - 1);
  error = std::sqrt(error / static_cast<double>(x.size()));
  std::cout << "olm1000: |b - Ax|/|b| " << residual << ", |x - 1|/|1| " << error << '\n';
  EXPECT_LE(error, 1.487e6 * residual);

  // The choice made once and kept: every solve falls back the same way, to the same answer
  // (the CPU backend's sums depend only on its team size, so bit for bit).
  FallbackSolver<double> kept = make_automatic_solver<double>(*backend, a, {}, automatic);
  for (int round = 0; round < 2; ++round) {
    std::vector<double> y;
    const SolveResult k = kept.solve(b, y, 1);
    EXPECT_EQ(k.method, r.method) << "round " << round;
    EXPECT_EQ(k.rhs[0].outcome, Outcome::converged) << "round " << round;
    EXPECT_EQ(k.rhs[0].iterations, r.rhs[0].iterations) << "round " << round;
    EXPECT_EQ(y, x) << "round " << round;
  }
  AutoOptions with_trial = automatic;
  with_trial.trial = true;
  EXPECT_THROW(make_automatic_solver<double>(*backend, a, {}, with_trial), std::invalid_argument);
}

}  // namespace
}  // namespace pmom
