// Storage formats and conversions: COO -> CSR sorting and duplicate summing, CSR validation,
// transposes against Eigen, the HYB width rule and layout, symmetry queries, value casts.
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "planarmom/gpusolver/convert.hpp"
#include "support/random_matrix.hpp"

namespace pmom {
namespace {

using cplx = std::complex<double>;
using test::Dense;

template <class T> class Formats : public testing::Test {};
using ValueTypes = testing::Types<double, cplx>;
TYPED_TEST_SUITE(Formats, ValueTypes);

// Invalid input must fail with std::invalid_argument whose message names the problem.
template <class F> void expect_invalid(F&& f, const std::string& mentions) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one mentioning '" << mentions << "'";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(mentions), std::string::npos) << e.what();
  }
}

// The matrices every structural test runs on: rectangular both ways, empty rows, one dense
// row, 1 x 1, no entries at all.
template <class T> std::vector<Csr<T>> assorted_matrices() {
  return {to_csr(test::random_coo<T>(37, 53, 1, {0.1, true, true})),
          to_csr(test::random_coo<T>(53, 37, 2, {0.1, true, false})),
          to_csr(test::random_coo<T>(31, 31, 3, {0.2, false, true})),
          to_csr(test::random_coo<T>(1, 1, 4, {1.0})),
          to_csr(test::random_coo<T>(6, 9, 5, {0.0}))};
}

// Row lengths 1,1,1,1,2,2,2,3,3,5,8,0: rows of length >= K are 11, 7, 4, 2, 2, 1, ... for
// K = 1, 2, 3, 4, 5, 6.
Csr<double> histogram_matrix() {
  const index_t lengths[] = {1, 1, 1, 1, 2, 2, 2, 3, 3, 5, 8, 0};
  Coo<double> coo;
  coo.rows = 12;
  coo.cols = 10;
  for (index_t i = 0; i < coo.rows; ++i)
    for (index_t j = 0; j < lengths[i]; ++j) coo.push_back(i, j, 1.0 + i + j);
  return to_csr(coo);
}

TYPED_TEST(Formats, ToCsrSortsAndSumsDuplicates) {
  using T = TypeParam;
  Coo<T> coo;
  coo.rows = 3;
  coo.cols = 4;
  coo.push_back(2, 3, T(1));
  coo.push_back(0, 2, T(2));
  coo.push_back(2, 0, T(3));
  coo.push_back(0, 1, T(4));
  coo.push_back(0, 2, T(5));  // duplicate of (0, 2)
  coo.push_back(2, 3, T(-1));  // duplicate summing to an explicit zero, which stays
  const Csr<T> a = to_csr(coo);
  EXPECT_NO_THROW(a.validate());
  EXPECT_EQ(a.row_ptr, (std::vector<index_t>{0, 2, 2, 4}));
  EXPECT_EQ(a.col_idx, (std::vector<index_t>{1, 2, 0, 3}));
  EXPECT_EQ(a.values, (std::vector<T>{T(4), T(7), T(3), T(0)}));
}

TYPED_TEST(Formats, ToCsrRejectsBadInput) {
  using T = TypeParam;
  const auto with_entry = [](index_t i, index_t j) {
    Coo<T> coo;
    coo.rows = 3;
    coo.cols = 4;
    coo.push_back(0, 0, T(1));
    coo.push_back(i, j, T(1));
    return coo;
  };
  expect_invalid([&] { to_csr(with_entry(3, 0)); }, "entry 1 at (3, 0) outside a 3 x 4");
  expect_invalid([&] { to_csr(with_entry(-1, 0)); }, "entry 1 at (-1, 0)");
  expect_invalid([&] { to_csr(with_entry(0, 4)); }, "entry 1 at (0, 4)");
  expect_invalid([&] { to_csr(with_entry(0, -2)); }, "entry 1 at (0, -2)");
  Coo<T> ragged = with_entry(1, 1);
  ragged.values.pop_back();
  expect_invalid([&] { to_csr(ragged); }, "differ in length");
}

TYPED_TEST(Formats, ToCsrSumsShuffledDuplicatesLikeEigen) {
  using T = TypeParam;
  // Every entry given twice, the second time in reverse order.
  Coo<T> coo = test::random_coo<T>(37, 53, 9, {0.2, true, true});
  for (std::size_t e = coo.nnz(); e-- > 0;)
    coo.push_back(coo.row_idx[e], coo.col_idx[e], coo.values[e]);
  Dense<T> dense = Dense<T>::Zero(37, 53);
  for (std::size_t e = 0; e < coo.nnz(); ++e)
    dense(coo.row_idx[e], coo.col_idx[e]) += coo.values[e];
  EXPECT_EQ(test::to_dense(to_csr(coo)), dense);
}

TEST(CsrValidate, NamesEachBrokenInvariant) {
  // [[1 0 2], [0 0 0], [0 3 4]]
  Csr<double> good;
  good.rows = 3;
  good.cols = 3;
  good.row_ptr = {0, 2, 2, 4};
  good.col_idx = {0, 2, 1, 2};
  good.values = {1, 2, 3, 4};
  EXPECT_NO_THROW(good.validate());

  const auto broken = [&](auto edit, const std::string& mentions) {
    Csr<double> a = good;
    edit(a);
    expect_invalid([&] { a.validate(); }, mentions);
  };
  broken([](auto& a) { a.rows = -1; }, "negative dimensions");
  broken([](auto& a) { a.row_ptr.pop_back(); }, "row_ptr has 3 entries, expected rows + 1 = 4");
  broken([](auto& a) { a.row_ptr = {1, 2, 2, 4}; }, "row_ptr[0] is 1");
  broken([](auto& a) { a.row_ptr = {0, 3, 2, 4}; }, "row_ptr decreases at row 1");
  broken([](auto& a) { a.row_ptr.back() = 3; }, "row_ptr ends at 3 but col_idx has 4");
  broken([](auto& a) { a.values.pop_back(); }, "and values 3 entries");
  broken([](auto& a) { a.col_idx[3] = 3; }, "column 3 out of range [0, 3) in row 2");
  broken([](auto& a) { a.col_idx[0] = -1; }, "column -1 out of range [0, 3) in row 0");
  broken([](auto& a) { a.col_idx[1] = 0; }, "not strictly increasing in row 0 (0 then 0)");
  broken([](auto& a) { std::swap(a.col_idx[2], a.col_idx[3]); },
         "not strictly increasing in row 2 (2 then 1)");
}

TYPED_TEST(Formats, ToCooRoundTrips) {
  for (const auto& a : assorted_matrices<TypeParam>()) {
    const Coo<TypeParam> coo = to_coo(a);
    EXPECT_EQ(coo.nnz(), static_cast<std::size_t>(a.nnz()));
    const Csr<TypeParam> back = to_csr(coo);
    EXPECT_EQ(back.row_ptr, a.row_ptr);
    EXPECT_EQ(back.col_idx, a.col_idx);
    EXPECT_EQ(back.values, a.values);
  }
}

TYPED_TEST(Formats, TransposesMatchEigen) {
  for (const auto& a : assorted_matrices<TypeParam>()) {
    SCOPED_TRACE(std::to_string(a.rows) + " x " + std::to_string(a.cols));
    const Csr<TypeParam> t = transpose(a);
    const Csr<TypeParam> h = conj_transpose(a);
    EXPECT_NO_THROW(t.validate());
    EXPECT_NO_THROW(h.validate());
    EXPECT_EQ(test::to_dense(t), test::to_dense(a).transpose());
    EXPECT_EQ(test::to_dense(h), test::to_dense(a).adjoint());
  }
}

TEST(HybEllWidth, FollowsBellGarlandOnAHistogram) {
  const Csr<double> a = histogram_matrix();
  // Need >= 12/3 = 4 rows of length >= K: K = 3 has 4, K = 4 only 2.
  EXPECT_EQ(hyb_ell_width(a), 3);
  EXPECT_EQ(hyb_ell_width(a, {6.0, 0}), 5);   // >= 2 rows: K = 5 has 2, K = 6 has 1
  EXPECT_EQ(hyb_ell_width(a, {1.2, 0}), 1);   // >= 10 rows: only K = 1 (11 rows)
  EXPECT_EQ(hyb_ell_width(a, {1.0, 0}), 0);   // all 12 rows: the empty row rules out K = 1
  EXPECT_EQ(hyb_ell_width(a, {3.0, 12}), 3);  // 12 rows is not below the break-even
  EXPECT_EQ(hyb_ell_width(a, {3.0, 13}), 0);
  EXPECT_EQ(hyb_ell_width(Csr<double>{}), 0);
  expect_invalid([&] { hyb_ell_width(a, {0.0, 0}); }, "relative_speed");
}

TEST(ToHyb, LaysOutEllColumnMajorWithOverflowInCoo) {
  const Csr<double> a = histogram_matrix();
  const Hyb<double> h = to_hyb(a);
  ASSERT_EQ(h.ell_width, 3);
  ASSERT_EQ(h.ell_col.size(), 36u);
  // Row 9 (length 5): slots 0..2 at k * rows + 9, columns 0..2; columns 3, 4 overflow.
  for (index_t k = 0; k < 3; ++k) {
    EXPECT_EQ(h.ell_col[k * 12 + 9], k);
    EXPECT_EQ(h.ell_val[k * 12 + 9], 10.0 + k);
  }
  // Row 0 (length 1) and row 11 (empty) are padded.
  EXPECT_EQ(h.ell_col[1 * 12 + 0], Hyb<double>::padding);
  EXPECT_EQ(h.ell_val[1 * 12 + 0], 0.0);
  for (index_t k = 0; k < 3; ++k) EXPECT_EQ(h.ell_col[k * 12 + 11], Hyb<double>::padding);
  // Overflow: 2 entries of row 9, 5 of row 10, in row order.
  EXPECT_EQ(h.coo.row_idx, (std::vector<index_t>{9, 9, 10, 10, 10, 10, 10}));
  EXPECT_EQ(h.coo.col_idx, (std::vector<index_t>{3, 4, 3, 4, 5, 6, 7}));
  EXPECT_EQ(h.nnz(), static_cast<std::size_t>(a.nnz()));
}

// The ELL and COO parts together hold exactly the matrix, whatever the width.
template <class T> Dense<T> to_dense(const Hyb<T>& h) {
  Dense<T> d = Dense<T>::Zero(h.rows, h.cols);
  for (index_t k = 0; k < h.ell_width; ++k) {
    for (index_t i = 0; i < h.rows; ++i) {
      const std::size_t at = static_cast<std::size_t>(k) * h.rows + i;
      if (h.ell_col[at] == Hyb<T>::padding) {
        EXPECT_EQ(h.ell_val[at], T(0));
      } else {
        d(i, h.ell_col[at]) += h.ell_val[at];
      }
    }
  }
  for (std::size_t e = 0; e < h.coo.nnz(); ++e) {
    if (e > 0) {
      EXPECT_LE(h.coo.row_idx[e - 1], h.coo.row_idx[e]);
    }
    d(h.coo.row_idx[e], h.coo.col_idx[e]) += h.coo.values[e];
  }
  return d;
}

TYPED_TEST(Formats, ToHybReproducesTheMatrix) {
  for (const auto& a : assorted_matrices<TypeParam>()) {
    SCOPED_TRACE(std::to_string(a.rows) + " x " + std::to_string(a.cols));
    index_t longest = 0;
    for (index_t i = 0; i < a.rows; ++i) longest = std::max(longest, a.row_length(i));
    for (const Hyb<TypeParam>& h : {to_hyb(a), to_hyb(a, 0), to_hyb(a, 2), to_hyb(a, longest)}) {
      EXPECT_EQ(to_dense(h), test::to_dense(a));
      EXPECT_EQ(h.nnz(), static_cast<std::size_t>(a.nnz()));
    }
  }
  expect_invalid([] { to_hyb(Csr<TypeParam>{}, -1); }, "negative ELL width");
}

TYPED_TEST(Formats, DiagonalIsZeroWhereNotStored) {
  using T = TypeParam;
  for (const auto& a : assorted_matrices<T>()) {
    const Dense<T> dense = test::to_dense(a);
    const std::vector<T> d = diagonal(a);
    ASSERT_EQ(d.size(), static_cast<std::size_t>(std::min(a.rows, a.cols)));
    for (std::size_t i = 0; i < d.size(); ++i) EXPECT_EQ(d[i], dense(i, i));
  }
}

TEST(Symmetry, DistinguishesSymmetricFromHermitian) {
  const Dense<cplx> s = test::to_dense(to_csr(test::random_coo<cplx>(31, 31, 7, {0.2})));
  EXPECT_FALSE(is_symmetric(test::from_dense<cplx>(s)));
  EXPECT_FALSE(is_hermitian(test::from_dense<cplx>(s)));
  const Csr<cplx> sym = test::from_dense<cplx>(s + s.transpose());
  EXPECT_TRUE(is_symmetric(sym));
  EXPECT_FALSE(is_hermitian(sym));
  const Csr<cplx> herm = test::from_dense<cplx>(s + s.adjoint());
  EXPECT_TRUE(is_hermitian(herm));
  EXPECT_FALSE(is_symmetric(herm));

  const Dense<double> r = test::to_dense(to_csr(test::random_coo<double>(31, 31, 8, {0.2})));
  const Csr<double> real_sym = test::from_dense<double>(r + r.transpose());
  EXPECT_TRUE(is_symmetric(real_sym));
  EXPECT_TRUE(is_hermitian(real_sym));
  EXPECT_FALSE(is_symmetric(to_csr(test::random_coo<double>(4, 5, 9, {1.0}))));
}

TEST(Symmetry, ComparesPatternsExactly) {
  // [[1 0], [0 1]] with an explicit zero stored at (0, 1) only: equal values, unequal pattern.
  Csr<double> a;
  a.rows = 2;
  a.cols = 2;
  a.row_ptr = {0, 2, 3};
  a.col_idx = {0, 1, 1};
  a.values = {1, 0, 1};
  EXPECT_FALSE(is_symmetric(a));
  EXPECT_FALSE(is_hermitian(a));
  // Same pattern both ways, values off by one ulp-sized step.
  a.row_ptr = {0, 2, 4};
  a.col_idx = {0, 1, 0, 1};
  a.values = {1, 0.5, 0.5 + 1e-16 * 8, 1};
  EXPECT_FALSE(is_symmetric(a));
  a.values[2] = 0.5;
  EXPECT_TRUE(is_symmetric(a));
}

TEST(ConvertValues, CastsBetweenRealAndComplex) {
  const Csr<double> r = to_csr(test::random_coo<double>(37, 53, 10, {0.1, true, true}));
  const Csr<cplx> c = convert_values<cplx>(r);
  EXPECT_EQ(c.row_ptr, r.row_ptr);
  EXPECT_EQ(c.col_idx, r.col_idx);
  EXPECT_EQ(test::to_dense(c), test::to_dense(r).cast<cplx>());
  EXPECT_EQ(test::to_dense(convert_values<double>(c)), test::to_dense(r));
  EXPECT_EQ(test::to_dense(convert_values<double>(r)), test::to_dense(r));
  EXPECT_EQ(test::to_dense(convert_values<cplx>(c)), test::to_dense(c));

  Csr<cplx> genuinely = c;
  genuinely.values[1] += cplx(0, 1e-300);  // row 0 is dense, so entry 1 is (0, 1)
  expect_invalid([&] { convert_values<double>(genuinely); }, "(0, 1) has a non-zero imaginary");
}

}  // namespace
}  // namespace pmom
