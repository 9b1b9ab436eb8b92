// How Z·x is made at a frequency: one interface, one implementation per route, chosen once by
// make_z_route from the typed settings. The pipeline reads: Green's table → route → solve →
// de-embed; a new route (layers, vias) plugs in here and touches no other.
//   fft_route:        rule exact, every interaction, Z·x by FFT (or Z itself where its LU is made)
//   pattern_route:    rule mpie on its fixed pattern, Z rewritten in the solver's CSR each time
//   device_magnitude: rule magnitude on a device, the dense Z filled and thresholded there
//   host_assembled:   rule magnitude on the host, or rule mpie with the dense check or HYB
#pragma once

#include <complex>
#include <memory>
#include <span>

#include "planarmom/gpusolver/backend.hpp"
#include "planarmom/gpusolver/solver.hpp"
#include "planarmom/io/sweep_record.hpp"
#include "planarmom/mom/device_fill.hpp"
#include "planarmom/mom/greens_table.hpp"
#include "routes/z_parts.hpp"

namespace pmom::sweep {

class ZRoute {
 public:
  using cd = std::complex<double>;
  virtual ~ZRoute() = default;

  // Z (or its product) at the Green's table's frequency, each port's gap loaded by `loads`;
  // records nnz, the fill's and the thresholding's seconds in r. tables_started: the device
  // fill already computes this frequency's tables (device_fill()->start_tables).
  virtual void fill(const mom::GreensTable& greens, std::span<const cd> loads,
                    bool tables_started, io::FrequencyRecord& r) = 0;
  // The solver for the last fill, its preconditioner ready (an LU made here counts as the
  // solve's time).
  virtual Solver<cd>& solver(const mom::GreensTable& greens, std::span<const cd> loads) = 0;
  // After that solver's solve, where it did not converge: true where the route has made its
  // preconditioner anew for this frequency (an LU of another one had used up its budget of
  // iterations, recycled_lu.hpp), so that solver() gives one to go on from the solutions so far.
  virtual bool renewed(const SolveResult& result, const mom::GreensTable& greens,
                       std::span<const cd> loads) {
    (void)result, (void)greens, (void)loads;
    return false;
  }
  // After that solver's solve: its result and the seconds it iterated; rhs, x: the right-hand
  // sides and solutions (N×P). Sets what the route checks in r (the dense check's error).
  virtual void solved(const SolveResult& result, double seconds_iterating,
                      std::span<const cd> rhs, io::FrequencyRecord& r) {
    (void)result, (void)seconds_iterating, (void)rhs, (void)r;
  }
  // The device fill whose tables the next frequency may start while this one is de-embedded;
  // null on the host.
  [[nodiscard]] virtual mom::DeviceFill* device_fill() { return nullptr; }
};

// The settings with preconditioner auto resolved (Z's LU with rule exact where the backend
// factors a matrix of this size, block Jacobi otherwise), refused (std::runtime_error) where
// this build and backend cannot run them: before any work, since the line checks come first.
[[nodiscard]] SweepSettings resolved_settings(SweepSettings s, const geometry::Mesh& mesh,
                                              const Backend<std::complex<double>>& backend);

// The route the settings (resolved) ask for on this backend.
[[nodiscard]] std::unique_ptr<ZRoute> make_z_route(ZParts& parts, Backend<std::complex<double>>& backend);

}  // namespace pmom::sweep
