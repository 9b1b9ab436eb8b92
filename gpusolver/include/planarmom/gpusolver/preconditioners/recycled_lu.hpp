// A preconditioner for a sequence of systems A(f) that change little from one to the next (a
// frequency sweep): the LU of one, M⁻¹ = A(f₀)⁻¹, preconditions the ones after it. M⁻¹A(f) is
// the identity plus A(f₀)⁻¹(A(f) − A(f₀)), what the step changes, so the iterations follow the
// step, not the discretisation (docs/SOLVERS.md). A new LU is made when its cost spread over
// the solves since the last has become less than what the last solve took (lu_renewal_due), or
// when a solve takes more than kRefreshIterations; and a solve on an LU of another system stops
// once its iterations have cost what a new LU costs (iteration_budget), to finish on a new one:
// a step too far for the old LU never costs more than about twice the cheaper of the two ways.
// The LU costs n³: worth it up to largest_lu.
#pragma once

#include <complex>
#include <cstddef>
#include <functional>
#include <memory>

#include "planarmom/gpusolver/executor.hpp"
#include "planarmom/gpusolver/kernels/dense.hpp"

namespace pmom {

// More iterations than this in one solve and the next system gets a new LU whatever the
// renewal rule says (a step too large for A(f₀)⁻¹ to help much).
inline constexpr int kRefreshIterations = 30;

// The renewal rule. An LU at f₀ costs C iterations' worth of time (its time over the time one
// of the solves since took an iteration, measured), and the solves after it take more
// iterations the further they are from f₀. Renewing after K solves costs
// (C + Σ iterations) / K per system; with iterations that rise, that average is least where
// the next solve would take more than it, so a new LU is due once the last solve took more
// iterations than (C + Σ iterations) / solves, all since the LU. Never due before a solve
// (solves = 0) or without a time per iteration (iterations = 0). The LUs' places follow
// measured times: two runs agree to the solver's tolerance, not bit for bit.
[[nodiscard]] bool lu_renewal_due(double lu_iterations, int solves, long long iterations,
                                  int last_iterations);

// The largest n whose dense complex LU the backend makes, a limit of memory on both: the LU is
// the robust preconditioner (block Jacobi's iterations grow with the layout, and some layouts'
// never converge), and its n³ time is reported as it runs (docs/SOLVERS.md).
[[nodiscard]] index_t largest_lu(const Executor& backend);
// On a device with this much memory free: the LU and the inverse (2 n² complex doubles) in half.
[[nodiscard]] index_t largest_lu_in(std::size_t device_free_bytes);
// On the host with this much memory available: while the LU is made the sweep holds Z twice
// in double (its assembly and the copy factored) and the factors in single, 40 n² bytes, in half.
[[nodiscard]] index_t largest_host_lu_in(std::size_t available_bytes);
// The host's available memory (MemAvailable; the physical memory where that is not known).
[[nodiscard]] std::size_t host_memory_available();

// When a new LU is made. by_cost: the renewal rule or kRefreshIterations, for systems that
// walk away from the LU's (a sweep in order); when_slow: kRefreshIterations alone, for systems
// in no order (an adaptive sweep's), where the rule's premise, that the next system lies further
// on, does not hold.
enum class Renewal { by_cost, when_slow };

class RecycledLu {
 public:
  using cd = std::complex<double>;
  explicit RecycledLu(DenseKernels<cd>& backend, Renewal renewal = Renewal::by_cost)
      : backend_(backend), renewal_(renewal) {}

  // Whether the next system needs a new LU: none yet, the last solve took more than
  // kRefreshIterations, or (by_cost) the renewal rule says so.
  [[nodiscard]] bool stale() const;
  // How a refresh inverts the matrix: make_dense_inverse in single precision where none is
  // given, or another way to the same inverse (folded_inverse.hpp, for a symmetric layout).
  using Factor = std::function<std::shared_ptr<const Operator<cd>>(Block<cd>)>;
  // A new LU of the matrix that make_matrix returns (n x n in backend memory, as
  // DenseKernels::make_dense_inverse takes it), in single precision on the host; its time
  // counts making the matrix too. Throws std::runtime_error when the matrix is singular.
  void refresh(const std::function<Block<cd>()>& make_matrix, const Factor& factor = {});
  // The solve it last preconditioned: its iterations and its time.
  void record(int iterations, double seconds);
  // The iterations a solve on this LU may take before a new LU is cheaper: unlimited (0) for
  // the system the LU was made of, else the LU's time in the iterations of the solves since
  // (at least kRefreshIterations; kRefreshIterations before any was timed).
  [[nodiscard]] int iteration_budget() const;

  [[nodiscard]] std::shared_ptr<const Operator<cd>> inverse() const { return op_; }
  [[nodiscard]] int refreshes() const { return refreshes_; }
  // The last refresh's time in seconds.
  [[nodiscard]] double lu_seconds() const { return lu_seconds_; }

 private:
  DenseKernels<cd>& backend_;
  Renewal renewal_;
  std::shared_ptr<const Operator<cd>> op_;
  double lu_seconds_ = 0;
  // The solves since the LU: their number, iterations and time, and the last one's iterations.
  int solves_ = 0;
  long long iterations_ = 0;
  double seconds_ = 0;
  int last_iterations_ = 0;
  int refreshes_ = 0;
};

}  // namespace pmom
