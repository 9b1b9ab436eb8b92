// Greedy multicolouring of A + Aᵀ and the symmetric permutation grouping rows by colour.
#include "planarmom/gpusolver/colouring.hpp"

#include <algorithm>
#include <complex>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

namespace pmom {
namespace {

void require_square(index_t rows, index_t cols, const char* what) {
  if (rows != cols)
    throw std::invalid_argument(std::string(what) + ": A is " + std::to_string(rows) + " x " +
                                std::to_string(cols) + ", a square matrix is needed");
}

// The pattern of Aᵀ as row pointers and columns (row j lists the i with a_ij stored).
std::pair<std::vector<index_t>, std::vector<index_t>> transpose_pattern(
    index_t n, std::span<const index_t> row_ptr, std::span<const index_t> col_idx) {
  std::vector<index_t> ptr(static_cast<std::size_t>(n) + 1, 0);
  for (const index_t j : col_idx) {
    if (j < 0 || j >= n)
      throw std::invalid_argument("colouring: column " + std::to_string(j) + " out of range [0, " +
                                  std::to_string(n) + ")");
    ++ptr[static_cast<std::size_t>(j) + 1];
  }
  std::partial_sum(ptr.begin(), ptr.end(), ptr.begin());
  std::vector<index_t> next(ptr.begin(), ptr.end() - 1);
  std::vector<index_t> rows(col_idx.size());
  for (index_t i = 0; i < n; ++i)
    for (index_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k) rows[next[col_idx[k]]++] = i;
  return {std::move(ptr), std::move(rows)};
}

}  // namespace

Colouring greedy_colouring(index_t rows, index_t cols, std::span<const index_t> row_ptr,
                           std::span<const index_t> col_idx) {
  require_square(rows, cols, "colouring");
  const auto n = static_cast<std::size_t>(rows);
  if (row_ptr.size() != n + 1 || col_idx.size() != static_cast<std::size_t>(row_ptr[n]))
    throw std::invalid_argument("colouring: row_ptr and col_idx do not describe " +
                                std::to_string(rows) + " rows");
  const auto [t_ptr, t_rows] = transpose_pattern(rows, row_ptr, col_idx);

  Colouring c;
  c.colour.assign(n, -1);
  // taken[colour] == i marks a colour used by a neighbour of row i: no clearing between rows.
  std::vector<index_t> taken;
  for (index_t i = 0; i < rows; ++i) {
    const auto mark = [&](index_t j) {
      const index_t cj = j == i ? -1 : c.colour[j];
      if (cj >= 0) taken[cj] = i;
    };
    for (index_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k) mark(col_idx[k]);
    for (index_t k = t_ptr[i]; k < t_ptr[i + 1]; ++k) mark(t_rows[k]);
    index_t mine = 0;
    while (mine < c.colours && taken[mine] == i) ++mine;
    if (mine == c.colours) {
      ++c.colours;
      taken.push_back(-1);
    }
    c.colour[i] = mine;
  }

  c.colour_ptr.assign(static_cast<std::size_t>(c.colours) + 1, 0);
  for (const index_t col : c.colour) ++c.colour_ptr[static_cast<std::size_t>(col) + 1];
  std::partial_sum(c.colour_ptr.begin(), c.colour_ptr.end(), c.colour_ptr.begin());
  std::vector<index_t> next(c.colour_ptr.begin(), c.colour_ptr.end() - 1);
  c.permutation.resize(n);
  for (index_t i = 0; i < rows; ++i) c.permutation[next[c.colour[i]]++] = i;
  return c;
}

template <class T> Csr<T> permute_symmetric(const Csr<T>& a, std::span<const index_t> permutation) {
  require_square(a.rows, a.cols, "permute_symmetric");
  const auto n = static_cast<std::size_t>(a.rows);
  std::vector<index_t> inverse(n, -1);
  if (permutation.size() != n)
    throw std::invalid_argument("permute_symmetric: " + std::to_string(permutation.size()) +
                                " indices for " + std::to_string(n) + " rows");
  for (std::size_t k = 0; k < n; ++k) {
    const index_t i = permutation[k];
    if (i < 0 || static_cast<std::size_t>(i) >= n || inverse[i] >= 0)
      throw std::invalid_argument("permute_symmetric: index " + std::to_string(i) +
                                  " out of range or repeated, not a permutation");
    inverse[i] = static_cast<index_t>(k);
  }
  Csr<T> p;
  p.rows = p.cols = a.rows;
  p.row_ptr.assign(n + 1, 0);
  p.col_idx.reserve(a.col_idx.size());
  p.values.reserve(a.values.size());
  std::vector<std::pair<index_t, T>> row;
  for (std::size_t k = 0; k < n; ++k) {
    const index_t i = permutation[k];
    row.clear();
    for (index_t e = a.row_ptr[i]; e < a.row_ptr[i + 1]; ++e)
      row.emplace_back(inverse[a.col_idx[e]], a.values[e]);
    std::sort(row.begin(), row.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    for (const auto& [j, v] : row) {
      p.col_idx.push_back(j);
      p.values.push_back(v);
    }
    p.row_ptr[k + 1] = static_cast<index_t>(p.col_idx.size());
  }
  return p;
}

#define PMOM_INSTANTIATE(T) template Csr<T> permute_symmetric(const Csr<T>&, std::span<const index_t>);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

}  // namespace pmom
