// One frequency of a sweep (DESIGN §2): Green's table → a route that makes Z·x (chosen once from
// the settings, sweep/src/routes/z_route.hpp) → the P port solutions by the Krylov solver
// (warm-started from the previous frequency) → the de-embedded S, referred first to the feed
// lines' own Z0 (from line checks at a few nodes of the band).
#pragma once

#include <complex>
#include <future>
#include <memory>
#include <optional>
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/gpusolver/backend.hpp"
#include "planarmom/io/sweep_record.hpp"
#include "planarmom/mom/deembed.hpp"
#include "planarmom/mom/band_tables.hpp"
#include "planarmom/mom/feed_impedance.hpp"
#include "planarmom/mom/greens_table.hpp"
#include "planarmom/sweep/config.hpp"
#include "planarmom/sweep/line_checks.hpp"

namespace pmom::sweep {

class ZParts;
class ZRoute;

// The feeds' line checks that SweepPipeline's constructor runs first, solved (or read from the
// cache) into `results`: what an MPI sweep's rank 0 sends every rank before they build their
// pipelines at once.
void solve_line_checks(const geometry::Mesh& mesh, const SweepSettings& settings,
                       Backend<std::complex<double>>& backend, LineResults& results);

class SweepPipeline {
 public:
  // The feeds' line checks come first (line_checks.hpp): from `shared_lines` where they are
  // there (solve_line_checks), and every result is added to it. Throws std::runtime_error
  // where this build and backend cannot run the settings.
  SweepPipeline(const geometry::Mesh& mesh, const SweepSettings& settings,
                Backend<std::complex<double>>& backend, LineResults* shared_lines = nullptr);
  ~SweepPipeline();
  SweepPipeline(const SweepPipeline&) = delete;
  SweepPipeline& operator=(const SweepPipeline&) = delete;

  // Computes one frequency. `guess` (N×P column-major, or empty) is the initial guess and
  // returns the solutions, for the next frequency. Solver outcomes other than convergence are
  // logged as warnings and the record is still returned (its residual says how far it got).
  // `next`: the frequency the caller will ask for next; on a device its Green's table is built
  // on the host while this frequency solves, and its offset tables are computed on the device
  // while this one is de-embedded and written.
  io::FrequencyRecord run(double frequency_hz, std::vector<std::complex<double>>& guess,
                          std::optional<double> next = std::nullopt);

  // Whether Z is filled on the host from tables interpolated over the band (the cpu backend,
  // accuracy.interpolate_tables, SweepSettings::kBandTablesFrom frequencies or more).
  [[nodiscard]] bool wants_band_tables() const;
  // Makes the band's tables now, their evaluations shared by `share` (an MPI sweep's ranks,
  // each calling this); otherwise the first host fill makes them, alone.
  void make_band_tables(const mom::BandTables::Share& share = {});

 private:
  // This frequency's Green's table: the one built in the background during the last solve
  // where there is one, else built now.
  mom::GreensTable greens_table(double frequency_hz);
  // The solve's outcome into r: its iterations, the largest residual, a warning per port that
  // did not converge.
  static void record_outcome(const SolveResult& solved, io::FrequencyRecord& r);

  const geometry::Mesh& mesh_;
  SweepSettings settings_;  // resolved: no preconditioner auto
  Backend<std::complex<double>>& backend_;
  std::vector<std::complex<double>> rhs_;  // N×P delta gaps
  mom::FeedImpedances feeds_;
  std::vector<mom::PortWaves> port_waves_;  // how each port's waves are found
  std::unique_ptr<ZParts> parts_;
  std::unique_ptr<ZRoute> route_;
  // The next frequency's Green's table: being built, then built; the frequency whose offset
  // tables the device fill holds or is computing (0: none).
  std::future<mom::GreensTable> next_greens_;
  std::optional<mom::GreensTable> prepared_;
  double tables_started_hz_ = 0;
};

}  // namespace pmom::sweep
