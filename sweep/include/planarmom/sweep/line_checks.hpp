// The line checks of a sweep (mom::FeedImpedances: each feed's Z0 and matched load at a few
// nodes of the band): read from the on-disk cache where they were computed before, else solved
// on the sweep's backend (a dense Krylov solve on a CUDA device, the mirror-split LU on the
// host) and stored; each logged with its progress, time and whether the cache served it.
#pragma once

#include <complex>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "planarmom/gpusolver/backend.hpp"
#include "planarmom/mom/feed_impedance.hpp"
#include "planarmom/mom/line_characterisation.hpp"
#include "planarmom/sweep/line_cache.hpp"

namespace pmom::sweep {

// The line's system solved on `backend`: Z filled there (by the GPU fill on a CUDA device) and
// LU-factored there (Backend::solve_dense; a mirror-symmetric line, as both checks' are, folded
// first into its two parity parts of half the unknowns, mom/line_mirror.hpp, and each factored
// on its own: a quarter of the work) up to direct_up_to unknowns (by default largest_lu,
// gpusolver's preconditioners/recycled_lu.hpp: what the device's memory holds); above it,
// the exact operator (Z·x by FFT, exact_operator.hpp) and COCG with block Jacobi on tiles
// (tile_blocks.hpp) to `tolerance` (Z is complex symmetric), falling back to the host LU, with
// a warning, when that solve does not converge.
mom::LineSolution solve_line_on_backend(const mom::LineSystem& system,
                                        Backend<std::complex<double>>& backend,
                                        double tolerance = 1e-12,
                                        std::optional<index_t> direct_up_to = std::nullopt);

// Line-check results by the cache's keys and values: those one MPI rank obtained, sent to the
// others (mpi_sweep.hpp) so that every check is solved once.
using LineResults = std::map<std::string, std::vector<double>>;

class SweepLineChecks {
 public:
  // backend: where the lines are solved (nullptr or a host backend: the host LU); cache:
  // nothing to bypass it; total: the number of checks the caller will ask for (for progress;
  // one check is the line's Z0 and, where asked, its matched load); shared: results to use
  // before the cache (another rank's), to which every result obtained here is added.
  SweepLineChecks(Backend<std::complex<double>>* backend, std::optional<LineCache> cache,
                  int total, LineResults* shared = nullptr);

  // The check for mom::FeedImpedances; it refers to this object.
  [[nodiscard]] mom::LineChecks checks();
  // The lumped elements' gap checks for mom::FeedImpedances, cached, shared and logged as the
  // line checks are (their own count, `gap_total`, in the log); it refers to this object.
  [[nodiscard]] mom::GapChecks gaps(int gap_total);

  [[nodiscard]] int from_cache() const { return from_cache_; }
  [[nodiscard]] int from_shared() const { return from_shared_; }
  [[nodiscard]] int solved() const { return solved_; }

 private:
  mom::LineCheck check(const mom::LineSpec& spec, double frequency_hz, bool with_load);
  mom::GapParasitics gap(const mom::LineSpec& spec, double frequency_hz);
  [[nodiscard]] mom::LineSolver solver();
  [[nodiscard]] std::string key(const mom::LineSpec& spec, double frequency_hz,
                                bool with_load) const;
  void report(const mom::LineSpec& spec, double frequency_hz, bool with_load,
              const mom::LineCheck& c, const std::string& how);

  Backend<std::complex<double>>* backend_;
  std::optional<LineCache> cache_;
  LineResults* shared_;
  int total_ = 0, done_ = 0, from_cache_ = 0, from_shared_ = 0, solved_ = 0;
  int gap_total_ = 0, gaps_done_ = 0;
};

}  // namespace pmom::sweep
