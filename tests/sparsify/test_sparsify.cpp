// Sparsification: the target-density threshold against a full-sort oracle, the kept pattern
// (diagonal, symmetry, ties), the absolute and relative policies, the report, input errors,
// the dense reference error check and the storage-format suggestion.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "planarmom/gpusolver/convert.hpp"
#include "planarmom/sparsify/dense_check.hpp"
#include "planarmom/sparsify/format_choice.hpp"
#include "planarmom/sparsify/sparsify.hpp"

namespace pmom::sparsify {
namespace {

using cplx = std::complex<double>;

struct DenseMatrix {
  index_t n = 0;
  std::vector<cplx> values;  // row-major
  [[nodiscard]] const cplx& operator()(index_t i, index_t j) const {
    return values[static_cast<std::size_t>(i) * n + j];
  }
  cplx& operator()(index_t i, index_t j) { return values[static_cast<std::size_t>(i) * n + j]; }
};

// Complex normal entries scaled by 1 / (1 + |i − j|), so magnitudes decay off the diagonal
// as in a MoM matrix; diagonal entries get `diagonal`. Symmetric unless `general`.
DenseMatrix decaying_matrix(index_t n, std::uint64_t seed, cplx diagonal, bool general = false) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  DenseMatrix z{n, std::vector<cplx>(static_cast<std::size_t>(n) * n)};
  for (index_t i = 0; i < n; ++i) {
    z(i, i) = diagonal;
    for (index_t j = i + 1; j < n; ++j) {
      const double scale = 1.0 / (1 + j - i);
      z(i, j) = scale * cplx(normal(rng), normal(rng));
      z(j, i) = general ? scale * cplx(normal(rng), normal(rng)) : z(i, j);
    }
  }
  return z;
}

double pair_magnitude(const DenseMatrix& z, index_t i, index_t j) {
  return std::max(magnitude(z(i, j)), magnitude(z(j, i)));
}

// The test oracle: every off-diagonal pair magnitude, largest first (a full sort).
std::vector<double> sorted_pair_magnitudes(const DenseMatrix& z) {
  std::vector<double> m;
  for (index_t i = 0; i < z.n; ++i)
    for (index_t j = i + 1; j < z.n; ++j) m.push_back(pair_magnitude(z, i, j));
  std::sort(m.begin(), m.end(), std::greater<>());
  return m;
}

// The matrix must hold exactly the diagonal and the pairs with magnitude >= t, with the
// values of Z itself. This covers "diagonal always kept" and "pattern symmetric" as well.
void expect_kept_exactly(const Sparsified& s, const DenseMatrix& z, double t) {
  const Csr<cplx>& a = s.matrix;
  ASSERT_NO_THROW(a.validate());
  ASSERT_EQ(a.rows, z.n);
  ASSERT_EQ(a.cols, z.n);
  EXPECT_EQ(s.report.n, z.n);
  EXPECT_EQ(s.report.nnz, a.nnz());
  for (index_t i = 0; i < z.n; ++i) {
    std::vector<index_t> expected;
    for (index_t j = 0; j < z.n; ++j)
      if (j == i || pair_magnitude(z, i, j) >= t) expected.push_back(j);
    const std::vector<index_t> got(a.col_idx.begin() + a.row_ptr[i],
                                   a.col_idx.begin() + a.row_ptr[i + 1]);
    ASSERT_EQ(got, expected) << "row " << i;
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      ASSERT_EQ(a.values[k], z(i, a.col_idx[k])) << "entry (" << i << ", " << a.col_idx[k] << ")";
  }
}

// Invalid input must fail with the given exception type whose message names the problem.
template <class E = std::invalid_argument, class F>
void expect_throw_mentioning(F&& f, const std::string& mentions) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one mentioning '" << mentions << "'";
  } catch (const E& e) {
    EXPECT_NE(std::string(e.what()).find(mentions), std::string::npos) << e.what();
  }
}

class SparsifyTargetDensity : public testing::TestWithParam<double> {
 protected:
  // One matrix and one oracle sort for all densities. The tiny diagonal (far below every
  // off-diagonal magnitude) shows that the diagonal is kept whatever its size.
  static void SetUpTestSuite() {
    z_ = new DenseMatrix(decaying_matrix(1000, 7, cplx(1e-30, -1e-30)));
    sorted_ = new std::vector<double>(sorted_pair_magnitudes(*z_));
  }
  static void TearDownTestSuite() {
    delete z_;
    delete sorted_;
  }
  static inline DenseMatrix* z_ = nullptr;
  static inline std::vector<double>* sorted_ = nullptr;
};

TEST_P(SparsifyTargetDensity, ThresholdIsTheExactQuantileAndDensityIsOnTarget) {
  const double d = GetParam();
  const DenseMatrix& z = *z_;
  const double n2 = static_cast<double>(z.n) * z.n;
  const Sparsified s = sparsify(z.values, z.n, ThresholdPolicy::target_density(d));

  // The header's rule: t is the k-th largest pair magnitude, k = round((d·n² − n) / 2).
  // Exact selection, so equality; the oracle is a full sort of the same magnitudes.
  const auto k = static_cast<std::size_t>(std::llround((d * n2 - z.n) / 2));
  ASSERT_GE(k, 1u);
  EXPECT_EQ(s.report.threshold, (*sorted_)[k - 1]);
  // Random normal magnitudes do not tie, so nnz = n + 2k: within 1 of d·n² (a whole pair).
  EXPECT_EQ(s.report.nnz, z.n + 2 * static_cast<index_t>(k));
  EXPECT_LE(std::abs(s.report.nnz - d * n2), 1.0);
  EXPECT_DOUBLE_EQ(s.report.density, s.report.nnz / n2);
  expect_kept_exactly(s, z, s.report.threshold);

  // Kept Frobenius fraction against the sums done here; 1e-12 leaves room for the different
  // summation orders (about 1e-16 per term relative).
  double kept = 0, total = 0;
  for (const cplx& v : s.matrix.values) kept += std::norm(v);
  for (const cplx& v : z.values) total += std::norm(v);
  EXPECT_NEAR(s.report.kept_frobenius_fraction, std::sqrt(kept / total), 1e-12);
  EXPECT_GT(s.report.seconds, 0.0);
}

INSTANTIATE_TEST_SUITE_P(Densities, SparsifyTargetDensity,
                         testing::Values(0.01, 0.02, 0.05, 0.1, 0.2, 1.0));

TEST(SparsifyMagnitude, AgreesWithStdAbsAtAnyScale) {
  std::mt19937_64 rng(2);
  std::normal_distribution<double> normal;
  for (const double scale : {1e-200, 1e-150, 1e-12, 1.0, 1e12, 1e150, 1e200}) {
    for (int k = 0; k < 1000; ++k) {
      const cplx v = scale * cplx(normal(rng), normal(rng));
      // Two roundings in the squares, one in the sum, one in the root: within 2 ulps.
      const double ulp = std::numeric_limits<double>::epsilon() * std::abs(v);
      EXPECT_NEAR(magnitude(v), std::abs(v), 2 * ulp) << v;
    }
  }
  EXPECT_EQ(magnitude(cplx(0, 0)), 0.0);
  EXPECT_EQ(magnitude(cplx(-3, 4)), 5.0);
}

TEST(Sparsify, FullDensityKeepsEverything) {
  const DenseMatrix z = decaying_matrix(300, 3, cplx(2, 1));
  const Sparsified s = sparsify(z.values, z.n, ThresholdPolicy::target_density(1.0));
  EXPECT_EQ(s.report.nnz, z.n * z.n);
  EXPECT_EQ(s.report.density, 1.0);
  EXPECT_NEAR(s.report.kept_frobenius_fraction, 1.0, 1e-15);
}

TEST(Sparsify, DensityBelowTheDiagonalKeepsOnlyTheDiagonal) {
  // d·n² = 200 < n = 500: no pair fits, the diagonal stays anyway.
  const DenseMatrix z = decaying_matrix(500, 4, cplx(0, 0));
  const Sparsified s =
      sparsify(z.values, z.n, ThresholdPolicy::target_density(200.0 / (500 * 500)));
  EXPECT_EQ(s.report.nnz, z.n);
  EXPECT_EQ(s.report.threshold, std::numeric_limits<double>::infinity());
  expect_kept_exactly(s, z, s.report.threshold);
  // Only the (zero) diagonal is kept: none of the norm.
  EXPECT_EQ(s.report.kept_frobenius_fraction, 0.0);
}

TEST(Sparsify, GeneralMatrixGetsASymmetricPatternFromTheLargerMagnitude) {
  const DenseMatrix z = decaying_matrix(400, 5, cplx(1e-9, 0), true);
  const Sparsified s = sparsify(z.values, z.n, ThresholdPolicy::target_density(0.05));
  const std::vector<double> sorted = sorted_pair_magnitudes(z);
  const auto k = static_cast<std::size_t>(std::llround((0.05 * 400 * 400 - 400) / 2));
  EXPECT_EQ(s.report.threshold, sorted[k - 1]);
  expect_kept_exactly(s, z, s.report.threshold);
  const Csr<cplx> at = transpose(s.matrix);
  EXPECT_EQ(at.row_ptr, s.matrix.row_ptr);
  EXPECT_EQ(at.col_idx, s.matrix.col_idx);
  // Values are Z's own, not symmetrised: the matrix itself stays general.
  EXPECT_FALSE(is_symmetric(s.matrix));
}

TEST(Sparsify, TiesAtTheThresholdAreAllKept) {
  // Every off-diagonal entry is ±1 or ±j: all pair magnitudes are exactly 1, so the 5% target
  // lands in one tie and, as documented, the whole tie is kept.
  const index_t n = 200;
  DenseMatrix z{n, std::vector<cplx>(static_cast<std::size_t>(n) * n)};
  const cplx units[] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
  for (index_t i = 0; i < n; ++i)
    for (index_t j = 0; j < n; ++j) z(i, j) = i == j ? cplx(4, 0) : units[(i + 3 * j) % 4];
  const Sparsified s = sparsify(z.values, z.n, ThresholdPolicy::target_density(0.05));
  EXPECT_EQ(s.report.threshold, 1.0);
  EXPECT_EQ(s.report.nnz, n * n);
}

TEST(Sparsify, AbsoluteThreshold) {
  const DenseMatrix z = decaying_matrix(300, 8, cplx(3, -1));
  const std::vector<double> sorted = sorted_pair_magnitudes(z);
  const double t = sorted[sorted.size() / 7];
  const Sparsified s = sparsify(z.values, z.n, ThresholdPolicy::absolute(t));
  EXPECT_EQ(s.report.threshold, t);
  const auto pairs = std::count_if(sorted.begin(), sorted.end(), [t](double m) { return m >= t; });
  EXPECT_EQ(s.report.nnz, z.n + 2 * pairs);
  expect_kept_exactly(s, z, t);

  EXPECT_EQ(sparsify(z.values, z.n, ThresholdPolicy::absolute(0)).report.nnz, z.n * z.n);
  EXPECT_EQ(sparsify(z.values, z.n, ThresholdPolicy::absolute(2 * sorted.front())).report.nnz, z.n);
}

TEST(Sparsify, RelativeThresholdIsAFractionOfTheLargestEntry) {
  const DenseMatrix z = decaying_matrix(300, 9, cplx(0.5, 0));
  double largest = 0;  // an off-diagonal entry here: the diagonal is smaller
  for (const cplx& v : z.values) largest = std::max(largest, magnitude(v));
  const Sparsified s = sparsify(z.values, z.n, ThresholdPolicy::relative(0.1));
  EXPECT_EQ(s.report.threshold, 0.1 * largest);
  expect_kept_exactly(s, z, 0.1 * largest);

  // Fraction 1 keeps the pair holding the largest entry, nothing else off the diagonal.
  const Sparsified top = sparsify(z.values, z.n, ThresholdPolicy::relative(1));
  EXPECT_EQ(top.report.nnz, z.n + 2);
  EXPECT_EQ(sparsify(z.values, z.n, ThresholdPolicy::relative(0)).report.nnz, z.n * z.n);
}

TEST(Sparsify, DefaultPolicyIsFivePercent) {
  const DenseMatrix z = decaying_matrix(400, 10, cplx(1, 1));
  EXPECT_EQ(sparsify(z.values, z.n).report.nnz,
            sparsify(z.values, z.n, ThresholdPolicy::target_density(0.05)).report.nnz);
  EXPECT_EQ(sparsify(z.values, z.n).report.nnz, 8000);  // 0.05 · 400², no ties here
}

TEST(Sparsify, BadInputsThrowSayingWhy) {
  const DenseMatrix z = decaying_matrix(10, 1, cplx(1, 0));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (const double d : {0.0, -0.1, 1.5, nan, inf})
    expect_throw_mentioning([&] { sparsify(z.values, z.n, ThresholdPolicy::target_density(d)); },
                            "target density");
  for (const double t : {-1.0, nan, inf})
    expect_throw_mentioning([&] { sparsify(z.values, z.n, ThresholdPolicy::absolute(t)); },
                            "absolute threshold");
  for (const double r : {-0.1, 1.5, nan})
    expect_throw_mentioning([&] { sparsify(z.values, z.n, ThresholdPolicy::relative(r)); },
                            "relative threshold");
  expect_throw_mentioning([&] { sparsify(z.values, 11); }, "n = 11 needs n² = 121");
  expect_throw_mentioning([&] { sparsify(std::span(z.values).first(99), 10); }, "got 99");
  expect_throw_mentioning([&] { sparsify({}, 0); }, "must be positive, got 0");
  expect_throw_mentioning([&] { sparsify(z.values, -3); }, "must be positive, got -3");

  DenseMatrix broken = z;
  broken(2, 3) = cplx(1, nan);
  expect_throw_mentioning([&] { sparsify(broken.values, broken.n); }, "entry (2, 3)");
  broken(2, 3) = cplx(inf, 0);
  expect_throw_mentioning([&] { sparsify(broken.values, broken.n); }, "not finite");
}

// Z = [[2, ε], [ε, 2]] thresholded to its diagonal S = 2I: S⁻¹Z − I = (ε/2)·swap, so
// x_sparse − x_dense = (ε/2)·swap(x_dense) and the relative error is |ε|/2 for every b.
TEST(SparsifyDenseCheck, MatchesTheClosedFormOnTwoByTwo) {
  const cplx eps(0.3, 0.4);  // |ε| = 0.5
  const std::vector<cplx> z = {2.0, eps, eps, 2.0};
  const Sparsified s = sparsify(z, 2, ThresholdPolicy::absolute(1.0));
  ASSERT_EQ(s.report.nnz, 2);
  const std::vector<cplx> b = {1.0, 0.0, cplx(0.2, -1), 3.0};  // two columns
  const std::vector<double> errors = dense_solution_error(z, 2, s.matrix, b);
  ASSERT_EQ(errors.size(), 2u);
  // Two 2 x 2 LU solves: rounding errors of a few ulps.
  EXPECT_NEAR(errors[0], 0.25, 1e-15);
  EXPECT_NEAR(errors[1], 0.25, 1e-15);
}

// N unknowns on a jittered square grid of spacing λ/20 with the free-space kernel e^{-jkR}/R
// off the diagonal and a self term 1.5 times the row's coupling sum: diagonally dominant.
DenseMatrix mom_like_matrix(index_t side, std::uint64_t seed) {
  const index_t n = side * side;
  const double k = 2 * std::numbers::pi / 20;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> jitter(-0.05, 0.05);
  std::vector<double> x(n), y(n);
  for (index_t i = 0; i < n; ++i) {
    x[i] = i % side + jitter(rng);
    y[i] = i / side + jitter(rng);
  }
  DenseMatrix z{n, std::vector<cplx>(static_cast<std::size_t>(n) * n)};
  for (index_t i = 0; i < n; ++i) {
    double coupling = 0;
    for (index_t j = 0; j < n; ++j) {
      if (j == i) continue;
      const double r = std::hypot(x[i] - x[j], y[i] - y[j]);
      z(i, j) = std::polar(1 / r, -k * r);
      coupling += 1 / r;
    }
    z(i, i) = cplx(1.5, -0.5) * coupling;
  }
  return z;
}

TEST(SparsifyDenseCheck, ErrorVanishesAtFullDensityAndFallsWithDensity) {
  const DenseMatrix z = mom_like_matrix(24, 11);  // n = 576
  // A delta-gap-like excitation and a spread one, as two columns.
  std::vector<cplx> b(2 * static_cast<std::size_t>(z.n));
  b[z.n / 2] = 1.0;
  for (index_t i = 0; i < z.n; ++i) b[z.n + i] = std::polar(1.0, 0.1 * i);

  const auto errors_at = [&](double d) {
    const Sparsified s = sparsify(z.values, z.n, ThresholdPolicy::target_density(d));
    return dense_solution_error(z.values, z.n, s.matrix, b);
  };
  // Density 1 keeps Z unchanged, so both LUs are the same computation: exactly 0.
  for (const double e : errors_at(1.0)) EXPECT_EQ(e, 0.0);
  std::vector<double> previous = errors_at(0.02);
  for (const double d : {0.05, 0.1, 0.2}) {
    const std::vector<double> errors = errors_at(d);
    for (std::size_t c = 0; c < errors.size(); ++c) {
      EXPECT_LT(errors[c], previous[c]) << "density " << d << ", right-hand side " << c;
      EXPECT_GT(errors[c], 0.0);
    }
    previous = errors;
  }
  // DESIGN §6: the paper's bar is an error under 2% at 5% density.
  for (const double e : errors_at(0.05)) EXPECT_LT(e, 0.02);
}

TEST(SparsifyDenseCheck, ColumnsAreSolvedIndependently) {
  const DenseMatrix z = mom_like_matrix(10, 12);
  const Csr<cplx> s = sparsify(z.values, z.n, ThresholdPolicy::target_density(0.2)).matrix;
  std::vector<cplx> b(3 * static_cast<std::size_t>(z.n));
  for (std::size_t i = 0; i < b.size(); ++i) {
    const auto t = static_cast<double>(i);
    b[i] = cplx(std::sin(0.7 * t), std::cos(1.3 * t));
  }
  const std::vector<double> together = dense_solution_error(z.values, z.n, s, b);
  ASSERT_EQ(together.size(), 3u);
  for (std::size_t c = 0; c < 3; ++c) {
    const std::span column(b.data() + c * z.n, static_cast<std::size_t>(z.n));
    // The same LU on a single column: agreement to rounding (blocked vs unblocked solve).
    EXPECT_NEAR(dense_solution_error(z.values, z.n, s, column)[0], together[c], 1e-12);
  }
}

TEST(SparsifyDenseCheck, BadInputsThrowSayingWhy) {
  const DenseMatrix z = mom_like_matrix(4, 13);
  const Csr<cplx> s = sparsify(z.values, z.n).matrix;
  const std::vector<cplx> b(static_cast<std::size_t>(z.n), 1.0);
  expect_throw_mentioning([&] { dense_solution_error(z.values, 15, s, b); }, "n = 15 needs");
  const Csr<cplx> small = sparsify(std::span(z.values).first(9), 3).matrix;
  expect_throw_mentioning([&] { dense_solution_error(z.values, z.n, small, b); }, "3 x 3");
  expect_throw_mentioning([&] { dense_solution_error(z.values, z.n, s, {}); }, "k >= 1");
  expect_throw_mentioning([&] { dense_solution_error(z.values, z.n, s, std::span(b).first(15)); },
                          "got 15 values");
  // A sparsified matrix whose kept part is singular: zero diagonal, nothing else kept.
  const std::vector<cplx> hollow = {0.0, 1.0, 1.0, 0.0};
  const Csr<cplx> diagonal_only = sparsify(hollow, 2, ThresholdPolicy::absolute(2)).matrix;
  expect_throw_mentioning<std::runtime_error>(
      [&] { dense_solution_error(hollow, 2, diagonal_only, std::vector<cplx>{1.0, 1.0}); },
      "sparsified matrix is singular");
}

TEST(SparsifyFormatChoice, HybOnlyWhenTheLongestRowIsOverTwiceTheMean) {
  Coo<cplx> coo;
  coo.rows = coo.cols = 20;
  for (index_t i = 0; i < 20; ++i)
    for (index_t j = std::max(0, i - 1); j <= std::min(19, i + 1); ++j) coo.push_back(i, j, 1.0);
  EXPECT_EQ(suggest_format(to_csr(coo)), Format::csr);  // tridiagonal: longest 3, mean 2.9
  for (index_t j = 2; j < 20; ++j) coo.push_back(0, j, 1.0);
  EXPECT_EQ(suggest_format(to_csr(coo)), Format::hyb);  // one full row: longest 20, mean 3.8
  EXPECT_EQ(suggest_format(Csr<cplx>{}), Format::csr);
}

}  // namespace
}  // namespace pmom::sparsify
