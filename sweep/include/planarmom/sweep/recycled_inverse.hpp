// The sweep's preconditioner for the operator with every interaction (rule exact): Z's LU at
// one frequency, M⁻¹ = Z(f₀)⁻¹, preconditions the frequencies after it. M⁻¹Z(f) is the identity
// plus Z(f₀)⁻¹(Z(f) − Z(f₀)), what the frequency step changes, whatever the cells: the
// iterations stay near ten on any mesh, where block Jacobi's grow as the cells shrink (its tiles
// hold ever less of the layout). On the RO4003 coupler (0.4 mm, COCG to 1e-9) Z(3 GHz)⁻¹ takes
// Z(f) in 5, 6, 8, 10 and 13 iterations at +0.7, 1.3, 3.3, 6.7 and 17% (docs/SOLVERS.md). A new
// LU is made when its cost spread over the frequencies since the last has become less than
// what the last solve took (lu_renewal_due), or when a solve takes more than
// kRefreshIterations. The LU costs n³: the sweep takes it where n is at most largest_lu (block
// Jacobi beyond).
#pragma once

#include <complex>
#include <functional>
#include <memory>
#include <string>

#include "planarmom/gpusolver/backend.hpp"

namespace pmom::sweep {

// More iterations than this in one solve and the next frequency gets a new LU whatever the
// renewal rule says (a frequency step too large for Z(f₀)⁻¹ to help much).
inline constexpr int kRefreshIterations = 30;

// The renewal rule. An LU at f₀ costs C iterations' worth of time (its time over the time one
// of the solves since took an iteration, measured: ~50 for 2126 unknowns on 2 cores, ~150 for
// 9148 on an H100), and the solves after it take more iterations the further they are from f₀
// (1 at f₀, 4 one percent above, 11 at 25%, 21 at 100% on the RO4003 coupler). Renewing
// after K solves costs (C + Σ iterations) / K per frequency; with iterations that rise, that
// average is least where the next solve would take more than it, so a new LU is due once the
// last solve took more iterations than (C + Σ iterations) / solves, all since the LU. Never
// due before a solve (solves = 0) or without a time per iteration (iterations = 0). The LUs'
// frequencies follow measured times: two runs agree to the solver's tolerance, not bit for bit.
[[nodiscard]] bool lu_renewal_due(double lu_iterations, int solves, long long iterations,
                                  int last_iterations);

// The largest n whose dense LU the backend makes: on a device, as large as the LU and the
// inverse (2 n² complex values) fit in half its free memory (36 500 on an 80 GB H100: the 0.2 mm
// FR-4 coupler's 30 064 unknowns: 6.4 s an LU and 8–32 iterations a frequency there, where
// block Jacobi took ~1450); on the host 8192 (n³: 3.4 s on 2 cores at 2126, ~3 minutes at
// 8192, 2 GB; block Jacobi's hundreds of iterations a frequency cost more than that over a
// sweep).
[[nodiscard]] index_t largest_lu(const Backend<std::complex<double>>& backend);
// The same for a backend with this much device memory free (0: the host's).
[[nodiscard]] index_t largest_lu_in(std::size_t device_free_bytes);

class RecycledInverse {
 public:
  using cd = std::complex<double>;
  explicit RecycledInverse(Backend<cd>& backend) : backend_(backend) {}

  // Whether the next frequency needs a new LU: none yet, the renewal rule says so, or the last
  // solve took more than kRefreshIterations.
  [[nodiscard]] bool stale() const;
  // A new LU of the z that make_z returns (n x n in backend memory, symmetric), Z at
  // frequency_hz; logged with its time, which counts making z too (the exact operator assembles
  // a dense Z for it alone). Throws std::runtime_error when z is singular.
  void refresh(const std::function<Block<cd>()>& make_z, double frequency_hz);
  // The solve it last preconditioned: its iterations and its time.
  void record(int iterations, double seconds);

  [[nodiscard]] std::shared_ptr<const Operator<cd>> inverse() const { return op_; }
  [[nodiscard]] int refreshes() const { return refreshes_; }

 private:
  Backend<cd>& backend_;
  std::shared_ptr<const Operator<cd>> op_;
  double lu_seconds_ = 0;
  // The solves since the LU: their number, iterations and time, and the last one's iterations.
  int solves_ = 0;
  long long iterations_ = 0;
  double seconds_ = 0;
  int last_iterations_ = 0;
  int refreshes_ = 0;
};

}  // namespace pmom::sweep
