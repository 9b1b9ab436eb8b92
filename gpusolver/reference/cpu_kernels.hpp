// The reference backend's vector kernels: reductions and the fused BiCG-family and BiCGSTAB
// steps, each one pass over the rows of every running column.
#pragma once

#include "planarmom/gpusolver/backend.hpp"

namespace pmom::cpu {

template <class T> struct VectorKernels {
  static void dot(const Block<T>& x, const Block<T>& y, Block<T>& out, bool conjugated);
  static void norm2_squared(const Block<T>& x, Block<real_t<T>>& out);
  static void bicg_reduce(BicgVectors<T>& v);
  static void bicg_directions(BicgVectors<T>& v);
  static void bicg_update(BicgVectors<T>& v);
  static void bicgstab_directions(BicgstabVectors<T>& v);
  static void bicgstab_half_step(BicgstabVectors<T>& v);
  static void bicgstab_update(BicgstabVectors<T>& v);
  static void bicgstab_omega_dots(BicgstabVectors<T>& v);
};

extern template struct VectorKernels<double>;
extern template struct VectorKernels<std::complex<double>>;

}  // namespace pmom::cpu
