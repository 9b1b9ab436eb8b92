// The reference backend's vector kernels: reductions and the fused BiCG-family and BiCGSTAB
// steps, each one pass over the rows of every running column.
#pragma once

#include "planarmom/gpusolver/kernels/bicg.hpp"
#include "planarmom/gpusolver/kernels/bicgstab.hpp"
#include "planarmom/gpusolver/kernels/reduction.hpp"

namespace pmom::cpu {

template <class T> struct VectorKernels {
  static void dot(const Block<T>& x, const Block<T>& y, Block<T>& out, bool conjugated,
                  Summation summation);
  static void norm2_squared(const Block<T>& x, Block<real_t<T>>& out, Summation summation);
  static void bicg_reduce(BicgVectors<T>& v);
  static void bicg_directions(BicgVectors<T>& v);
  static void bicg_update(BicgVectors<T>& v);
  static void bicgstab_directions(BicgstabVectors<T>& v);
  static void bicgstab_half_step(BicgstabVectors<T>& v);
  static void bicgstab_update(BicgstabVectors<T>& v);
  static void bicgstab_omega_dots(BicgstabVectors<T>& v);
};

#define PMOM_DECLARE(T) extern template struct VectorKernels<T>;
PMOM_FOR_EACH_VALUE_TYPE(PMOM_DECLARE)
#undef PMOM_DECLARE

}  // namespace pmom::cpu
