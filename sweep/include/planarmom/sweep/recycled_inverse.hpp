// The sweep's preconditioner for the operator with every interaction (rule exact): Z's LU at
// one frequency, M⁻¹ = Z(f₀)⁻¹, preconditions the frequencies after it. M⁻¹Z(f) is the identity
// plus Z(f₀)⁻¹(Z(f) − Z(f₀)), what the frequency step changes, whatever the cells: the
// iterations stay near ten on any mesh, where block Jacobi's grow as the cells shrink (its tiles
// hold ever less of the layout). On the RO4003 coupler (0.4 mm, COCG to 1e-9) Z(3 GHz)⁻¹ takes
// Z(f) in 5, 6, 8, 10 and 13 iterations at +0.7, 1.3, 3.3, 6.7 and 17% (docs/SOLVERS.md). A new
// LU is made when a solve takes more than kRefreshIterations. The LU costs n³: the sweep takes
// it where n is at most largest_lu (block Jacobi beyond).
#pragma once

#include <complex>
#include <memory>
#include <string>

#include "planarmom/gpusolver/backend.hpp"

namespace pmom::sweep {

// More iterations than this in one solve and the next frequency gets a new LU. The iterations
// rise slowly with the distance from f₀ (13 at 17% above), so a sweep refactors a few times
// over an octave; an LU costs hundreds of iterations (0.3 s against 2 ms an iteration at 9148
// unknowns on an H100, 3 s against 0.13 s at 2126 on 2 cores).
inline constexpr int kRefreshIterations = 30;

// The largest n whose dense LU the backend makes: on a CUDA device 16384 (the LU and the
// inverse, 2 n² complex values, 8.6 GB at that size, a fraction of a second's getrf); on the
// host 8192 (n³: 3.4 s on 2 cores at 2126, ~3 minutes at 8192, 2 GB; block Jacobi's hundreds
// of iterations a frequency cost more than that over a sweep).
[[nodiscard]] index_t largest_lu(const Backend<std::complex<double>>& backend);

class RecycledInverse {
 public:
  using cd = std::complex<double>;
  explicit RecycledInverse(Backend<cd>& backend) : backend_(backend) {}

  // Whether the next frequency needs a new LU: none yet, or the last solve took more than
  // kRefreshIterations.
  [[nodiscard]] bool stale() const { return !op_ || last_iterations_ > kRefreshIterations; }
  // A new LU of z (n x n in backend memory, symmetric), Z at frequency_hz; logged with its time.
  // Throws std::runtime_error when z is singular.
  void refresh(Block<cd> z, double frequency_hz);
  // The iterations of the solve it last preconditioned.
  void record(int iterations) { last_iterations_ = iterations; }

  [[nodiscard]] std::shared_ptr<const Operator<cd>> inverse() const { return op_; }
  [[nodiscard]] int refreshes() const { return refreshes_; }

 private:
  Backend<cd>& backend_;
  std::shared_ptr<const Operator<cd>> op_;
  int last_iterations_ = 0;
  int refreshes_ = 0;
};

}  // namespace pmom::sweep
