// ELLPACK-R, SELL-P and DIA built from CSR: their layouts on hand-made matrices (values counted
// by hand) and a dense round trip on the awkward shapes; SpMV in these formats is tested with
// the other formats in test_spmv.cpp and test_cuda.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "planarmom/gpusolver/convert.hpp"
#include "planarmom/gpusolver/dia.hpp"
#include "planarmom/gpusolver/ellr.hpp"
#include "planarmom/gpusolver/sellp.hpp"
#include "support/random_matrix.hpp"

namespace pmom {
namespace {

using cplx = std::complex<double>;
using test::Dense;

template <class F> void expect_invalid(F&& f, const std::string& mentions) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one mentioning '" << mentions << "'";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(mentions), std::string::npos) << e.what();
  }
}

// Row i has lengths[i] entries in columns 0, 1, ...; value 1 + i + j.
Csr<double> rows_of_lengths(const std::vector<index_t>& lengths, index_t cols) {
  Coo<double> coo;
  coo.rows = static_cast<index_t>(lengths.size());
  coo.cols = cols;
  for (index_t i = 0; i < coo.rows; ++i)
    for (index_t j = 0; j < lengths[i]; ++j) coo.push_back(i, j, 1.0 + i + j);
  return to_csr(coo);
}

template <class T> Dense<T> dense_of(const Ellr<T>& m) {
  Dense<T> d = Dense<T>::Zero(m.rows, m.cols);
  for (index_t i = 0; i < m.rows; ++i)
    for (index_t k = 0; k < m.row_length[i]; ++k) {
      const std::size_t at = static_cast<std::size_t>(k) * m.rows + i;
      d(i, m.col[at]) += m.values[at];
    }
  return d;
}

template <class T> Dense<T> dense_of(const Sellp<T>& m) {
  Dense<T> d = Dense<T>::Zero(m.rows, m.cols);
  for (index_t s = 0; s < m.slices(); ++s)
    for (index_t r = 0; r < m.slice_rows; ++r) {
      const index_t p = s * m.slice_rows + r;
      for (index_t k = 0; k < m.slice_width(s); ++k) {
        const index_t at = m.slice_ptr[s] + k * m.slice_rows + r;
        if (m.col[at] == Sellp<T>::padding) continue;
        EXPECT_LT(p, m.rows) << "an entry in a padding row";
        if (p < m.rows) d(m.row_of[p], m.col[at]) += m.values[at];
      }
    }
  return d;
}

template <class T> Dense<T> dense_of(const Dia<T>& m) {
  Dense<T> d = Dense<T>::Zero(m.rows, m.cols);
  for (index_t k = 0; k < m.diagonals(); ++k)
    for (index_t i = 0; i < m.rows; ++i) {
      const T v = m.values[static_cast<std::size_t>(k) * m.rows + i];
      const index_t j = m.column(i, k);
      if (j < 0) EXPECT_EQ(v, T(0)) << "a value outside the matrix, row " << i;
      else d(i, j) += v;
    }
  return d;
}

template <class T> class MoreFormats : public testing::Test {};
using ValueTypes = testing::Types<double, cplx>;
TYPED_TEST_SUITE(MoreFormats, ValueTypes);

TYPED_TEST(MoreFormats, EveryFormatReproducesAwkwardMatrices) {
  using T = TypeParam;
  const Csr<T> cases[] = {to_csr(test::random_coo<T>(37, 53, 1, {0.1, true, true})),
                          to_csr(test::random_coo<T>(53, 37, 2, {0.1, true, false})),
                          to_csr(test::random_coo<T>(31, 31, 3, {0.2, false, true})),
                          to_csr(test::random_coo<T>(1, 1, 4, {1.0})),
                          to_csr(test::random_coo<T>(6, 9, 5, {0.0})),
                          to_csr(test::random_coo<T>(0, 0, 6, {0.0}))};
  const SellpOptions sellp_cases[] = {{}, {4, 2, 8}, {3, 32, 1}, {1, 1, 5}};
  for (const Csr<T>& a : cases) {
    SCOPED_TRACE(std::to_string(a.rows) + "x" + std::to_string(a.cols));
    const Dense<T> want = test::to_dense(a);
    const Ellr<T> e = to_ellr(a);
    EXPECT_EQ(e.nnz(), static_cast<std::size_t>(a.nnz()));
    EXPECT_EQ(dense_of(e), want);
    for (const SellpOptions& o : sellp_cases) {
      const Sellp<T> s = to_sellp(a, o);
      EXPECT_EQ(s.nnz(), static_cast<std::size_t>(a.nnz()));
      EXPECT_EQ(dense_of(s), want) << "b " << o.slice_rows << " t " << o.threads_per_row;
      for (index_t k = 0; k < s.slices(); ++k) EXPECT_EQ(s.slice_width(k) % s.threads_per_row, 0);
    }
    for (const bool periodic : {false, true}) {
      DiaOptions o;
      o.periodic = periodic;
      o.max_fill = 1e9;  // random patterns; the refusal has its own test
      EXPECT_EQ(dense_of(to_dia(a, o)), want) << (periodic ? "periodic" : "plain");
    }
  }
}

TEST(Ellr, KeepsRowLengthsAndColumnMajorSlots) {
  const Csr<double> a = rows_of_lengths({1, 0, 3, 2}, 5);
  const Ellr<double> e = to_ellr(a);
  EXPECT_EQ(e.width, 3);
  EXPECT_EQ(e.row_length, (std::vector<index_t>{1, 0, 3, 2}));
  const index_t p = Ellr<double>::padding;
  // Slot k of row i at k * 4 + i.
  EXPECT_EQ(e.col, (std::vector<index_t>{0, p, 0, 0, p, p, 1, 1, p, p, 2, p}));
  EXPECT_EQ(e.values, (std::vector<double>{1, 0, 3, 4, 0, 0, 4, 5, 0, 0, 5, 0}));
}

TEST(Sellp, PadsEachSliceToAMultipleOfT) {
  // 13 rows, b = 4, t = 2: slices of lengths max 1, 2, 5 and 8 (the last slice holds one row).
  const Csr<double> a = rows_of_lengths({1, 1, 1, 0, 2, 2, 1, 1, 3, 5, 1, 1, 8}, 10);
  const Sellp<double> s = to_sellp(a, {4, 2, 1});
  EXPECT_EQ(s.slices(), 4);
  EXPECT_EQ(s.threads_per_row, 2);
  // Widths 2, 2, 6, 8 (1 -> 2, 2, 5 -> 6, 8), each times b = 4 slots.
  EXPECT_EQ(s.slice_ptr, (std::vector<index_t>{0, 8, 16, 40, 72}));
  std::vector<index_t> identity(13);
  for (index_t i = 0; i < 13; ++i) identity[i] = i;
  EXPECT_EQ(s.row_of, identity);
  // Slice 3 row 0 is matrix row 12: slot k at 40 + 4k; rows 1-3 of the slice are padding.
  for (index_t k = 0; k < 8; ++k) {
    EXPECT_EQ(s.col[40 + 4 * k], k);
    EXPECT_EQ(s.values[40 + 4 * k], 13.0 + k);
    for (index_t r = 1; r < 4; ++r) EXPECT_EQ(s.col[40 + 4 * k + r], Sellp<double>::padding);
  }
}

TEST(Sellp, SortsRowsByLengthWithinEachWindow) {
  const std::vector<index_t> lengths{1, 3, 0, 2, 2, 5, 4, 1, 6};
  const Csr<double> a = rows_of_lengths(lengths, 8);
  const Sellp<double> s = to_sellp(a, {2, 1, 4});
  // Windows {0..3}, {4..7}, {8}: longest first, ties in their original order.
  EXPECT_EQ(s.row_of, (std::vector<index_t>{1, 3, 0, 2, 5, 6, 4, 7, 8}));
  EXPECT_EQ(dense_of(s), test::to_dense(a));
}

TEST(Sellp, ThreadsPerRowFollowTheMeanRowLength) {
  EXPECT_EQ(sellp_threads_per_row(1.0, 32), 1);
  EXPECT_EQ(sellp_threads_per_row(16.0, 32), 4);    // a quarter of 16
  EXPECT_EQ(sellp_threads_per_row(1000.0, 32), 32);  // at most a warp
  EXPECT_EQ(sellp_threads_per_row(1000.0, 64), 16);  // b * t <= 1024
}

TEST(Sellp, RejectsOptionsOutOfRange) {
  const Csr<double> a = rows_of_lengths({1, 2}, 3);
  expect_invalid([&] { to_sellp(a, {4, 3, 1}); }, "power of two");
  expect_invalid([&] { to_sellp(a, {64, 32, 1}); }, "1024");
  expect_invalid([&] { to_sellp(a, {4, 2, 0}); }, "sigma");
  expect_invalid([&] { to_sellp(a, {0, 1, 1}); }, "SELL-P");
}

// The periodic 1D Laplacian: tridiagonal plus the corners A(0, n-1) and A(n-1, 0).
Csr<double> periodic_laplacian(index_t n) {
  Coo<double> coo;
  coo.rows = coo.cols = n;
  for (index_t i = 0; i < n; ++i) {
    coo.push_back(i, (i + n - 1) % n, -1.0);
    coo.push_back(i, i, 2.0);
    coo.push_back(i, (i + 1) % n, -1.0);
  }
  return to_csr(coo);
}

TEST(Dia, PeriodicOffsetsFoldTheCornersIntoTheBand) {
  const Csr<double> a = periodic_laplacian(6);
  const Dia<double> plain = to_dia(a);
  EXPECT_EQ(plain.offset, (std::vector<index_t>{-5, -1, 0, 1, 5}));
  EXPECT_EQ(plain.values[1 * 6 + 0], 0.0);   // row 0 has no column -1
  EXPECT_EQ(plain.values[0 * 6 + 5], -1.0);  // A(5, 0) on offset -5
  DiaOptions o;
  o.periodic = true;
  const Dia<double> folded = to_dia(a, o);
  EXPECT_EQ(folded.offset, (std::vector<index_t>{-1, 0, 1}));
  EXPECT_EQ(folded.column(0, 0), 5);  // offset -1 of row 0 wraps to column 5
  EXPECT_EQ(folded.values[0 * 6 + 0], -1.0);
  EXPECT_EQ(folded.values[2 * 6 + 5], -1.0);  // A(5, 0) on offset +1
  EXPECT_EQ(dense_of(folded), test::to_dense(a));
}

TEST(Dia, RefusesScatteredPatternsWithAUsefulMessage) {
  // 200 x 200 at 1%: about 400 entries on nearly as many diagonals, so DIA would store about
  // 200 values per entry.
  const Csr<double> a = to_csr(test::random_coo<double>(200, 200, 9, {0.01}));
  expect_invalid([&] { to_dia(a); }, "max_fill");
  expect_invalid([&] { to_dia(a); }, "use csr, sellp or hyb");
  DiaOptions o;
  o.max_fill = 0;
  expect_invalid([&] { to_dia(a, o); }, "must be positive");
}

}  // namespace
}  // namespace pmom
