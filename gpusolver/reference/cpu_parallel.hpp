// OpenMP plumbing shared by the reference backend's kernels: when to go parallel, and a
// row sweep over several columns with per-thread partial sums added up in a fixed order.
#pragma once

#include <omp.h>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "planarmom/gpusolver/scalar.hpp"
#include "planarmom/gpusolver/summation.hpp"

namespace pmom::cpu {

// Below this many row visits a fork/join costs more than the loop itself.
inline constexpr std::int64_t min_parallel_work = 16384;

inline int team_size(std::int64_t work) {
  return work >= min_parallel_work ? omp_get_max_threads() : 1;
}

// Reductions are carried in the working precision's reals, a complex value as two, with the
// accumulator Acc (summation.hpp) deciding plain or compensated sums.
template <class Acc, std::size_t N> using Sums = std::array<Acc, N>;
template <class T> inline constexpr std::size_t parts = is_complex_v<T> ? 2 : 1;

template <class T, class Acc, std::size_t N>
inline void accumulate(Sums<Acc, N>& acc, std::size_t at, const T& v) {
  if constexpr (is_complex_v<T>) {
    acc[at].add(v.real());
    acc[at + 1].add(v.imag());
  } else {
    acc[at].add(v);
  }
}

// The value at `at` of finished sums (reduce_columns).
template <class T, std::size_t N>
inline T sum_at(const std::array<real_t<T>, N>& sums, std::size_t at) {
  if constexpr (is_complex_v<T>) return T(sums[at], sums[at + 1]);
  else return sums[at];
}

// The accumulator of sweeps that sum nothing (Sums<NoSum, 0>).
using NoSum = PlainSum<double>;

// For each listed column k, make_row(k) returns a callable row(i, acc) that is run for every
// row i in [0, n). One OpenMP team does all columns with the same static row split (each
// thread keeps to its rows), and the per-thread sums are added in thread order so a result
// depends only on the team size, never on timing. Returns one Sums<Acc, N> per listed column.
template <class Acc, std::size_t N, class MakeRow>
std::vector<Sums<Acc, N>> sweep_columns(index_t n, std::span<const index_t> columns,
                                        MakeRow make_row) {
  const std::size_t count = columns.size();
  const int team = team_size(static_cast<std::int64_t>(n) * static_cast<std::int64_t>(count));
  std::vector<Sums<Acc, N>> partial(static_cast<std::size_t>(team) * count, Sums<Acc, N>{});
#pragma omp parallel num_threads(team) if (team > 1)
  {
    const auto thread = static_cast<std::size_t>(omp_get_thread_num());
    for (std::size_t c = 0; c < count; ++c) {
      const auto row = make_row(columns[c]);
      Sums<Acc, N> acc{};
#pragma omp for schedule(static) nowait
      for (index_t i = 0; i < n; ++i) row(i, acc);
      partial[thread * count + c] = acc;
    }
  }
  std::vector<Sums<Acc, N>> total(count, Sums<Acc, N>{});
  for (std::size_t t = 0; t < static_cast<std::size_t>(team); ++t)
    for (std::size_t c = 0; c < count; ++c)
      for (std::size_t j = 0; j < N; ++j) total[c][j].merge(partial[t * count + c][j]);
  return total;
}

// sweep_columns with N sums of reals R per column, plain or compensated, finished to values.
template <class R, std::size_t N, class MakeRow>
std::vector<std::array<R, N>> reduce_columns(Summation summation, index_t n,
                                             std::span<const index_t> columns, MakeRow make_row) {
  return with_summation<R>(summation, [&](auto acc) {
    const auto sums = sweep_columns<decltype(acc), N>(n, columns, make_row);
    std::vector<std::array<R, N>> values(sums.size());
    for (std::size_t c = 0; c < sums.size(); ++c)
      for (std::size_t j = 0; j < N; ++j) values[c][j] = sums[c][j].value();
    return values;
  });
}

}  // namespace pmom::cpu
