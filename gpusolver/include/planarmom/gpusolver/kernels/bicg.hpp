// The fused kernels of the BiCG family (BiCG, COCG, CG), each one pass over the rows, with the
// blocks they work on.
#pragma once

#include "planarmom/gpusolver/block.hpp"
#include "planarmom/gpusolver/kernels/rhs_status.hpp"
#include "planarmom/gpusolver/summation.hpp"

namespace pmom {

// How the BiCG family's shadow (left) vectors relate to the primal ones. One kernel set thus
// serves BiCG (explicit r̃, p̃), COCG (r̃ = conj(r) for Aᵀ = A) and CG (r̃ = r for Aᴴ = A).
enum class Shadow { explicit_vectors, conjugate, same };

// Blocks of the BiCG family (BiCG, COCG, CG), n x k unless marked 1 x k.
template <class T> struct BicgVectors {
  Shadow shadow = Shadow::explicit_vectors;
  Summation summation = Summation::plain;  // of rho and rnorm2
  const Block<T>* inv_diag = nullptr;  // n x 1, Jacobi
  Block<T>* x = nullptr;
  Block<T>* r = nullptr;
  Block<T>* rt = nullptr;  // shadow residual, explicit_vectors only
  Block<T>* p = nullptr;
  Block<T>* pt = nullptr;  // shadow direction, explicit_vectors only
  Block<T>* q = nullptr;   // A p
  Block<T>* qt = nullptr;  // Aᴴ p̃, explicit_vectors only
  Block<T>* rho = nullptr;      // 1 x k, r̃ᴴ M⁻¹ r of this iteration
  Block<T>* rho_old = nullptr;  // 1 x k, previous iteration's rho
  Block<T>* sigma = nullptr;    // 1 x k, p̃ᴴ A p
  Block<real_t<T>>* rnorm2 = nullptr;  // 1 x k, ‖r‖², written by bicg_update / bicg_reduce
  Block<int>* status = nullptr;        // 1 x k, RhsStatus
};

// Columns whose status is not rhs_running are left alone.
template <class T> class BicgKernels {
 public:
  virtual ~BicgKernels() = default;

  // rho = r̃ᴴ M⁻¹ r and rnorm2 = ‖r‖² (start-up and restarts).
  virtual void bicg_reduce(BicgVectors<T>& v) = 0;
  // β = rho/rho_old; p = M⁻¹r + βp; p̃ = M⁻ᴴr̃ + β̄p̃. Flags rho == 0 as breakdown.
  virtual void bicg_directions(BicgVectors<T>& v) = 0;
  // α = rho/sigma; x += αp; r -= αq; r̃ -= ᾱq̃; then rho_old = rho, rho = r̃ᴴ M⁻¹ r of the
  // new r, and rnorm2 = ‖r‖². Rotating the scalars here, not on the host, keeps every
  // pointer of an iteration fixed, so a device backend can replay it as a captured graph.
  // Flags sigma == 0 as breakdown and leaves that column unchanged.
  virtual void bicg_update(BicgVectors<T>& v) = 0;
};

}  // namespace pmom
