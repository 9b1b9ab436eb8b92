// Format conversions (COO <-> CSR, transposes, HYB) and the structural queries on CSR.
// Everything except to_csr expects a valid Csr (see Csr::validate).
#include "planarmom/gpusolver/convert.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace pmom {

namespace {

std::string position(index_t i, index_t j) {
  return "(" + std::to_string(i) + ", " + std::to_string(j) + ")";
}

// Counting sort by column: rows of the result come out with ascending columns for free,
// so the transpose costs O(nnz + cols) instead of a comparison sort.
template <bool Conjugate, class T> Csr<T> transposed(const Csr<T>& a) {
  Csr<T> t;
  t.rows = a.cols;
  t.cols = a.rows;
  t.row_ptr.assign(static_cast<std::size_t>(a.cols) + 1, 0);
  for (const index_t j : a.col_idx) ++t.row_ptr[j + 1];
  std::partial_sum(t.row_ptr.begin(), t.row_ptr.end(), t.row_ptr.begin());
  t.col_idx.resize(a.col_idx.size());
  t.values.resize(a.values.size());
  std::vector<index_t> next(t.row_ptr.begin(), t.row_ptr.end() - 1);
  for (index_t i = 0; i < a.rows; ++i) {
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const index_t dst = next[a.col_idx[k]]++;
      t.col_idx[dst] = i;
      t.values[dst] = Conjugate ? conjugate(a.values[k]) : a.values[k];
    }
  }
  return t;
}

template <class T> bool same(const Csr<T>& a, const Csr<T>& b) {
  return a.rows == b.rows && a.cols == b.cols && a.row_ptr == b.row_ptr &&
         a.col_idx == b.col_idx && a.values == b.values;
}

}  // namespace

template <class T> Csr<T> to_csr(const Coo<T>& coo) {
  const std::size_t nnz = coo.values.size();
  if (coo.row_idx.size() != nnz || coo.col_idx.size() != nnz)
    throw std::invalid_argument("to_csr: COO arrays differ in length (" +
                                std::to_string(coo.row_idx.size()) + " rows, " +
                                std::to_string(coo.col_idx.size()) + " columns, " +
                                std::to_string(nnz) + " values)");
  if (coo.rows < 0 || coo.cols < 0)
    throw std::invalid_argument("to_csr: negative dimensions " + position(coo.rows, coo.cols));
  if (nnz > static_cast<std::size_t>(std::numeric_limits<index_t>::max()))
    throw std::invalid_argument("to_csr: " + std::to_string(nnz) +
                                " entries exceed the 32-bit index range");
  for (std::size_t e = 0; e < nnz; ++e) {
    const index_t i = coo.row_idx[e];
    const index_t j = coo.col_idx[e];
    if (i < 0 || i >= coo.rows || j < 0 || j >= coo.cols)
      throw std::invalid_argument("to_csr: entry " + std::to_string(e) + " at " +
                                  position(i, j) + " outside a " + std::to_string(coo.rows) +
                                  " x " + std::to_string(coo.cols) + " matrix");
  }

  // Stable counting sort by row, then a stable sort by column within each row, so duplicates
  // are summed in input order and the result does not depend on the sort implementation.
  std::vector<index_t> start(static_cast<std::size_t>(coo.rows) + 1, 0);
  for (const index_t i : coo.row_idx) ++start[i + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<index_t> order(nnz);
  std::vector<index_t> next(start.begin(), start.end() - 1);
  for (std::size_t e = 0; e < nnz; ++e) order[next[coo.row_idx[e]]++] = static_cast<index_t>(e);

  Csr<T> csr;
  csr.rows = coo.rows;
  csr.cols = coo.cols;
  csr.row_ptr.assign(static_cast<std::size_t>(coo.rows) + 1, 0);
  csr.col_idx.reserve(nnz);
  csr.values.reserve(nnz);
  for (index_t i = 0; i < coo.rows; ++i) {
    const auto first = order.begin() + start[i];
    const auto last = order.begin() + start[i + 1];
    std::stable_sort(first, last,
                     [&](index_t a, index_t b) { return coo.col_idx[a] < coo.col_idx[b]; });
    const auto row_begin = csr.col_idx.size();
    for (auto it = first; it != last; ++it) {
      const index_t j = coo.col_idx[*it];
      if (csr.col_idx.size() > row_begin && csr.col_idx.back() == j) {
        csr.values.back() += coo.values[*it];
      } else {
        csr.col_idx.push_back(j);
        csr.values.push_back(coo.values[*it]);
      }
    }
    csr.row_ptr[i + 1] = static_cast<index_t>(csr.col_idx.size());
  }
  return csr;
}

template <class T> Coo<T> to_coo(const Csr<T>& csr) {
  Coo<T> coo;
  coo.rows = csr.rows;
  coo.cols = csr.cols;
  coo.row_idx.reserve(csr.values.size());
  for (index_t i = 0; i < csr.rows; ++i)
    coo.row_idx.insert(coo.row_idx.end(), csr.row_length(i), i);
  coo.col_idx = csr.col_idx;
  coo.values = csr.values;
  return coo;
}

template <class T> Csr<T> transpose(const Csr<T>& a) { return transposed<false>(a); }
template <class T> Csr<T> conj_transpose(const Csr<T>& a) { return transposed<true>(a); }

template <class T> index_t hyb_ell_width(const Csr<T>& a, const HybOptions& options) {
  if (!(options.relative_speed > 0))
    throw std::invalid_argument("hyb_ell_width: relative_speed must be positive");
  if (a.rows == 0 || a.rows < options.breakeven_rows) return 0;
  index_t longest = 0;
  for (index_t i = 0; i < a.rows; ++i) longest = std::max(longest, a.row_length(i));
  std::vector<index_t> histogram(static_cast<std::size_t>(longest) + 1, 0);
  for (index_t i = 0; i < a.rows; ++i) ++histogram[a.row_length(i)];
  // Walk K down from the longest row, counting the rows of length >= K, and stop at the first
  // (largest) K whose slot column is filled in at least rows / relative_speed of the rows.
  index_t at_least = 0;
  for (index_t width = longest; width > 0; --width) {
    at_least += histogram[width];
    if (options.relative_speed * static_cast<double>(at_least) >= static_cast<double>(a.rows))
      return width;
  }
  return 0;
}

template <class T> Hyb<T> to_hyb(const Csr<T>& a, const HybOptions& options) {
  return to_hyb(a, hyb_ell_width(a, options));
}

template <class T> Hyb<T> to_hyb(const Csr<T>& a, index_t ell_width) {
  if (ell_width < 0)
    throw std::invalid_argument("to_hyb: negative ELL width " + std::to_string(ell_width));
  Hyb<T> h;
  h.rows = a.rows;
  h.cols = a.cols;
  h.ell_width = ell_width;
  const std::size_t slots = static_cast<std::size_t>(a.rows) * static_cast<std::size_t>(ell_width);
  h.ell_col.assign(slots, Hyb<T>::padding);
  h.ell_val.assign(slots, T(0));
  h.coo.rows = a.rows;
  h.coo.cols = a.cols;
  for (index_t i = 0; i < a.rows; ++i) {
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const index_t slot = k - a.row_ptr[i];
      if (slot < ell_width) {
        const std::size_t at = static_cast<std::size_t>(slot) * a.rows + i;
        h.ell_col[at] = a.col_idx[k];
        h.ell_val[at] = a.values[k];
      } else {
        h.coo.push_back(i, a.col_idx[k], a.values[k]);
      }
    }
  }
  return h;
}

template <class T> std::vector<T> diagonal(const Csr<T>& a) {
  std::vector<T> d(static_cast<std::size_t>(std::min(a.rows, a.cols)), T(0));
  for (index_t i = 0; i < static_cast<index_t>(d.size()); ++i) {
    const std::int64_t at = csr_position(a.row_ptr, a.col_idx, i, i);
    if (at >= 0) d[i] = a.values[static_cast<std::size_t>(at)];
  }
  return d;
}

template <class T> bool is_symmetric(const Csr<T>& a) {
  return a.rows == a.cols && same(a, transposed<false>(a));
}

template <class T> bool is_hermitian(const Csr<T>& a) {
  return a.rows == a.cols && same(a, transposed<true>(a));
}

template <class To, class From> Csr<To> convert_values(const Csr<From>& a) {
  Csr<To> out;
  out.rows = a.rows;
  out.cols = a.cols;
  out.row_ptr = a.row_ptr;
  out.col_idx = a.col_idx;
  out.values.reserve(a.values.size());
  const auto fail = [&](std::size_t k, const char* problem) {
    const auto row = std::upper_bound(a.row_ptr.begin(), a.row_ptr.end(),
                                      static_cast<index_t>(k)) - a.row_ptr.begin() - 1;
    throw std::invalid_argument("convert_values: entry " +
                                position(static_cast<index_t>(row), a.col_idx[k]) + problem);
  };
  for (std::size_t k = 0; k < a.values.size(); ++k) {
    if constexpr (is_complex_v<From> && !is_complex_v<To>) {
      if (a.values[k].imag() != 0) fail(k, " has a non-zero imaginary part");
      out.values.push_back(static_cast<To>(a.values[k].real()));
    } else {
      out.values.push_back(To(a.values[k]));
    }
    if (!is_finite(out.values.back()) && is_finite(a.values[k]))
      fail(k, " overflows the target precision; scale the matrix or solve in double precision");
  }
  return out;
}

#define PMOM_INSTANTIATE(T)                                                    \
  template Csr<T> to_csr(const Coo<T>&);                                       \
  template Coo<T> to_coo(const Csr<T>&);                                       \
  template Csr<T> transpose(const Csr<T>&);                                    \
  template Csr<T> conj_transpose(const Csr<T>&);                               \
  template index_t hyb_ell_width(const Csr<T>&, const HybOptions&);            \
  template Hyb<T> to_hyb(const Csr<T>&, const HybOptions&);                    \
  template Hyb<T> to_hyb(const Csr<T>&, index_t);                              \
  template std::vector<T> diagonal(const Csr<T>&);                             \
  template bool is_symmetric(const Csr<T>&);                                   \
  template bool is_hermitian(const Csr<T>&);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

#define PMOM_CONVERT(To, From) template Csr<To> convert_values<To, From>(const Csr<From>&);
// Real <-> complex at double precision; either precision -> the other, real or complex.
PMOM_CONVERT(double, double)
PMOM_CONVERT(std::complex<double>, double)
PMOM_CONVERT(double, std::complex<double>)
PMOM_CONVERT(std::complex<double>, std::complex<double>)
PMOM_CONVERT(float, double)
PMOM_CONVERT(std::complex<float>, std::complex<double>)
PMOM_CONVERT(double, float)
PMOM_CONVERT(std::complex<double>, std::complex<float>)
#undef PMOM_CONVERT

}  // namespace pmom
