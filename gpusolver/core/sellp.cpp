// Conversion to SELL-P (slices, per-slice widths, the optional sort within σ-windows) and the
// explicit instantiations of its storage.
#include "planarmom/gpusolver/sellp.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace pmom {

namespace {

// A slice's threads run as one CUDA block.
constexpr index_t max_block_threads = 1024;
constexpr index_t max_threads_per_row = 32;

void check(const SellpOptions& o) {
  const auto fail = [](const std::string& what) {
    throw std::invalid_argument("SELL-P: " + what);
  };
  if (o.slice_rows < 1 || o.slice_rows > max_block_threads)
    fail("slice rows b = " + std::to_string(o.slice_rows) + " must be in [1, 1024]");
  if (o.threads_per_row != 0 &&
      (o.threads_per_row > max_threads_per_row ||
       !std::has_single_bit(static_cast<unsigned>(o.threads_per_row))))
    fail("threads per row t = " + std::to_string(o.threads_per_row) +
         " must be 0 (automatic) or a power of two from 1 to 32");
  if (static_cast<std::int64_t>(o.slice_rows) * o.threads_per_row > max_block_threads)
    fail("b * t = " + std::to_string(o.slice_rows) + " * " + std::to_string(o.threads_per_row) +
         " exceeds 1024 threads, one CUDA block per slice; lower b or t");
  if (o.sort_window < 1)
    fail("sort window sigma = " + std::to_string(o.sort_window) + " must be at least 1 (no sort)");
}

}  // namespace

index_t sellp_threads_per_row(double mean_row_length, index_t slice_rows) {
  const index_t cap = std::min(max_threads_per_row, max_block_threads / std::max(slice_rows, 1));
  index_t t = 1;
  while (2 * t <= cap && 4.0 * (2 * t) <= mean_row_length) t *= 2;
  return t;
}

template <class T> std::size_t Sellp<T>::nnz() const {
  return static_cast<std::size_t>(
      std::count_if(col.begin(), col.end(), [](index_t j) { return j != padding; }));
}

template <class T> Sellp<T> to_sellp(const Csr<T>& a, const SellpOptions& options) {
  check(options);
  Sellp<T> s;
  s.rows = a.rows;
  s.cols = a.cols;
  s.slice_rows = options.slice_rows;
  s.sort_window = options.sort_window;
  const double mean = a.rows > 0 ? static_cast<double>(a.nnz()) / a.rows : 0.0;
  s.threads_per_row = options.threads_per_row > 0
                          ? options.threads_per_row
                          : sellp_threads_per_row(mean, options.slice_rows);

  // Longest rows first within each window; stable, so equal lengths keep their order.
  s.row_of.resize(static_cast<std::size_t>(a.rows));
  std::iota(s.row_of.begin(), s.row_of.end(), index_t{0});
  for (std::int64_t w = 0; w < a.rows; w += s.sort_window) {
    const auto first = s.row_of.begin() + w;
    const auto last = s.row_of.begin() + std::min<std::int64_t>(a.rows, w + s.sort_window);
    std::stable_sort(first, last,
                     [&](index_t x, index_t y) { return a.row_length(x) > a.row_length(y); });
  }

  const index_t b = s.slice_rows, t = s.threads_per_row;
  const index_t slices = (a.rows + b - 1) / b;
  s.slice_ptr.assign(static_cast<std::size_t>(slices) + 1, 0);
  std::int64_t end = 0;
  for (index_t sl = 0; sl < slices; ++sl) {
    index_t width = 0;
    for (index_t p = sl * b; p < std::min<std::int64_t>(a.rows, std::int64_t{sl} * b + b); ++p)
      width = std::max(width, a.row_length(s.row_of[p]));
    width = (width + t - 1) / t * t;
    end += static_cast<std::int64_t>(width) * b;
    if (end > std::numeric_limits<index_t>::max())
      throw std::invalid_argument("SELL-P: the padded slices exceed the 32-bit index range (" +
                                  std::to_string(a.nnz()) + " entries); use CSR for this matrix");
    s.slice_ptr[sl + 1] = static_cast<index_t>(end);
  }
  s.col.assign(static_cast<std::size_t>(end), Sellp<T>::padding);
  s.values.assign(static_cast<std::size_t>(end), T(0));
  for (index_t p = 0; p < a.rows; ++p) {
    const index_t i = s.row_of[p];
    const index_t base = s.slice_ptr[p / b] + p % b;
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const index_t at = base + (k - a.row_ptr[i]) * b;
      s.col[at] = a.col_idx[k];
      s.values[at] = a.values[k];
    }
  }
  return s;
}

#define PMOM_INSTANTIATE(T) template struct Sellp<T>; \
 template Sellp<T> to_sellp(const Csr<T>&, const SellpOptions&);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

}  // namespace pmom
