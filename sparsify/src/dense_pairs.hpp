// The dense row-major input as every pass reads it: the size check, entry access, and the
// tiled visit of each off-diagonal pair (i, j), i < j, whose larger magnitude decides it.
#pragma once

#include <algorithm>
#include <complex>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "planarmom/gpusolver/scalar.hpp"
#include "planarmom/sparsify/sparsify.hpp"

namespace pmom::sparsify::detail {

using cplx = std::complex<double>;

// Throws std::invalid_argument, prefixed with `who`, unless n > 0 and z holds n² values.
void check_dense_input(std::span<const cplx> z, index_t n, const std::string& who);

inline const cplx& entry(std::span<const cplx> z, index_t n, index_t i, index_t j) {
  return z[static_cast<std::size_t>(i) * static_cast<std::size_t>(n) + static_cast<std::size_t>(j)];
}

inline double pair_magnitude(std::span<const cplx> z, index_t n, index_t i, index_t j) {
  return std::max(magnitude(entry(z, n, i, j)), magnitude(entry(z, n, j, i)));
}

// Calls visit(state, i, j, pair_magnitude) for every pair i < j, each OpenMP thread with its
// own default-constructed State; returns the threads' states. Z_ji is a column access, so the
// pairs go tile by tile: a 64 x 64 tile and its mirror (64 KiB each) stay in cache while
// both are read.
template <class State, class Visit>
std::vector<State> scan_pairs(std::span<const cplx> z, index_t n, const Visit& visit) {
  constexpr index_t tile = 64;
  const index_t tiles = (n + tile - 1) / tile;
  std::vector<State> states;
#pragma omp parallel
  {
    State state{};
    // Tile rows hold fewer tiles further down; dynamic scheduling evens that out.
#pragma omp for schedule(dynamic)
    for (index_t ti = 0; ti < tiles; ++ti) {
      const index_t i_end = std::min(n, (ti + 1) * tile);
      for (index_t tj = ti; tj < tiles; ++tj) {
        const index_t j_end = std::min(n, (tj + 1) * tile);
        for (index_t i = ti * tile; i < i_end; ++i)
          for (index_t j = std::max(i + 1, tj * tile); j < j_end; ++j)
            visit(state, i, j, pair_magnitude(z, n, i, j));
      }
    }
#pragma omp critical(pmom_sparsify_scan_pairs)
    states.push_back(std::move(state));
  }
  return states;
}

}  // namespace pmom::sparsify::detail
