// The per-frequency chain of `planarmom sweep`, timed stage by stage: tables → route → solve →
// de-embed.
#include "planarmom/sweep/pipeline.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "feed_lines.hpp"
#include "planarmom/logging/heartbeat.hpp"
#include "planarmom/logging/logging.hpp"
#include "planarmom/mom/deembed.hpp"
#include "planarmom/mom/port_loads.hpp"
#include "routes/z_parts.hpp"
#include "routes/z_route.hpp"
#include "timing.hpp"

namespace pmom::sweep {

using cd = std::complex<double>;

SweepPipeline::SweepPipeline(const geometry::Mesh& mesh, const SweepSettings& settings,
                             Backend<cd>& backend, LineResults* shared_lines)
    : mesh_(mesh),
      settings_(resolved_settings(settings, mesh, backend)),
      backend_(backend),
      rhs_(mom::port_excitations(mesh)),
      feeds_(band_feed_impedances(mesh, settings, backend, shared_lines)),
      port_waves_(port_waves(mesh, settings)),
      parts_(std::make_unique<ZParts>(mesh_, settings_)),
      route_(make_z_route(*parts_, backend_)) {
  backend_.synchronize();  // uploads and zeroing are done before any fill writes
}

SweepPipeline::~SweepPipeline() = default;

bool SweepPipeline::wants_band_tables() const {
  return parts_->interpolates_tables() && !backend_.on_device();
}

void SweepPipeline::make_band_tables(const mom::BandTables::Share& share) {
  parts_->make_band_tables(share);
}

mom::GreensTable SweepPipeline::greens_table(double frequency_hz) {
  if (next_greens_.valid()) prepared_.emplace(next_greens_.get());
  std::optional<mom::GreensTable> prepared = std::move(prepared_);
  prepared_.reset();
  if (prepared && prepared->frequency() == frequency_hz) return std::move(*prepared);
  return parts_->greens_table(frequency_hz);
}

void SweepPipeline::record_outcome(const SolveResult& solved, io::FrequencyRecord& r) {
  r.iterations = solved.iterations;
  r.residual = 0;
  for (std::size_t k = 0; k < solved.rhs.size(); ++k) {
    r.residual = std::max(r.residual, solved.rhs[k].true_residual);
    if (solved.rhs[k].outcome != Outcome::converged)
      PMOM_LOG(warning) << r.frequency_hz * 1e-9 << " GHz, port " << k + 1 << ": "
                        << to_string(solved.rhs[k].outcome) << " after "
                        << solved.rhs[k].iterations << " iterations, residual "
                        << solved.rhs[k].true_residual;
  }
}

io::FrequencyRecord SweepPipeline::run(double frequency_hz, std::vector<cd>& guess,
                                       std::optional<double> next) {
  io::FrequencyRecord r;
  r.frequency_hz = frequency_hz;
  const logging::Heartbeat beat(std::to_string(frequency_hz * 1e-9) + " GHz");
  const auto n = static_cast<index_t>(mesh_.unknowns());

  auto start = clock::now();
  // The ports' terminations, then the lumped elements' impedances (add_gap_loads' order).
  const std::vector<cd> port_loads = settings_.termination == Termination::matched
                                         ? feeds_.matched_loads(frequency_hz)
                                         : std::vector<cd>(mesh_.ports().size(), cd(0.0));
  const std::vector<cd> loads =
      mom::gap_loads(mesh_, port_loads, frequency_hz, feeds_.gap_shunts(frequency_hz));
  // The time recorded for a table built in the background is only the wait for it.
  const mom::GreensTable greens = greens_table(frequency_hz);
  r.seconds_greens = seconds_since(start);
  route_->fill(greens, loads, tables_started_hz_ == frequency_hz, r);
  start = clock::now();
  Solver<cd>& solver = route_->solver(greens, loads);
  r.density = static_cast<double>(r.nnz) / (static_cast<double>(n) * n);
  if (guess.size() != rhs_.size()) guess.assign(rhs_.size(), cd(0.0));
  // With a device fill the host is free while the device solves: the next frequency's Green's
  // table is built meanwhile (on the host's cores, which a CPU solve would need).
  mom::DeviceFill* fill = route_->device_fill();
  const bool overlap = next && fill != nullptr;
  if (overlap)
    next_greens_ = std::async(std::launch::async,
                              [this, f = *next] { return parts_->greens_table(f); });
  const auto ports = static_cast<index_t>(mesh_.ports().size());
  auto iterating = clock::now();  // the LU, where one was made, is not the solve's
  SolveResult solved = solver.solve(rhs_, guess, ports);
  double seconds_iterating = seconds_since(iterating);
  // A solve stopped for a new preconditioner goes on from where it stopped; the route is told
  // of the second part only (its preconditioner's), the record counts both.
  int abandoned = 0;
  if (!solved.all_converged() && route_->renewed(solved, greens, loads)) {
    abandoned = solved.iterations;
    Solver<cd>& renewed = route_->solver(greens, loads);
    iterating = clock::now();
    solved = renewed.solve(rhs_, guess, ports);
    seconds_iterating = seconds_since(iterating);
  }
  r.seconds_solve = seconds_since(start);
  if (overlap) {
    // Its offset tables start on the device's fill stream while this frequency is de-embedded
    // and written.
    prepared_.emplace(next_greens_.get());
    fill->start_tables(*prepared_);
    tables_started_hz_ = prepared_->frequency();
  }
  r.dense_error = std::numeric_limits<double>::quiet_NaN();
  route_->solved(solved, seconds_iterating, rhs_, r);
  record_outcome(solved, r);
  r.iterations += abandoned;

  start = clock::now();
  // With every entry of Z kept the feeds are the line checks' line (its cross-section and
  // losses, a long line): γ from there, not fitted on the feeds' short windows, where the
  // near fields bend it. A thresholded Z is another line, whose γ only a fit on the feeds
  // sees (docs/VALIDATION.md, "Convergence in every knob").
  const bool every_entry = r.nnz == static_cast<long long>(n) * n;
  if (any_calibrated(port_waves_))
    r.s = mom::deembed(mesh_, guess, feeds_.at(frequency_hz),
                       feeds_.propagation_constants(frequency_hz),
                       {port_waves_, feeds_.launches(frequency_hz), port_loads})
              .s;
  else
    r.s = every_entry ? mom::deembed(mesh_, guess, feeds_.at(frequency_hz),
                                     feeds_.propagation_constants(frequency_hz))
                            .s
                      : mom::deembed(mesh_, guess, feeds_.at(frequency_hz)).s;
  r.seconds_deembed = seconds_since(start);
  return r;
}

}  // namespace pmom::sweep
