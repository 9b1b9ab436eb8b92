// The reductions a backend runs over blocks, column by column: dot products and squared norms,
// summed in the working precision as Summation asks.
#pragma once

#include "planarmom/gpusolver/block.hpp"
#include "planarmom/gpusolver/summation.hpp"

namespace pmom {

template <class T> class ReductionKernels {
 public:
  virtual ~ReductionKernels() = default;

  // out[k] = Σ_i conj(x_ik) y_ik (conjugated) or Σ_i x_ik y_ik, summed in T's reals.
  virtual void dot(const Block<T>& x, const Block<T>& y, Block<T>& out, bool conjugated,
                   Summation summation = Summation::plain) = 0;
  virtual void norm2_squared(const Block<T>& x, Block<real_t<T>>& out,
                             Summation summation = Summation::plain) = 0;
};

}  // namespace pmom
