// steps::run_adaptive (sweep_steps.hpp): the adaptive sweep's loop. The sampler
// (adaptive_sampler.hpp) names each frequency to solve; the pipeline solves it, the file keeps
// it (so a killed run resumes from its solves), and the fit of every solve goes into the
// finished file and the Touchstone file.
#include <Eigen/Dense>

#include <algorithm>
#include <chrono>

#include "planarmom/logging/logging.hpp"
#include "planarmom/sweep/adaptive_sampler.hpp"
#include "planarmom/sweep/pipeline.hpp"
#include "sweep_steps.hpp"

namespace pmom::sweep {
namespace {

using cd = std::complex<double>;

// The sampler's fit as the file stores it.
io::SweepFit file_fit(const AdaptiveFit& fit, double tolerance) {
  io::SweepFit out;
  out.frequency_hz = fit.frequencies_hz;
  out.s = fit.s;
  for (const bool b : fit.solved) out.solved.push_back(b ? 1 : 0);
  out.estimate = fit.estimate;
  out.tolerance = tolerance;
  out.support_hz = fit.model.support_hz();
  out.weights = fit.model.weights();
  out.support_s = fit.model.values();
  const RationalModel::PoleResidue pr = fit.model.pole_residue();
  out.poles_hz = pr.poles_hz;
  out.residues = pr.residues;
  out.constant = pr.constant;
  return out;
}

// A passive circuit's S has no singular value above 1. The fit is checked at the frequencies it
// filled in, against the same test at the solves (whose own rounding and de-embedding set the
// floor): a warning when the model exceeds both 1 + tolerance and the solves' largest.
void warn_if_not_passive(const io::SweepFit& fit, std::size_t ports) {
  double solved_max = 0, fitted_max = 0, at_hz = 0;
  for (std::size_t i = 0; i < fit.frequency_hz.size(); ++i) {
    const Eigen::Map<const Eigen::Matrix<cd, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> s(
        fit.s.data() + i * ports * ports, static_cast<Eigen::Index>(ports),
        static_cast<Eigen::Index>(ports));
    const double sigma = Eigen::JacobiSVD<Eigen::MatrixXcd>(s).singularValues()(0);
    if (fit.solved[i] != 0) {
      solved_max = std::max(solved_max, sigma);
    } else if (sigma > fitted_max) {
      fitted_max = sigma;
      at_hz = fit.frequency_hz[i];
    }
  }
  if (fitted_max > std::max(1 + fit.tolerance, solved_max))
    PMOM_LOG(warning) << "adaptive sweep: the fitted S is not passive: its largest singular value "
                      << fitted_max << " at " << at_hz * 1e-9 << " GHz (the solves' largest "
                      << solved_max << "); lower frequencies.adaptive_tolerance or solve every "
                                       "frequency";
}

// The loop's state: the sampler, the file and the pipeline, and the solution to start from.
class AdaptiveRun {
 public:
  AdaptiveRun(const SweepSettings& settings, const RunOptions& options, io::SweepFile& file,
              SweepPipeline& pipeline, std::size_t ports)
      : settings_(settings),
        options_(options),
        file_(file),
        pipeline_(pipeline),
        sampler_(settings.frequencies_hz, ports * ports, settings.adaptive_tolerance),
        start_(std::chrono::steady_clock::now()) {}

  // The solves of a killed run that the file resumed, back into the sampler.
  void resume() {
    const auto& f = settings_.frequencies_hz;
    for (const double hz : file_.frequencies()) {
      const std::size_t i = index_of(hz);
      if (i < f.size() && f[i] == hz && !sampler_.is_solved(i)) sampler_.add(i, file_.s(hz));
    }
    if (sampler_.solves() > 0)
      PMOM_LOG(info) << "adaptive sweep: " << sampler_.solves() << " solves from the file resumed";
  }

  void run() {
    // The first solves, with the current pictures' frequencies (only a solve has currents), from
    // the band's centre outwards: the LU preconditioner made at the first (fft_route.cpp) then
    // serves the whole band.
    std::vector<std::size_t> first = sampler_.initial();
    for (const double hz : settings_.current_frequencies_hz) first.push_back(index_of(hz));
    std::sort(first.begin(), first.end());
    first.erase(std::unique(first.begin(), first.end()), first.end());
    std::erase_if(first, [this](std::size_t i) { return sampler_.is_solved(i); });
    const double centre = 0.5 * static_cast<double>(settings_.frequencies_hz.size() - 1);
    std::stable_sort(first.begin(), first.end(), [centre](std::size_t a, std::size_t b) {
      return std::abs(static_cast<double>(a) - centre) < std::abs(static_cast<double>(b) - centre);
    });
    progress_.todo = first.size();
    for (std::size_t k = 0; k < first.size(); ++k)
      solve(first[k], k + 1 < first.size() ? std::optional<double>(
                                                 settings_.frequencies_hz[first[k + 1]])
                                           : std::nullopt);
    while (const std::optional<std::size_t> i = sampler_.next()) {
      PMOM_LOG(info) << "adaptive sweep: " << sampler_.solves()
                     << " solves, the competing models differ by up to " << sampler_.estimate()
                     << " (tolerance " << settings_.adaptive_tolerance << "): solving "
                     << settings_.frequencies_hz[*i] * 1e-9 << " GHz";
      ++progress_.todo;
      solve(*i, std::nullopt);
    }
    if (sampler_.stalled()) {
      PMOM_LOG(warning) << "adaptive sweep: after " << sampler_.solves()
                        << " solves the competing models come no closer than "
                        << sampler_.best_estimate() << ", above the tolerance "
                        << settings_.adaptive_tolerance
                        << " (the solves' own accuracy, solver.tolerance, may not allow it): the "
                           "outputs hold the solved frequencies only; raise "
                           "frequencies.adaptive_tolerance or solve every frequency";
      return;
    }
    PMOM_LOG(info) << "adaptive sweep: " << sampler_.solves() << " of "
                   << settings_.frequencies_hz.size() << " frequencies solved, the models agree "
                   << "within " << sampler_.estimate() << " (tolerance "
                   << settings_.adaptive_tolerance << ")";
  }

  [[nodiscard]] const AdaptiveSampler& sampler() const { return sampler_; }

 private:
  [[nodiscard]] std::size_t index_of(double hz) const {
    const auto& f = settings_.frequencies_hz;
    return static_cast<std::size_t>(std::lower_bound(f.begin(), f.end(), hz) - f.begin());
  }

  // Solves grid frequency i, starting from the nearest solve's currents.
  void solve(std::size_t i, std::optional<double> next) {
    const double hz = settings_.frequencies_hz[i];
    const std::optional<double> from = nearest_solved(i);
    if (!from) {
      guess_.clear();
    } else if (*from != last_hz_) {
      guess_ = file_.currents(*from);
    }
    io::FrequencyRecord r = pipeline_.run(hz, guess_, next);
    r.currents = guess_;
    file_.append(r);
    last_hz_ = hz;
    sampler_.add(i, r.s);
    ++progress_.done;
    progress_.record = &r;
    progress_.elapsed_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (options_.progress) options_.progress(progress_);
  }

  [[nodiscard]] std::optional<double> nearest_solved(std::size_t i) const {
    std::optional<double> best;
    for (std::size_t j = 0; j < settings_.frequencies_hz.size(); ++j)
      if (sampler_.is_solved(j) &&
          (!best || std::abs(settings_.frequencies_hz[j] - settings_.frequencies_hz[i]) <
                        std::abs(*best - settings_.frequencies_hz[i])))
        best = settings_.frequencies_hz[j];
    return best;
  }

  const SweepSettings& settings_;
  const RunOptions& options_;
  io::SweepFile& file_;
  SweepPipeline& pipeline_;
  AdaptiveSampler sampler_;
  std::vector<cd> guess_;
  double last_hz_ = 0;
  SweepProgress progress_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

io::SweepData steps::run_adaptive(const SweepJob& job, const SweepSettings& settings,
                                  const RunOptions& options, const std::string& backend_name,
                                  Backend<cd>& backend) {
  io::SweepFile file(settings.hdf5, sweep_info(job, backend_name),
                     file_mode(options.continuation));
  SweepPipeline pipeline(job.mesh, settings, backend);
  const std::size_t ports = job.mesh.ports().size();
  AdaptiveRun run(settings, options, file, pipeline, ports);
  run.resume();
  run.run();
  if (run.sampler().stalled()) return finish(file, job, settings);
  const io::SweepFit fit = file_fit(run.sampler().fit(), settings.adaptive_tolerance);
  warn_if_not_passive(fit, ports);
  return finish(file, job, settings, &fit);
}

}  // namespace pmom::sweep
