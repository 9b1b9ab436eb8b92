// The fused kernels of Jacobi-preconditioned BiCGSTAB (right preconditioning), each one pass
// over the rows, with the blocks they work on.
#pragma once

#include "planarmom/gpusolver/block.hpp"
#include "planarmom/gpusolver/kernels/rhs_status.hpp"
#include "planarmom/gpusolver/summation.hpp"

namespace pmom {

// Blocks of BiCGSTAB. Without inv_diag the method runs unpreconditioned: then phat must be p
// and shat must be s (the same storage), and the kernels neither read a diagonal nor write p̂,
// ŝ, which keeps an iteration at the 18 vector passes of the BiCGSTAB paper's merged form
// (Jacobi adds 5; docs/PERFORMANCE.md).
template <class T> struct BicgstabVectors {
  Summation summation = Summation::plain;  // of every 1 x k reduction below
  const Block<T>* inv_diag = nullptr;  // n x 1, or nullptr: no preconditioner
  Block<T>* x = nullptr;
  Block<T>* r = nullptr;
  Block<T>* rhat = nullptr;  // fixed shadow residual
  Block<T>* p = nullptr;
  Block<T>* phat = nullptr;  // M⁻¹ p
  Block<T>* v = nullptr;     // A p̂
  Block<T>* s = nullptr;
  Block<T>* shat = nullptr;  // M⁻¹ s
  Block<T>* t = nullptr;     // A ŝ
  Block<T>* rho = nullptr;      // 1 x k, r̂ᴴr of this iteration
  Block<T>* rho_old = nullptr;  // 1 x k, previous iteration's rho
  Block<T>* alpha = nullptr;    // 1 x k
  Block<T>* omega = nullptr;    // 1 x k
  Block<T>* rhat_v = nullptr;   // 1 x k, r̂ᴴ v
  Block<T>* t_s = nullptr;      // 1 x k, tᴴ s
  Block<T>* t_t = nullptr;      // 1 x k, tᴴ t
  Block<real_t<T>>* rnorm2 = nullptr;
  Block<int>* status = nullptr;  // 1 x k, RhsStatus
};

// Columns whose status is not rhs_running are left alone.
template <class T> class BicgstabKernels {
 public:
  virtual ~BicgstabKernels() = default;

  // β = (rho/rho_old)(α/ω); p = r + β(p - ωv); p̂ = M⁻¹p.
  virtual void bicgstab_directions(BicgstabVectors<T>& v) = 0;
  // α = rho / rhat_v; s = r - αv; ŝ = M⁻¹s. Flags rhat_v == 0 as breakdown.
  virtual void bicgstab_half_step(BicgstabVectors<T>& v) = 0;
  // ω = t_s / t_t; x += αp̂ + ωŝ; r = s - ωt; rho_old = rho; rho = r̂ᴴr; rnorm2 = ‖r‖².
  virtual void bicgstab_update(BicgstabVectors<T>& v) = 0;
  // t_s = tᴴs and t_t = tᴴt in one pass.
  virtual void bicgstab_omega_dots(BicgstabVectors<T>& v) = 0;
};

}  // namespace pmom
