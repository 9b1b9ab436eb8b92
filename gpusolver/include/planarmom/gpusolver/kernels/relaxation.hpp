// The relaxation kernels of Gauss-Seidel, SSOR and the Jacobi iteration: SOR sweeps over a
// square A's rows in a fixed order of colours, and the diagonal update.
#pragma once

#include <memory>
#include <span>
#include <stdexcept>
#include <string>

#include "planarmom/gpusolver/block.hpp"
#include "planarmom/gpusolver/csr.hpp"
#include "planarmom/gpusolver/kernels/rhs_status.hpp"

namespace pmom {

// SOR sweeps over the rows of a square A (Gauss-Seidel, SSOR), in a fixed order of colours:
// colour c is a range of rows no two of which are coupled (a_ij = a_ji = 0), so a backend may
// update them together. The natural order is row after row.
template <class T> class Sweeper {
 public:
  virtual ~Sweeper() = default;
  [[nodiscard]] virtual index_t rows() const = 0;
};

enum class SweepDirection { forward, backward };

// Columns whose status is not rhs_running are left alone.
template <class T> class RelaxationKernels {
 public:
  virtual ~RelaxationKernels() = default;

  // Whether natural-order sweeps run here; a backend without them sweeps colours only.
  [[nodiscard]] virtual bool sequential_sweeps() const { return true; }
  // A sweeper over A with inv_diag = 1/a_ii (all finite). colour_ptr: colour c holds rows
  // [colour_ptr[c], colour_ptr[c + 1]); empty: the natural order.
  virtual std::unique_ptr<Sweeper<T>> make_sweeper(const Csr<T>& a, std::span<const T> inv_diag,
                                                   std::span<const index_t> colour_ptr) = 0;
  // One SOR sweep on A x = b: row by row in the sweeper's order (reversed for backward),
  // x_i += ω (b_i − Σ_j a_ij x_j) / a_ii. from_zero (forward only) takes x as zero on entry
  // without reading it, so the sweep is the triangular solve x = ω (D + ωL)⁻¹ b.
  virtual void sor_sweep(const Sweeper<T>& s, SweepDirection direction, bool from_zero,
                         real_t<T> omega, const Block<T>& b, Block<T>& x,
                         const Block<int>& status) = 0;
  // x += d ∘ r column by column (d: n x 1); the Jacobi iteration with d = ω D⁻¹.
  virtual void diagonal_update(const Block<T>& d, const Block<T>& r, Block<T>& x,
                               const Block<int>& status) = 0;

 protected:
  // What every make_sweeper checks: A valid and square, inv_diag of its size, colour_ptr
  // empty or non-decreasing from 0 to the row count.
  static void check_sweep_input(const Csr<T>& a, std::span<const T> inv_diag,
                                std::span<const index_t> colour_ptr) {
    a.validate();
    const auto fail = [](const std::string& what) {
      throw std::invalid_argument("make_sweeper: " + what);
    };
    if (a.rows != a.cols)
      fail("A is " + std::to_string(a.rows) + " x " + std::to_string(a.cols) + ", not square");
    if (inv_diag.size() != static_cast<std::size_t>(a.rows))
      fail(std::to_string(inv_diag.size()) + " diagonal entries for " + std::to_string(a.rows) +
           " rows");
    if (colour_ptr.empty()) return;
    bool ordered = colour_ptr.front() == 0 && colour_ptr.back() == a.rows;
    for (std::size_t c = 1; c < colour_ptr.size(); ++c)
      ordered = ordered && colour_ptr[c - 1] <= colour_ptr[c];
    if (!ordered) fail("colour_ptr must rise from 0 to " + std::to_string(a.rows));
  }
};

}  // namespace pmom
