// The features the automatic choice reads: each checked on a matrix whose value is known by
// construction (counted by hand, not taken from the code's output).
#include <gtest/gtest.h>

#include "planarmom/gpusolver/convert.hpp"
#include "planarmom/gpusolver/matrix_features.hpp"

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
