// The reference backend against Eigen: memory, SpMV in every format and adjoint mode on awkward
// shapes and several right-hand sides, the reductions, and each fused Krylov kernel with a
// stopped column and its breakdown flag.
//
// Tolerance: 1e-13 relative in the max norm for double, 1e-4 for float (the same 2^-52 and 2^-23
// ulps times ~500). Both sides form the same products and differ only in summation order (Eigen
// blocks and vectorises, the backend splits rows over threads), which moves results by a few
// ulps times the number of terms (at most a few thousand here); a wrong, missing or extra
// entry shows up at O(1).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <type_traits>

#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/gpusolver/dense_product.hpp"
#include "planarmom/gpusolver/precision.hpp"
#include "support/dense_blocks.hpp"
#include "support/random_matrix.hpp"

namespace pmom {
namespace {

using cplx = std::complex<double>;
using test::Dense;
using test::get;
using test::put;
using test::random_dense;

template <class T>
constexpr double tolerance = std::is_same_v<real_t<T>, float> ? 1e-4 : 1e-13;

template <class T>
double max_relative_error(const Dense<T>& got, const std::type_identity_t<Dense<T>>& want) {
  if (got.rows() != want.rows() || got.cols() != want.cols())
    return std::numeric_limits<double>::infinity();
  if (want.size() == 0) return 0;
  const double scale = want.cwiseAbs().maxCoeff();
  const double error = (got - want).cwiseAbs().maxCoeff();
  return scale == 0 ? error : error / scale;
}

#define EXPECT_CLOSE(got, want) \
  EXPECT_LE(max_relative_error(got, want), tolerance<typename std::decay_t<decltype(got)>::Scalar>)

// Blocks and dense matrices share the column-major layout, so transfers are plain copies.
template <class U, class T> Block<U> upload(Backend<T>& backend, const Dense<U>& host) {
  auto block = backend.template allocate<U>(static_cast<index_t>(host.rows()),
                                           static_cast<index_t>(host.cols()));
  backend.upload(std::span<const U>(host.data(), static_cast<std::size_t>(host.size())), block);
  return block;
}

template <class U, class T> Dense<U> download(Backend<T>& backend, const Block<U>& block) {
  const std::vector<U> host = backend.download(block);
  return Eigen::Map<const Dense<U>>(host.data(), block.rows(), block.cols());
}

template <class T> class CpuBackendTest : public testing::Test {
 protected:
  std::unique_ptr<Backend<T>> backend = make_cpu_backend<T>();
};
using ValueTypes = testing::Types<double, cplx, float, std::complex<float>>;
TYPED_TEST_SUITE(CpuBackendTest, ValueTypes);

TYPED_TEST(CpuBackendTest, AllocatesZeroedAlignedMemoryAndCopies) {
  using T = TypeParam;
  Backend<T>& be = *this->backend;
  for (const index_t rows : {0, 1, 7, 1000}) {
    Block<T> b = be.template allocate<T>(rows, 3);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data()) % 64, 0u);
    const Dense<T> zeros = download(be, b);
    EXPECT_TRUE((zeros.array() == T(0)).all());
    const Dense<T> values = random_dense<T>(rows, 3, 5);
    Block<T> up = upload(be, values);
    be.copy(up, b);
    be.synchronize();
    EXPECT_EQ(download(be, b), values);
  }
  Block<T> b = be.template allocate<T>(4, 1);
  const std::vector<T> three(3);
  EXPECT_THROW(be.upload(std::span<const T>(three), b), std::invalid_argument);
}

// ---- SpMV ----------------------------------------------------------------------------------

struct OperatorCase {
  Format format;
  AdjointMode adjoint;
  SellpOptions sellp{};
};
// SELL-P twice more: slices of 4 rows with 2 threads per row and rows sorted in windows of 8
// (last slice partial, padding to a multiple of t, the permutation undone in y), and one
// thread per row.
constexpr OperatorCase operator_cases[] = {{Format::csr, AdjointMode::stored},
                                           {Format::csr, AdjointMode::transposed_kernel},
                                           {Format::hyb, AdjointMode::stored},
                                           {Format::hyb, AdjointMode::transposed_kernel},
                                           {Format::ellr, AdjointMode::stored},
                                           {Format::ellr, AdjointMode::transposed_kernel},
                                           {Format::sellp, AdjointMode::stored},
                                           {Format::sellp, AdjointMode::transposed_kernel},
                                           {Format::sellp, AdjointMode::stored, {4, 2, 8}},
                                           {Format::sellp, AdjointMode::transposed_kernel, {4, 1, 1}},
                                           {Format::dia, AdjointMode::stored},
                                           {Format::dia, AdjointMode::transposed_kernel}};

// The random test patterns have many diagonals; DIA is asked to store them anyway.
OperatorOptions options_for(const OperatorCase& c) {
  OperatorOptions o{c.format, c.adjoint, true, c.sellp, {}};
  o.dia.max_fill = 1e9;
  return o;
}

std::string describe(const OperatorCase& c, index_t rows, index_t cols, index_t k) {
  return to_string(c.format) + "(b " + std::to_string(c.sellp.slice_rows) + " t " +
         std::to_string(c.sellp.threads_per_row) + " s " + std::to_string(c.sellp.sort_window) +
         ")/" + (c.adjoint == AdjointMode::stored ? "stored" : "transposed_kernel") + " " +
         std::to_string(rows) + "x" + std::to_string(cols) + " k=" + std::to_string(k);
}

// y = alpha op(A) x + beta y in every format and adjoint mode, for A and Aᴴ, with 1, 3 and 6
// right-hand sides (6 = a full tile of 4 plus 2), against the dense product.
template <class T> void expect_spmv_matches_dense(Backend<T>& be, const Csr<T>& a) {
  const Dense<T> dense = test::to_dense(a);
  const T scale = [] {
    if constexpr (is_complex_v<T>) return T(0.5, -1.25);
    else return T(-1.5);
  }();
  const T shift = [] {
    if constexpr (is_complex_v<T>) return T(-0.75, real_t<T>(0.3));
    else return T(0.25);
  }();
  const std::pair<T, T> coefficients[] = {
      {T(1), T(0)}, {scale, T(0)}, {T(1), T(1)}, {scale, shift}};
  for (const OperatorCase& c : operator_cases) {
    // DIA of a large random pattern holds every one of its ~rows + cols diagonals in full
    // (hundreds of MB): the small shapes cover its indexing, the banded tests its use.
    if (c.format == Format::dia && dense.size() > 1'000'000) continue;
    const auto op = be.make_operator(a, options_for(c));
    EXPECT_EQ(op->rows(), a.rows);
    EXPECT_EQ(op->cols(), a.cols);
    EXPECT_EQ(op->nnz(), static_cast<std::size_t>(a.nnz()));
    EXPECT_EQ(op->format(), c.format);
    for (const index_t k : {1, 3, 6}) {
      SCOPED_TRACE(describe(c, a.rows, a.cols, k));
      for (const Transpose t : {Transpose::none, Transpose::conj_trans}) {
        const bool adjoint = t == Transpose::conj_trans;
        const auto in = static_cast<index_t>(adjoint ? dense.rows() : dense.cols());
        const auto out = static_cast<index_t>(adjoint ? dense.cols() : dense.rows());
        const Dense<T> x = random_dense<T>(in, k, 100 + k);
        const Dense<T> y0 = random_dense<T>(out, k, 200 + k);
        const Dense<T> product = adjoint ? Dense<T>(dense.adjoint() * x) : Dense<T>(dense * x);
        const Block<T> xb = upload(be, x);
        for (const auto& [alpha, beta] : coefficients) {
          Block<T> yb = upload(be, y0);
          be.spmv(*op, t, xb, yb, alpha, beta);
          EXPECT_CLOSE(download(be, yb), alpha * product + beta * y0)
              << "alpha " << alpha << " beta " << beta;
        }
        // beta = 0 must not read y: NaN there would otherwise survive as 0 * NaN.
        Block<T> yb = upload(be, Dense<T>(Dense<T>::Constant(out, k, T(std::nan("")))));
        be.spmv(*op, t, xb, yb, scale, T(0));
        const Dense<T> got = download(be, yb);
        EXPECT_TRUE(got.allFinite());
        EXPECT_CLOSE(got, scale * product);
      }
    }
  }
}

TYPED_TEST(CpuBackendTest, SpmvMatchesDenseOnAwkwardShapes) {
  using T = TypeParam;
  const struct {
    index_t rows, cols;
    test::Shape shape;
  } cases[] = {
      {37, 53, {0.1, false, false}}, {53, 37, {0.1, false, false}},
      {37, 53, {0.1, true, true}},   {53, 37, {0.15, true, true}},
      {1, 1, {1.0}},                 {31, 31, {0.2, true, false}},
      {33, 33, {0.2, false, true}},  {5, 8, {0.0}},
      {0, 0, {0.0}},                 {1, 40, {0.3}},
      {40, 1, {0.3}},
      // Large enough for the parallel paths, with a dense row to unbalance a row split.
      {3000, 2500, {0.004, true, true}},
  };
  std::uint64_t seed = 1;
  for (const auto& c : cases)
    expect_spmv_matches_dense<T>(*this->backend,
                                 to_csr(test::random_coo<T>(c.rows, c.cols, seed++, c.shape)));
}

// The symmetric product (dense_product.hpp) reads the lower triangle only: against Eigen on a
// complex symmetric A whose upper triangle holds garbage it must not read, odd and even sizes
// (its rows go in pairs) and column counts around its blocks of four; twice, the same bits.
template <class R> void expect_symmetric_product_matches_eigen() {
  using T = std::complex<R>;
  std::uint64_t seed = 70;
  for (const index_t n : {1, 2, 7, 33, 400})
    for (const index_t k : {1, 3, 4, 5, 9}) {
      Dense<T> a = random_dense<T>(n, n, seed++);
      a = Dense<T>(a + a.transpose());
      const Dense<T> x = random_dense<T>(n, k, seed++);
      Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rows = a;
      for (index_t i = 0; i < n; ++i)
        for (index_t j = i + 1; j < n; ++j) rows(i, j) = T(R(1e30), R(-1e30));
      Dense<T> y = Dense<T>::Constant(n, k, T(7));
      symmetric_dense_product(rows.data(), n, x.data(), y.data(), k);
      EXPECT_CLOSE(y, (a * x).eval()) << "n " << n << ", k " << k;
      // The same cores sum in the same order: a sweep run twice gives the same S.
      Dense<T> again = Dense<T>::Zero(n, k);
      symmetric_dense_product(rows.data(), n, x.data(), again.data(), k);
      EXPECT_TRUE(again == y) << "n " << n << ", k " << k << ": not the same bits twice";
    }
}

TEST(SymmetricDenseProduct, MatchesEigenReadingTheLowerTriangleOnly) {
  expect_symmetric_product_matches_eigen<double>();
  expect_symmetric_product_matches_eigen<float>();
}

// Each block times what invert_blocks made of it is the identity; a singular block is named,
// the first of two; sizes that do not fit the entries are refused.
TYPED_TEST(CpuBackendTest, InvertBlocksGivesEachBlocksInverse) {
  using T = TypeParam;
  const std::vector<index_t> sizes{1, 5, 17, 3};
  const std::vector<T> packed = test::random_blocks<T>(sizes, 7);
  auto blocks = this->backend->template allocate<T>(static_cast<index_t>(packed.size()), 1);
  this->backend->template upload<T>(packed, blocks);
  EXPECT_EQ(this->backend->invert_blocks(blocks, sizes), -1);
  const std::vector<T> inverted = this->backend->download(blocks);
  std::size_t first = 0;
  for (const index_t k : sizes) {
    using RowMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const Dense<T> a = Eigen::Map<const RowMajor>(packed.data() + first, k, k);
    const Dense<T> inverse = Eigen::Map<const RowMajor>(inverted.data() + first, k, k);
    EXPECT_CLOSE(Dense<T>(a * inverse), Dense<T>(Dense<T>::Identity(k, k))) << "block of " << k;
    first += static_cast<std::size_t>(k) * k;
  }

  std::vector<T> singular = packed;
  std::fill(singular.begin() + 26, singular.begin() + 26 + 17 * 17, T(0));  // block 2
  std::fill(singular.end() - 9, singular.end(), T(0));                       // block 3
  this->backend->template upload<T>(singular, blocks);
  EXPECT_EQ(this->backend->invert_blocks(blocks, sizes), 2);

  EXPECT_THROW(this->backend->invert_blocks(blocks, std::vector<index_t>{1, 5, 17}),
               std::invalid_argument);
  EXPECT_THROW(this->backend->invert_blocks(blocks, std::vector<index_t>{0, 1, 5, 17, 3}),
               std::invalid_argument);
}

// make_dense_inverse's operator multiplies by A⁻¹ (with alpha and beta, three columns at once);
// a singular A and a matrix that is not square are refused.
TYPED_TEST(CpuBackendTest, DenseInverseAppliesTheInverse) {
  using T = TypeParam;
  Backend<T>& be = *this->backend;
  const index_t n = 60;
  const Dense<T> a = test::well_conditioned_dense<T>(n, 3);
  const auto inverse = be.make_dense_inverse(put(be, a));
  const Dense<T> x = random_dense<T>(n, 3, 4), y0 = random_dense<T>(n, 3, 5);
  Block<T> xb = put(be, x), yb = put(be, y0);
  const T alpha(2), beta(0.5);
  be.spmv(*inverse, Transpose::none, xb, yb, alpha, beta);
  const std::vector<T> got = be.download(yb);
  const Dense<T> want = alpha * Dense<T>(a.partialPivLu().solve(x)) + beta * y0;
  EXPECT_CLOSE(Dense<T>(Eigen::Map<const Dense<T>>(got.data(), n, 3)), want);
  // The columns are substituted together, a share per core: each equals its own application
  // bit for bit.
  for (index_t c = 0; c < 3; ++c) {
    Block<T> xc = be.template allocate<T>(n, 1), yc = be.template allocate<T>(n, 1);
    be.template upload<T>(std::span<const T>(x.data() + c * n, static_cast<std::size_t>(n)), xc);
    be.template upload<T>(std::span<const T>(y0.data() + c * n, static_cast<std::size_t>(n)), yc);
    be.spmv(*inverse, Transpose::none, xc, yc, alpha, beta);
    const std::vector<T> one = be.download(yc);
    for (index_t i = 0; i < n; ++i)
      EXPECT_EQ(one[static_cast<std::size_t>(i)], got[static_cast<std::size_t>(c * n + i)]);
  }

  // Rows reversed, the diagonal is small: the LU must pivot (every row moves), and the
  // permutation the library returns must be the one the substitutions apply.
  const Dense<T> flipped = a.colwise().reverse();
  const auto pivoted = be.make_dense_inverse(put(be, flipped));
  Block<T> pb = put(be, x), py = be.template allocate<T>(n, 3);
  be.spmv(*pivoted, Transpose::none, pb, py);
  EXPECT_CLOSE(get(be, py), Dense<T>(flipped.partialPivLu().solve(x)));

  Block<T> singular = be.template allocate<T>(n, n);  // zeros
  EXPECT_THROW((void)be.make_dense_inverse(std::move(singular)), std::runtime_error);
  EXPECT_THROW((void)be.make_dense_inverse(be.template allocate<T>(n, n - 1)),
               std::invalid_argument);
}

// With single-precision factors the operator is A⁻¹ to single precision (κ(A) ~ 1 here: a
// relative error of a few 1e-7, bar 1e-5), and exactly the working-precision one for a
// matrix that is single already.
TYPED_TEST(CpuBackendTest, SinglePrecisionDenseInverseAppliesTheInverseToSinglePrecision) {
  using T = TypeParam;
  Backend<T>& be = *this->backend;
  const index_t n = 60;
  const Dense<T> a = test::well_conditioned_dense<T>(n, 3);
  const Dense<T> x = random_dense<T>(n, 3, 4);
  std::vector<T> got[2];
  for (const FactorPrecision p : {FactorPrecision::working, FactorPrecision::single}) {
    const auto inverse = be.make_dense_inverse(put(be, a), p);
    Block<T> xb = put(be, x), yb = be.template allocate<T>(n, 3);
    be.spmv(*inverse, Transpose::none, xb, yb);
    got[p == FactorPrecision::single] = be.download(yb);
  }
  const Dense<T> exact = a.partialPivLu().solve(x);
  const Dense<T> single = Eigen::Map<const Dense<T>>(got[1].data(), n, 3);
  const double error = static_cast<double>((single - exact).norm() / exact.norm());
  if constexpr (std::is_same_v<single_t<T>, T>) {
    EXPECT_EQ(got[0], got[1]);
  } else {
    EXPECT_LT(error, 1e-5);
    EXPECT_GT(error, 1e-10);  // the factors were single indeed
  }
  Block<T> singular = be.template allocate<T>(n, n);
  EXPECT_THROW((void)be.make_dense_inverse(std::move(singular), FactorPrecision::single),
               std::runtime_error);
}

// solve_dense overwrites the right-hand sides with A⁻¹ b (three columns at once); a singular A,
// a matrix that is not square and right-hand sides of another length are refused.
TYPED_TEST(CpuBackendTest, SolveDenseSolvesInPlace) {
  using T = TypeParam;
  Backend<T>& be = *this->backend;
  const index_t n = 60;
  const Dense<T> a = test::well_conditioned_dense<T>(n, 3);
  const Dense<T> b = random_dense<T>(n, 3, 4);
  Block<T> x = put(be, b);
  be.solve_dense(put(be, a), x);
  EXPECT_CLOSE(get(be, x), Dense<T>(a.partialPivLu().solve(b)));

  Block<T> rhs = be.template allocate<T>(n, 1);
  EXPECT_THROW(be.solve_dense(be.template allocate<T>(n, n), rhs), std::runtime_error);
  EXPECT_THROW(be.solve_dense(be.template allocate<T>(n, n - 1), rhs), std::invalid_argument);
  Block<T> short_rhs = be.template allocate<T>(n - 1, 1);
  EXPECT_THROW(be.solve_dense(be.template allocate<T>(n, n), short_rhs), std::invalid_argument);
}

// fold_dense against its definition entry by entry (to rounding: either side may fuse the
// multiply-add): kept rows and columns out of order, a column with no partner, partners
// weighted −1 and 0.5; sizes that disagree refused.
TYPED_TEST(CpuBackendTest, FoldDenseFoldsPartnerColumnsOntoTheKeptOnes) {
  using T = TypeParam;
  using R = typename Backend<T>::real;
  Backend<T>& be = *this->backend;
  const Dense<T> a = random_dense<T>(7, 7, 9);
  const std::vector<index_t> kept{1, 4, 0}, partner{5, -1, 6};
  const std::vector<R> weight{-1, 0, 0.5};
  Block<T> out = be.template allocate<T>(3, 3);
  be.fold_dense(put(be, a), put(be, kept), put(be, partner), put(be, weight), out);
  const Dense<T> got = get(be, out);
  for (int q = 0; q < 3; ++q)
    for (int p = 0; p < 3; ++p) {
      const T first = a(kept[q], kept[p]);
      const T second = partner[p] >= 0 ? T(weight[p] * a(kept[q], partner[p])) : T(0);
      EXPECT_LE(std::abs(got(q, p) - (first + second)),
                4 * std::numeric_limits<R>::epsilon() * (std::abs(first) + std::abs(second)))
          << q << ", " << p;
    }
  Block<T> wide = be.template allocate<T>(3, 2);
  EXPECT_THROW(be.fold_dense(put(be, a), put(be, kept), put(be, partner), put(be, weight), wide),
               std::invalid_argument);
  EXPECT_THROW(be.fold_dense(put(be, a), put(be, std::vector<index_t>{1, 4}), put(be, partner),
                             put(be, weight), out),
               std::invalid_argument);
}

// A host matrix-free operator's Aᴴ product from its own product where A is complex symmetric
// (host_symmetric_adjoint), as BiCG asks for it; refused where none was given.
TYPED_TEST(CpuBackendTest, SymmetricFunctionOperatorHasItsAdjoint) {
  using T = TypeParam;
  Backend<T>& be = *this->backend;
  const index_t n = 30;
  Dense<T> a = random_dense<T>(n, n, 8);
  a = Dense<T>(a + a.transpose());  // complex symmetric
  const auto product = host_apply<T>(n, [a, n](const T* x, T* y, index_t k) {
    Eigen::Map<Dense<T>>(y, n, k) = a * Eigen::Map<const Dense<T>>(x, n, k);
  });
  const FunctionOperator<T> with(n, product, {}, 0, host_symmetric_adjoint<T>(n, product));
  const FunctionOperator<T> without(n, product, {}, 0);
  const Dense<T> x = random_dense<T>(n, 2, 9), y0 = random_dense<T>(n, 2, 10);
  Block<T> xb = be.template allocate<T>(n, 2), yb = be.template allocate<T>(n, 2);
  be.template upload<T>(std::span<const T>(x.data(), static_cast<std::size_t>(x.size())), xb);
  be.template upload<T>(std::span<const T>(y0.data(), static_cast<std::size_t>(y0.size())), yb);
  be.spmv(with, Transpose::conj_trans, xb, yb, T(2), T(0.5));
  const std::vector<T> got = be.download(yb);
  EXPECT_CLOSE(Dense<T>(Eigen::Map<const Dense<T>>(got.data(), n, 2)),
               Dense<T>(T(2) * a.adjoint() * x + T(0.5) * y0));
  EXPECT_THROW(be.spmv(without, Transpose::conj_trans, xb, yb), std::invalid_argument);
}

TYPED_TEST(CpuBackendTest, SpmvChecksItsArguments) {
  using T = TypeParam;
  Backend<T>& be = *this->backend;
  const Csr<T> a = to_csr(test::random_coo<T>(5, 7, 3, {0.5}));
  const auto op = be.make_operator(a, {Format::csr, AdjointMode::stored, false, {}, {}});
  Block<T> x7 = be.template allocate<T>(7, 2);
  Block<T> x5 = be.template allocate<T>(5, 2);
  Block<T> y5 = be.template allocate<T>(5, 2);
  Block<T> y5_1 = be.template allocate<T>(5, 1);
  Block<T> y7 = be.template allocate<T>(7, 2);
  EXPECT_NO_THROW(be.spmv(*op, Transpose::none, x7, y5));
  EXPECT_THROW(be.spmv(*op, Transpose::none, x5, y5), std::invalid_argument);
  EXPECT_THROW(be.spmv(*op, Transpose::none, x7, y7), std::invalid_argument);
  EXPECT_THROW(be.spmv(*op, Transpose::none, x7, y5_1), std::invalid_argument);
  const auto square = be.make_operator(to_csr(test::random_coo<T>(5, 5, 4, {0.5})), {});
  EXPECT_THROW(be.spmv(*square, Transpose::none, y5, y5), std::invalid_argument);  // aliased
  // Made without an adjoint: Aᴴ is refused, with the reason.
  try {
    be.spmv(*op, Transpose::conj_trans, y5, y7);
    ADD_FAILURE() << "no exception";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("without an adjoint"), std::string::npos) << e.what();
  }
  // The transposed kernel needs nothing stored.
  const auto kernel_op =
      be.make_operator(a, {Format::hyb, AdjointMode::transposed_kernel, false, {}, {}});
  EXPECT_NO_THROW(be.spmv(*kernel_op, Transpose::conj_trans, y5, y7));
  EXPECT_THROW(be.spmv(*kernel_op, Transpose::conj_trans, x7, y7), std::invalid_argument);

  Csr<T> broken = a;
  broken.col_idx[0] = 7;
  EXPECT_THROW(be.make_operator(broken, {}), std::invalid_argument);
}

// ---- reductions ----------------------------------------------------------------------------

TYPED_TEST(CpuBackendTest, DotAndNormMatchEigen) {
  using T = TypeParam;
  Backend<T>& be = *this->backend;
  for (const index_t n : {0, 7, 20000}) {
    const Dense<T> x = random_dense<T>(n, 3, 1);
    const Dense<T> y = random_dense<T>(n, 3, 2);
    const Block<T> xb = upload(be, x);
    const Block<T> yb = upload(be, y);
    Block<T> out = be.template allocate<T>(1, 3);
    Block<real_t<T>> norms = be.template allocate<real_t<T>>(1, 3);
    be.dot(xb, yb, out, true);
    EXPECT_CLOSE(download(be, out), (x.adjoint() * y).diagonal().transpose().eval());
    be.dot(xb, yb, out, false);
    EXPECT_CLOSE(download(be, out), (x.transpose() * y).diagonal().transpose().eval());
    be.norm2_squared(xb, norms);
    EXPECT_CLOSE(download(be, norms), x.colwise().squaredNorm().eval());
  }
}

// ---- fused kernels -------------------------------------------------------------------------
// Columns: 0 runs normally, 1 is stopped and must come back untouched, 2 hits the kernel's
// breakdown (where it has one), 3 (bicgstab_update only) is an edge case. Each kernel runs at
// a size swept serially and at one swept in parallel.

constexpr index_t kernel_sizes[] = {7, 9000};
constexpr Shadow shadows[] = {Shadow::explicit_vectors, Shadow::conjugate, Shadow::same};

template <class U> Dense<U> row(std::initializer_list<U> values) {
  Dense<U> r(1, static_cast<index_t>(values.size()));
  index_t k = 0;
  for (const U& v : values) r(0, k++) = v;
  return r;
}

// Random inputs on the host, uploaded when a kernel's block set is wired up; afterwards every
// uploaded block is compared with its expected value, or with its input if it must not change.
template <class T> struct Mirror {
  using real = real_t<T>;
  Backend<T>& be;
  std::map<std::string, Dense<T>> host;
  Dense<int> status;
  Dense<real> rnorm2;
  std::map<std::string, Block<T>> blocks;
  Block<int> status_block;
  Block<real> rnorm2_block;

  Mirror(Backend<T>& backend, index_t n, index_t k, std::initializer_list<const char*> vectors,
         std::initializer_list<const char*> scalars)
      : be(backend), status(Dense<int>::Constant(1, k, rhs_running)), rnorm2(1, k) {
    std::uint64_t seed = 1000;
    for (const char* name : vectors) host[name] = random_dense<T>(n, k, seed++);
    for (const char* name : scalars) host[name] = random_dense<T>(1, k, seed++);
    host["d"] = random_dense<T>(n, 1, seed++);
    for (index_t c = 0; c < k; ++c) rnorm2(0, c) = static_cast<real>(-1.0 - c);  // sentinels
    status(0, 1) = rhs_stopped;
  }
  Block<T>* operator[](const std::string& name) {
    auto it = blocks.find(name);
    if (it == blocks.end()) it = blocks.emplace(name, upload(be, host.at(name))).first;
    return &it->second;
  }
  Block<int>* status_ptr() { return &(status_block = upload(be, status)); }
  Block<real>* rnorm2_ptr() { return &(rnorm2_block = upload(be, rnorm2)); }

  void expect(const std::map<std::string, Dense<T>>& want, const Dense<int>& want_status,
              const Dense<real>& want_rnorm2) {
    for (const auto& [name, block] : blocks) {
      SCOPED_TRACE(name);
      const auto it = want.find(name);
      EXPECT_CLOSE(download(be, block), it == want.end() ? host.at(name) : it->second);
    }
    EXPECT_EQ(download(be, status_block), want_status);
    if (rnorm2_block.size() > 0) {
      EXPECT_CLOSE(download(be, rnorm2_block), want_rnorm2);
    }
  }
};

template <class T> BicgVectors<T> bicg_vectors(Mirror<T>& m, Shadow shadow) {
  const bool explicit_shadow = shadow == Shadow::explicit_vectors;
  BicgVectors<T> v;
  v.shadow = shadow;
  v.inv_diag = m["d"];
  v.x = m["x"];
  v.r = m["r"];
  v.rt = explicit_shadow ? m["rt"] : nullptr;
  v.p = m["p"];
  v.pt = explicit_shadow ? m["pt"] : nullptr;
  v.q = m["q"];
  v.qt = explicit_shadow ? m["qt"] : nullptr;
  v.rho = m["rho"];
  v.rho_old = m["rho_old"];
  v.sigma = m["sigma"];
  v.rnorm2 = m.rnorm2_ptr();
  v.status = m.status_ptr();
  return v;
}

template <class T> Mirror<T> bicg_mirror(Backend<T>& be, index_t n) {
  return Mirror<T>(be, n, 3, {"x", "r", "rt", "p", "pt", "q", "qt"},
                   {"rho", "rho_old", "sigma"});
}

// The shadow residual r̃ each mode implies.
template <class T> Dense<T> shadow_of(Shadow s, const Dense<T>& rt, const Dense<T>& r) {
  if (s == Shadow::explicit_vectors) return rt;
  if (s == Shadow::conjugate) return r.conjugate();
  return r;
}

// rho = Σ conj(r̃_i) d_i r_i of column k.
template <class T>
T rho_of(Shadow s, const Dense<T>& rt, const Dense<T>& r, const Dense<T>& d, index_t k) {
  return shadow_of(s, rt, r).col(k).dot(d.col(0).cwiseProduct(r.col(k)));
}

template <class T> class FusedKernels : public CpuBackendTest<T> {};
TYPED_TEST_SUITE(FusedKernels, ValueTypes);

std::string trace(index_t n, Shadow s) {
  const char* names[] = {"explicit", "conjugate", "same"};
  return "n = " + std::to_string(n) + ", shadow " + names[static_cast<int>(s)];
}

TYPED_TEST(FusedKernels, BicgReduce) {
  using T = TypeParam;
  for (const index_t n : kernel_sizes) {
    for (const Shadow s : shadows) {
      SCOPED_TRACE(trace(n, s));
      auto m = bicg_mirror<T>(*this->backend, n);
      auto v = bicg_vectors(m, s);
      this->backend->bicg_reduce(v);
      const auto& h = m.host;
      Dense<T> rho = h.at("rho");
      Dense<real_t<T>> rnorm2 = m.rnorm2;
      for (const index_t k : {0, 2}) {
        rho(0, k) = rho_of(s, h.at("rt"), h.at("r"), h.at("d"), k);
        rnorm2(0, k) = h.at("r").col(k).squaredNorm();
      }
      m.expect({{"rho", rho}}, m.status, rnorm2);
    }
  }
}

TYPED_TEST(FusedKernels, BicgDirectionsFlagsZeroRho) {
  using T = TypeParam;
  for (const index_t n : kernel_sizes) {
    for (const Shadow s : shadows) {
      SCOPED_TRACE(trace(n, s));
      auto m = bicg_mirror<T>(*this->backend, n);
      m.host["rho"](0, 2) = T(0);
      auto v = bicg_vectors(m, s);
      this->backend->bicg_directions(v);
      const auto& h = m.host;
      const auto& d = h.at("d").col(0);
      const T beta = h.at("rho")(0, 0) / h.at("rho_old")(0, 0);
      Dense<T> p = h.at("p"), pt = h.at("pt");
      p.col(0) = d.cwiseProduct(h.at("r").col(0)) + beta * p.col(0);
      pt.col(0) = d.conjugate().cwiseProduct(h.at("rt").col(0)) + conjugate(beta) * pt.col(0);
      m.expect({{"p", p}, {"pt", pt}}, row<int>({rhs_running, rhs_stopped, rhs_breakdown_rho}),
               m.rnorm2);
    }
  }
}

TYPED_TEST(FusedKernels, BicgUpdateFlagsZeroSigma) {
  using T = TypeParam;
  for (const index_t n : kernel_sizes) {
    for (const Shadow s : shadows) {
      SCOPED_TRACE(trace(n, s));
      auto m = bicg_mirror<T>(*this->backend, n);
      m.host["sigma"](0, 2) = T(0);
      auto v = bicg_vectors(m, s);
      this->backend->bicg_update(v);
      const auto& h = m.host;
      const T alpha = h.at("rho")(0, 0) / h.at("sigma")(0, 0);
      Dense<T> x = h.at("x"), r = h.at("r"), rt = h.at("rt"), rho = h.at("rho"),
               rho_old = h.at("rho_old");
      Dense<real_t<T>> rnorm2 = m.rnorm2;
      x.col(0) += alpha * h.at("p").col(0);
      r.col(0) -= alpha * h.at("q").col(0);
      rt.col(0) -= conjugate(alpha) * h.at("qt").col(0);
      rho_old(0, 0) = rho(0, 0);
      rho(0, 0) = rho_of(s, rt, r, h.at("d"), 0);
      rnorm2(0, 0) = r.col(0).squaredNorm();
      m.expect({{"x", x}, {"r", r}, {"rt", rt}, {"rho", rho}, {"rho_old", rho_old}},
               row<int>({rhs_running, rhs_stopped, rhs_breakdown_sigma}), rnorm2);
    }
  }
}

template <class T> Mirror<T> bicgstab_mirror(Backend<T>& be, index_t n, index_t k) {
  return Mirror<T>(be, n, k, {"x", "r", "rhat", "p", "phat", "v", "s", "shat", "t"},
                   {"rho", "rho_old", "alpha", "omega", "rhat_v", "t_s", "t_t"});
}

template <class T> BicgstabVectors<T> bicgstab_vectors(Mirror<T>& m) {
  BicgstabVectors<T> v;
  v.inv_diag = m["d"];
  for (auto [field, name] : {std::pair{&BicgstabVectors<T>::x, "x"}, {&BicgstabVectors<T>::r, "r"},
                             {&BicgstabVectors<T>::rhat, "rhat"}, {&BicgstabVectors<T>::p, "p"},
                             {&BicgstabVectors<T>::phat, "phat"}, {&BicgstabVectors<T>::v, "v"},
                             {&BicgstabVectors<T>::s, "s"}, {&BicgstabVectors<T>::shat, "shat"},
                             {&BicgstabVectors<T>::t, "t"}, {&BicgstabVectors<T>::rho, "rho"},
                             {&BicgstabVectors<T>::rho_old, "rho_old"},
                             {&BicgstabVectors<T>::alpha, "alpha"},
                             {&BicgstabVectors<T>::omega, "omega"},
                             {&BicgstabVectors<T>::rhat_v, "rhat_v"},
                             {&BicgstabVectors<T>::t_s, "t_s"}, {&BicgstabVectors<T>::t_t, "t_t"}})
    v.*field = m[name];
  v.rnorm2 = m.rnorm2_ptr();
  v.status = m.status_ptr();
  return v;
}

TYPED_TEST(FusedKernels, BicgstabDirectionsFlagsZeroRho) {
  using T = TypeParam;
  for (const index_t n : kernel_sizes) {
    SCOPED_TRACE(n);
    auto m = bicgstab_mirror<T>(*this->backend, n, 3);
    m.host["rho"](0, 2) = T(0);
    auto v = bicgstab_vectors(m);
    this->backend->bicgstab_directions(v);
    const auto& h = m.host;
    const auto sc = [&](const char* name) { return h.at(name)(0, 0); };
    const T beta = (sc("rho") / sc("rho_old")) * (sc("alpha") / sc("omega"));
    Dense<T> p = h.at("p"), phat = h.at("phat");
    p.col(0) = h.at("r").col(0) + beta * (p.col(0) - sc("omega") * h.at("v").col(0));
    phat.col(0) = h.at("d").col(0).cwiseProduct(p.col(0));
    m.expect({{"p", p}, {"phat", phat}}, row<int>({rhs_running, rhs_stopped, rhs_breakdown_rho}),
             m.rnorm2);
  }
}

TYPED_TEST(FusedKernels, BicgstabHalfStepFlagsZeroRhatV) {
  using T = TypeParam;
  for (const index_t n : kernel_sizes) {
    SCOPED_TRACE(n);
    auto m = bicgstab_mirror<T>(*this->backend, n, 3);
    m.host["rhat_v"](0, 2) = T(0);
    auto v = bicgstab_vectors(m);
    this->backend->bicgstab_half_step(v);
    const auto& h = m.host;
    Dense<T> alpha = h.at("alpha"), s = h.at("s"), shat = h.at("shat");
    alpha(0, 0) = h.at("rho")(0, 0) / h.at("rhat_v")(0, 0);
    s.col(0) = h.at("r").col(0) - alpha(0, 0) * h.at("v").col(0);
    shat.col(0) = h.at("d").col(0).cwiseProduct(s.col(0));
    m.expect({{"alpha", alpha}, {"s", s}, {"shat", shat}},
             row<int>({rhs_running, rhs_stopped, rhs_breakdown_sigma}), m.rnorm2);
  }
}

TYPED_TEST(FusedKernels, BicgstabOmegaDots) {
  using T = TypeParam;
  for (const index_t n : kernel_sizes) {
    SCOPED_TRACE(n);
    auto m = bicgstab_mirror<T>(*this->backend, n, 3);
    auto v = bicgstab_vectors(m);
    this->backend->bicgstab_omega_dots(v);
    const auto& h = m.host;
    Dense<T> t_s = h.at("t_s"), t_t = h.at("t_t");
    for (const index_t k : {0, 2}) {
      t_s(0, k) = h.at("t").col(k).dot(h.at("s").col(k));
      t_t(0, k) = h.at("t").col(k).squaredNorm();
    }
    m.expect({{"t_s", t_s}, {"t_t", t_t}}, m.status, m.rnorm2);
  }
}

TYPED_TEST(FusedKernels, BicgstabUpdateFlagsZeroOmega) {
  using T = TypeParam;
  for (const index_t n : kernel_sizes) {
    SCOPED_TRACE(n);
    auto m = bicgstab_mirror<T>(*this->backend, n, 4);
    m.host["t_s"](0, 2) = T(0);  // ω = 0 from tᴴt != 0: breakdown, update still applied
    m.host["t_t"](0, 3) = T(0);  // tᴴt = 0: ω = 0 without a breakdown
    auto v = bicgstab_vectors(m);
    this->backend->bicgstab_update(v);
    const auto& h = m.host;
    Dense<T> omega = h.at("omega"), x = h.at("x"), r = h.at("r"), rho = h.at("rho"),
             rho_old = h.at("rho_old");
    Dense<real_t<T>> rnorm2 = m.rnorm2;
    for (const index_t k : {0, 2, 3}) {
      omega(0, k) = h.at("t_t")(0, k) == T(0) ? T(0) : h.at("t_s")(0, k) / h.at("t_t")(0, k);
      x.col(k) += h.at("alpha")(0, k) * h.at("phat").col(k) + omega(0, k) * h.at("shat").col(k);
      r.col(k) = h.at("s").col(k) - omega(0, k) * h.at("t").col(k);
      rho_old(0, k) = rho(0, k);
      rho(0, k) = h.at("rhat").col(k).dot(r.col(k));
      rnorm2(0, k) = r.col(k).squaredNorm();
    }
    m.expect({{"omega", omega}, {"x", x}, {"r", r}, {"rho", rho}, {"rho_old", rho_old}},
             row<int>({rhs_running, rhs_stopped, rhs_breakdown_omega, rhs_running}), rnorm2);
  }
}

TYPED_TEST(FusedKernels, RejectMissingOrMisshapenBlocks) {
  using T = TypeParam;
  auto m = bicg_mirror<T>(*this->backend, 7);
  auto v = bicg_vectors(m, Shadow::explicit_vectors);
  v.pt = nullptr;
  EXPECT_THROW(this->backend->bicg_directions(v), std::invalid_argument);
  v = bicg_vectors(m, Shadow::conjugate);  // pt not needed
  EXPECT_NO_THROW(this->backend->bicg_directions(v));
  Block<T> short_q = this->backend->template allocate<T>(6, 3);
  v.q = &short_q;
  EXPECT_THROW(this->backend->bicg_update(v), std::invalid_argument);
}

}  // namespace
}  // namespace pmom
