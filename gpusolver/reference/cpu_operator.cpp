// SpMV kernels of the reference backend: y = alpha A x + beta y row-parallel, and
// y = alpha Aᴴ x + beta y either on a stored Aᴴ or by scattering A's rows into per-thread
// partial outputs that are added up afterwards.
#include "cpu_operator.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "cpu_parallel.hpp"
#include "planarmom/gpusolver/convert.hpp"

namespace pmom::cpu {

template <class T> HybRows<T>::HybRows(Hyb<T> hyb) : m(std::move(hyb)) {
  coo_row_ptr.assign(static_cast<std::size_t>(m.rows) + 1, 0);
  for (const index_t i : m.coo.row_idx) ++coo_row_ptr[i + 1];
  for (index_t i = 0; i < m.rows; ++i) coo_row_ptr[i + 1] += coo_row_ptr[i];
}

template <class T> EllrRows<T>::EllrRows(Ellr<T> ellr) : m(std::move(ellr)) {
  row_ptr.assign(static_cast<std::size_t>(m.rows) + 1, 0);
  for (index_t i = 0; i < m.rows; ++i) row_ptr[i + 1] = row_ptr[i] + m.row_length[i];
}

template <class T> SellpRows<T>::SellpRows(Sellp<T> sellp) : m(std::move(sellp)) {
  position.resize(static_cast<std::size_t>(m.rows));
  for (index_t p = 0; p < m.rows; ++p) position[m.row_of[p]] = p;
  work.assign(static_cast<std::size_t>(m.rows) + 1, 0);
  for (index_t i = 0; i < m.rows; ++i) {
    std::int64_t entries = 0;
    for_each_in(i, i + 1, [&](index_t, index_t, const T&) { ++entries; });
    work[i + 1] = work[i] + 1 + entries;
  }
}

namespace {

// Right-hand sides multiplied together, so each matrix entry is read once per tile.
constexpr index_t max_tile = 4;
// Rows the kernels handle at once (their sums, or their x for Aᴴ): small enough for L1 at a
// full complex tile (128 x 4 x 16 bytes), long enough that each HYB slot is a contiguous run.
constexpr index_t chunk_rows = 128;

// Calls f(std::integral_constant<int, m>{}) so the tile loops have a compile-time trip count.
template <class F> void with_tile(index_t m, F&& f) {
  switch (m) {
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 2: f(std::integral_constant<int, 2>{}); break;
    case 3: f(std::integral_constant<int, 3>{}); break;
    default: f(std::integral_constant<int, max_tile>{}); break;
  }
}

// Rows [lo, hi) of thread t in a team: contiguous ranges of about equal work, so one dense
// row does not leave the other threads idle as a plain static schedule would.
template <class Rows> std::pair<index_t, index_t> row_range(const Rows& a, int t, int team) {
  const auto bound = [&](int s) {
    if (s == team) return a.rows();
    const std::int64_t target = a.work_before(a.rows()) * s / team;
    // The first row with work_before(row) >= target, by bisection: work_before is
    // non-decreasing and work_before(rows) >= target, so it lies in [0, rows]. (Written out:
    // clang 14 cannot compile ranges::partition_point over libstdc++ 12's iota_view.)
    index_t lo = 0, hi = a.rows();
    while (lo < hi) {
      const index_t mid = lo + (hi - lo) / 2;
      if (a.work_before(mid) < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return {bound(t), bound(t + 1)};
}

template <class Rows> int team_for(const Rows& a, int tile) {
  return team_size(a.work_before(a.rows()) * tile);
}

template <class T> void store(T& out, const T& product, T alpha, T beta) {
  out = beta == T(0) ? alpha * product : alpha * product + beta * out;
}

// y = alpha A x + beta y for M columns; x has a.cols() rows per column, y a.rows().
template <int M, class Rows, class T>
void multiply(const Rows& a, const T* x, T* y, T alpha, T beta) {
  std::array<const T*, M> xc;
  std::array<T*, M> yc;
  for (int c = 0; c < M; ++c) {
    xc[c] = x + static_cast<std::size_t>(c) * static_cast<std::size_t>(a.cols());
    yc[c] = y + static_cast<std::size_t>(c) * static_cast<std::size_t>(a.rows());
  }
  const int team = team_for(a, M);
#pragma omp parallel num_threads(team) if (team > 1)
  {
    const auto [lo, hi] = row_range(a, omp_get_thread_num(), omp_get_num_threads());
    std::array<std::array<T, M>, chunk_rows> acc;
    for (index_t first = lo; first < hi; first += chunk_rows) {
      const index_t last = std::min(hi, first + chunk_rows);
      std::fill_n(acc.begin(), last - first, std::array<T, M>{});
      a.for_each_in(first, last, [&](index_t i, index_t j, const T& v) {
        std::array<T, M>& sum = acc[i - first];
        for (int c = 0; c < M; ++c) sum[c] += v * xc[c][j];
      });
      for (index_t i = first; i < last; ++i)
        for (int c = 0; c < M; ++c) store(yc[c][i], acc[i - first][c], alpha, beta);
    }
  }
}

// y = alpha Aᴴ x + beta y for M columns by scattering A's rows: each thread adds its rows'
// contributions into its own slice of scratch (interleaved by column so one entry's M updates
// share a cache line), then the slices are summed in thread order, row-parallel.
template <int M, class Rows, class T>
void multiply_adjoint(const Rows& a, const T* x, T* y, T alpha, T beta, std::vector<T>& scratch) {
  std::array<const T*, M> xc;
  std::array<T*, M> yc;
  for (int c = 0; c < M; ++c) {
    xc[c] = x + static_cast<std::size_t>(c) * static_cast<std::size_t>(a.rows());
    yc[c] = y + static_cast<std::size_t>(c) * static_cast<std::size_t>(a.cols());
  }
  const int team = team_for(a, M);
  const std::size_t slice = static_cast<std::size_t>(a.cols()) * M;
  const std::size_t needed = slice * static_cast<std::size_t>(team);
  if (scratch.size() < needed) scratch.resize(needed);
#pragma omp parallel num_threads(team) if (team > 1)
  {
    const int t = omp_get_thread_num();
    const int threads = omp_get_num_threads();
    T* part = scratch.data() + slice * static_cast<std::size_t>(t);
    std::fill(part, part + slice, T(0));
    const auto [lo, hi] = row_range(a, t, threads);
    // A local copy of the chunk's x, which the compiler knows part cannot overwrite.
    std::array<std::array<T, M>, chunk_rows> xi;
    for (index_t first = lo; first < hi; first += chunk_rows) {
      const index_t last = std::min(hi, first + chunk_rows);
      for (index_t i = first; i < last; ++i)
        for (int c = 0; c < M; ++c) xi[i - first][c] = xc[c][i];
      a.for_each_in(first, last, [&](index_t i, index_t j, const T& v) {
        const T cv = conjugate(v);
        T* out = part + static_cast<std::size_t>(j) * M;
        for (int c = 0; c < M; ++c) out[c] += cv * xi[i - first][c];
      });
    }
#pragma omp barrier
#pragma omp for schedule(static)
    for (index_t j = 0; j < a.cols(); ++j) {
      for (int c = 0; c < M; ++c) {
        const std::size_t at = static_cast<std::size_t>(j) * M + static_cast<std::size_t>(c);
        T sum = scratch[at];
        for (int s = 1; s < threads; ++s) sum += scratch[slice * static_cast<std::size_t>(s) + at];
        store(yc[c][j], sum, alpha, beta);
      }
    }
  }
}

template <class T> StoredMatrix<T> stored(const Csr<T>& a, const OperatorOptions& options) {
  switch (options.format) {
    case Format::csr: break;
    case Format::hyb: return HybRows<T>(to_hyb(a));
    case Format::ellr: return EllrRows<T>(to_ellr(a));
    case Format::sellp: return SellpRows<T>(to_sellp(a, options.sellp));
    case Format::dia: return DiaRows<T>{to_dia(a, options.dia)};
    case Format::function:
      throw std::invalid_argument("make_operator: a matrix-free operator is not made from a "
                                  "CSR (FunctionOperator)");
  }
  return CsrRows<T>{a};
}

}  // namespace

template <class T>
CpuOperator<T>::CpuOperator(const Csr<T>& a, const OperatorOptions& options)
    : rows_(a.rows),
      cols_(a.cols),
      nnz_(static_cast<std::size_t>(a.nnz())),
      format_(options.format),
      adjoint_mode_(options.adjoint),
      a_(stored(a, options)) {
  if (options.adjoint == AdjointMode::stored && options.need_adjoint)
    adjoint_ = stored(conj_transpose(a), options);
}

template <class T> T* CpuOperator<T>::csr_values() {
  auto* csr = std::get_if<CsrRows<T>>(&a_);
  if (csr == nullptr || adjoint_)
    throw std::logic_error("csr_values: the operator is not in CSR format without a stored "
                           "adjoint");
  return csr->m.values.data();
}

template <class T> void CpuOperator<T>::inverse_diagonal(T* out) const {
  const auto* csr = std::get_if<CsrRows<T>>(&a_);
  if (csr == nullptr || adjoint_)
    throw std::logic_error("inverse_diagonal: the operator is not in CSR format without a "
                           "stored adjoint");
  const Csr<T>& m = csr->m;
  for (index_t i = 0; i < m.rows; ++i) {
    T d(0);
    for (index_t k = m.row_ptr[i]; k < m.row_ptr[i + 1]; ++k)
      if (m.col_idx[k] == i) d = m.values[k];
    out[i] = d == T(0) ? T(1) : T(1) / d;
  }
}

template <class T>
void CpuOperator<T>::apply(Transpose op, const T* x, T* y, index_t ncols, T alpha, T beta) const {
  const bool adjoint = op == Transpose::conj_trans;
  if (adjoint && adjoint_mode_ == AdjointMode::stored && !adjoint_)
    throw std::logic_error("spmv: Aᴴ requested but the operator was made without an adjoint "
                           "(OperatorOptions::need_adjoint was false)");
  const bool scatter = adjoint && adjoint_mode_ == AdjointMode::transposed_kernel;
  const index_t in = adjoint ? rows_ : cols_;
  const index_t out = adjoint ? cols_ : rows_;
  std::visit(
      [&](const auto& rows) {
        for (index_t c0 = 0; c0 < ncols; c0 += max_tile) {
          const T* xt = x + static_cast<std::size_t>(c0) * static_cast<std::size_t>(in);
          T* yt = y + static_cast<std::size_t>(c0) * static_cast<std::size_t>(out);
          with_tile(std::min(max_tile, ncols - c0), [&](auto tile) {
            constexpr int m = decltype(tile)::value;
            if (scatter) multiply_adjoint<m>(rows, xt, yt, alpha, beta, scratch_);
            else multiply<m>(rows, xt, yt, alpha, beta);
          });
        }
      },
      adjoint && !scatter ? *adjoint_ : a_);
}

#define PMOM_INSTANTIATE(T) template class CpuOperator<T>;
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

}  // namespace pmom::cpu
