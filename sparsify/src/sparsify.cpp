// sparsify(): input checks, the threshold, and the CSR of the diagonal plus the kept pairs.
#include "planarmom/sparsify/sparsify.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "dense_pairs.hpp"
#include "threshold.hpp"

namespace pmom::sparsify {

namespace {

using detail::cplx;

// ‖Z‖²_F, and the finiteness check that must come before any selection compares magnitudes
// (a NaN breaks the ordering std::nth_element relies on).
double checked_squared_norm(std::span<const cplx> z, index_t n) {
  const auto size = static_cast<std::ptrdiff_t>(z.size());
  double sum = 0;
  std::ptrdiff_t first_bad = size;
#pragma omp parallel for reduction(+ : sum) reduction(min : first_bad)
  for (std::ptrdiff_t k = 0; k < size; ++k) {
    if (is_finite(z[k])) sum += abs2(z[k]);
    else first_bad = std::min(first_bad, k);
  }
  if (first_bad < size) {
    std::ostringstream message;
    message << "sparsify: entry (" << first_bad / n << ", " << first_bad % n << ") of Z is "
            << z[first_bad] << ", not finite; only a finite matrix can be thresholded";
    throw std::invalid_argument(message.str());
  }
  return sum;
}

using PairList = std::vector<std::pair<index_t, index_t>>;  // kept pairs, i < j

Csr<cplx> assemble(std::span<const cplx> z, index_t n, double threshold) {
  const auto kept = detail::scan_pairs<PairList>(
      z, n, [threshold](PairList& list, index_t i, index_t j, double m) {
        if (m >= threshold) list.emplace_back(i, j);
      });
  std::vector<index_t> length(static_cast<std::size_t>(n), 1);  // the diagonal
  std::int64_t nnz = n;
  for (const PairList& list : kept) {
    for (const auto& [i, j] : list) {
      ++length[i];
      ++length[j];
    }
    nnz += 2 * static_cast<std::int64_t>(list.size());
  }
  if (nnz > std::numeric_limits<index_t>::max())
    throw std::length_error("sparsify: " + std::to_string(nnz) +
                            " kept entries overflow the 32-bit CSR indices; lower the density "
                            "or raise the threshold");
  Csr<cplx> a;
  a.rows = a.cols = n;
  a.row_ptr.resize(static_cast<std::size_t>(n) + 1);
  for (index_t i = 0; i < n; ++i) a.row_ptr[i + 1] = a.row_ptr[i] + length[i];
  a.col_idx.resize(static_cast<std::size_t>(nnz));
  a.values.resize(static_cast<std::size_t>(nnz));
  std::vector<index_t> next(a.row_ptr.begin(), a.row_ptr.end() - 1);
  for (index_t i = 0; i < n; ++i) a.col_idx[next[i]++] = i;
  for (const PairList& list : kept)
    for (const auto& [i, j] : list) {
      a.col_idx[next[i]++] = j;
      a.col_idx[next[j]++] = i;
    }
  // Rows were filled in tile order; sorted, each row reads its values from Z in address order.
#pragma omp parallel for schedule(dynamic, 64)
  for (index_t i = 0; i < n; ++i) {
    const auto begin = a.col_idx.begin() + a.row_ptr[i], end = a.col_idx.begin() + a.row_ptr[i + 1];
    std::sort(begin, end);
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      a.values[k] = detail::entry(z, n, i, a.col_idx[k]);
  }
  return a;
}

double squared_norm(const std::vector<cplx>& values) {
  double sum = 0;
  const auto size = static_cast<std::ptrdiff_t>(values.size());
#pragma omp parallel for reduction(+ : sum)
  for (std::ptrdiff_t k = 0; k < size; ++k) sum += abs2(values[k]);
  return sum;
}

}  // namespace

Sparsified sparsify(std::span<const cplx> z, index_t n, const ThresholdPolicy& policy) {
  const auto start = std::chrono::steady_clock::now();
  detail::check_dense_input(z, n, "sparsify");
  detail::check_policy(policy);
  const double total = checked_squared_norm(z, n);
  const double threshold = detail::resolve_threshold(z, n, policy);
  Sparsified out{assemble(z, n, threshold), {}};
  SparsifyReport& r = out.report;
  r.n = n;
  r.nnz = out.matrix.nnz();
  r.density = static_cast<double>(r.nnz) / (static_cast<double>(n) * static_cast<double>(n));
  r.threshold = threshold;
  r.kept_frobenius_fraction = total > 0 ? std::sqrt(squared_norm(out.matrix.values) / total) : 1.0;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace pmom::sparsify
