// SELL-P storage (Anzt, Tomov & Dongarra 2014): rows in slices of b, each slice a column-major
// ELL block of its own width padded to a multiple of t, the number of threads that share a row
// on the GPU. Rows may be sorted by length within windows of σ rows (SELL-C-σ, Kreutzer et al.
// 2014) so that rows of similar length share a slice; the kernels undo the permutation.
#pragma once

#include <vector>

#include "planarmom/gpusolver/csr.hpp"

namespace pmom {

struct SellpOptions {
  // b. One warp's width of rows: a slot column of a slice is then 32 consecutive values, which
  // a warp reads in one coalesced run, while the slice stays short enough that one long row
  // pads only 31 others.
  index_t slice_rows = 32;
  // t, a power of two from 1 to 32 with b * t <= 1024 (a slice's threads fit one CUDA block);
  // 0 picks it from the mean row length (sellp_threads_per_row).
  index_t threads_per_row = 0;
  // σ. 1 keeps the rows in order, as SELL-P does; sorting pays when row lengths vary a lot
  // within a slice, at the price of scattered writes of y.
  index_t sort_window = 1;
};

template <class T> struct Sellp {
  // Marks an unused slot (its value is zero). A row fills its first slots, padding only follows.
  static constexpr index_t padding = -1;

  index_t rows = 0;
  index_t cols = 0;
  index_t slice_rows = 0;       // b
  index_t threads_per_row = 0;  // t, resolved
  index_t sort_window = 1;      // σ
  // Stored row p (slice p / b, local row p % b) holds row row_of[p] of the matrix; the last
  // slice is padded to b rows, which hold only padding and appear nowhere in row_of.
  std::vector<index_t> row_of;      // rows entries, a permutation within windows of σ rows
  std::vector<index_t> slice_ptr;   // slices + 1 offsets into col/values
  std::vector<index_t> col;         // slot k of local row r of slice s at slice_ptr[s] + k*b + r
  std::vector<T> values;            // same layout as col

  [[nodiscard]] index_t slices() const { return static_cast<index_t>(slice_ptr.size()) - 1; }
  // Slots per row in slice s, a multiple of t.
  [[nodiscard]] index_t slice_width(index_t s) const {
    return (slice_ptr[s + 1] - slice_ptr[s]) / slice_rows;
  }
  [[nodiscard]] std::size_t nnz() const;
};

// t for a mean row length: the largest power of two at most a quarter of it, from 1 to
// min(32, 1024 / slice_rows). Each of a row's t threads then walks four slots or more, enough
// loads in flight per thread, and padding a slice to a multiple of t adds at most t - 1 slots,
// a quarter of a mean row.
index_t sellp_threads_per_row(double mean_row_length, index_t slice_rows);

// Throws std::invalid_argument on options out of range, and when the padded slices would
// overflow the 32-bit index range.
template <class T> Sellp<T> to_sellp(const Csr<T>& a, const SellpOptions& options = {});

#define PMOM_DECLARE(T) extern template struct Sellp<T>; \
 extern template Sellp<T> to_sellp(const Csr<T>&, const SellpOptions&);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_DECLARE)
#undef PMOM_DECLARE

}  // namespace pmom
