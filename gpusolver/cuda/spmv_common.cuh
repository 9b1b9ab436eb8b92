// Pieces every SpMV kernel file shares: launch geometry, the column tiles of multi-RHS
// products, the y update and atomic accumulation.
#pragma once

#include <algorithm>
#include <type_traits>

#include "device_types.cuh"
#include "lanes.cuh"
#include "planarmom/gpusolver/scalar.hpp"

namespace pmom::cuda {

inline constexpr int spmv_block = 256;

inline unsigned blocks_for(long long threads) {
  return static_cast<unsigned>(std::max(1LL, (threads + spmv_block - 1) / spmv_block));
}

// Calls f(std::integral_constant<int, KC>{}, c0) for tiles of KC = 4, then 2, then 1 columns
// covering [0, k): a kernel multiplies a tile's columns together, reading each entry once.
template <class F> void with_column_tiles(index_t k, F&& f) {
  for (index_t c0 = 0; c0 < k;) {
    const index_t left = k - c0;
    if (left >= 4) {
      f(std::integral_constant<int, 4>{}, c0);
      c0 += 4;
    } else if (left >= 2) {
      f(std::integral_constant<int, 2>{}, c0);
      c0 += 2;
    } else {
      f(std::integral_constant<int, 1>{}, c0);
      c0 += 1;
    }
  }
}

template <class D> __device__ D combine(D acc, D alpha, D beta, bool beta_zero, const D* y) {
  return beta_zero ? alpha * acc : alpha * acc + beta * *y;
}

template <class R> __device__ void atomic_add(R* p, R v) { atomicAdd(p, v); }
template <class R> __device__ void atomic_add(cplx<R>* p, cplx<R> v) {
  atomicAdd(&p->x, v.x);
  atomicAdd(&p->y, v.y);
}

}  // namespace pmom::cuda
