// Multicolour ordering for parallel Gauss-Seidel and SSOR sweeps: a greedy colouring of the
// pattern of A + Aᵀ (rows of one colour are not coupled either way) and the symmetric
// permutation that makes each colour a contiguous range of rows.
#pragma once

#include <span>
#include <vector>

#include "planarmom/gpusolver/csr.hpp"

namespace pmom {

struct Colouring {
  index_t colours = 0;
  std::vector<index_t> colour;       // colour of each row of A
  std::vector<index_t> permutation;  // row k of the grouped order is row permutation[k] of A
  std::vector<index_t> colour_ptr;   // colour c: grouped rows [colour_ptr[c], colour_ptr[c + 1])
};

// Greedy colouring in natural row order: each row takes the smallest colour none of its
// neighbours in A + Aᵀ (diagonal excluded) already has, which gives the red-black colouring
// of a 5-point grid. Within a colour, rows keep their order. Throws std::invalid_argument for
// a non-square A.
Colouring greedy_colouring(index_t rows, index_t cols, std::span<const index_t> row_ptr,
                           std::span<const index_t> col_idx);
template <class T> Colouring greedy_colouring(const Csr<T>& a) {
  return greedy_colouring(a.rows, a.cols, a.row_ptr, a.col_idx);
}

// P A Pᵀ: entry (k, l) is a(permutation[k], permutation[l]). Throws std::invalid_argument if
// `permutation` is not a permutation of A's rows or A is not square.
template <class T> Csr<T> permute_symmetric(const Csr<T>& a, std::span<const index_t> permutation);

}  // namespace pmom
