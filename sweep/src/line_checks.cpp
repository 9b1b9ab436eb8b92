// SweepLineChecks (line_checks.hpp): cached, logged line checks.
#include "planarmom/sweep/line_checks.hpp"

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "planarmom/io/logging.hpp"

namespace pmom::sweep {
namespace {

using cd = std::complex<double>;

// Bumped whenever the line checks' numbers change (mesh rules, quadrature, fit), so that a
// cache written by an older version is not read.
constexpr int kLineNumerics = 1;

std::string hex(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%a", v);
  return text;
}

bool on_device(const Backend<cd>* backend) {
  return backend != nullptr && backend->name().rfind("cuda", 0) == 0;
}

}  // namespace

SweepLineChecks::SweepLineChecks(Backend<cd>* backend, std::optional<LineCache> cache, int total)
    : backend_(backend), cache_(std::move(cache)), total_(total) {}

mom::LineChecks SweepLineChecks::checks() {
  mom::LineChecks c;
  c.characterise = [this](const mom::LineSpec& spec, double f) { return characterise(spec, f); };
  c.matched_load = [this](const mom::LineSpec& spec, double f, cd gamma) {
    return matched_load(spec, f, gamma);
  };
  return c;
}

mom::LineSolver SweepLineChecks::solver() {
  if (!on_device(backend_)) return mom::solve_line_by_lu;
  return [this](const mom::LineSystem& s) { return solve_line_on_backend(s, *backend_); };
}

std::string SweepLineChecks::key(const char* what, const mom::LineSpec& spec,
                                 double frequency_hz) const {
  return std::string(what) + " numerics " + std::to_string(kLineNumerics) + " solver " +
         (on_device(backend_) ? "krylov" : "lu") + " eps_r " + hex(spec.eps_r) + " h_mm " +
         hex(spec.height_mm) + " w_mm " + hex(spec.width_mm) + " across " +
         std::to_string(spec.cells_across) + " half_mm " + hex(spec.half_length_mm) +
         " edges " + (spec.edge_profiles ? "1" : "0") + " f_hz " + hex(frequency_hz);
}

void SweepLineChecks::report(const char* what, const mom::LineSpec& spec, double frequency_hz,
                             const std::string& how) {
  ++done_;
  PMOM_LOG(info) << "line check " << done_ << "/" << total_ << " (" << what << ", W "
                 << spec.width_mm << " mm, " << spec.cells_across << " cells across, "
                 << frequency_hz * 1e-9 << " GHz, half " << spec.half_length_mm
                 << " mm): " << how;
}

mom::LineResult SweepLineChecks::characterise(const mom::LineSpec& spec, double frequency_hz) {
  const std::string k = key("line", spec, frequency_hz);
  if (cache_) {
    if (const auto v = cache_->get(k); v && v->size() == 6) {
      ++from_cache_;
      report("Z0", spec, frequency_hz, "from the cache");
      mom::LineResult r;
      r.frequency_hz = frequency_hz;
      r.gamma = {(*v)[0], (*v)[1]};
      r.eps_eff = (*v)[2];
      r.z0 = {(*v)[3], (*v)[4]};
      r.unknowns = static_cast<int>((*v)[5]);
      return r;
    }
  }
  const mom::LineResult r = mom::characterise_line(spec, frequency_hz, solver());
  ++solved_;
  report("Z0", spec, frequency_hz,
         std::to_string(r.unknowns) + " unknowns, " +
             std::to_string(r.seconds_assembly + r.seconds_solve) + " s");
  if (cache_)
    cache_->put(k, {r.gamma.real(), r.gamma.imag(), r.eps_eff, r.z0.real(), r.z0.imag(),
                    static_cast<double>(r.unknowns)});
  return r;
}

cd SweepLineChecks::matched_load(const mom::LineSpec& spec, double frequency_hz, cd gamma) {
  const std::string k =
      key("load", spec, frequency_hz) + " gamma " + hex(gamma.real()) + " " + hex(gamma.imag());
  if (cache_) {
    if (const auto v = cache_->get(k); v && v->size() == 2) {
      ++from_cache_;
      report("matched load", spec, frequency_hz, "from the cache");
      return {(*v)[0], (*v)[1]};
    }
  }
  const auto start = std::chrono::steady_clock::now();
  const cd load = mom::matched_gap_load(spec, frequency_hz, gamma, solver());
  ++solved_;
  report("matched load", spec, frequency_hz,
         std::to_string(std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                            .count()) +
             " s");
  if (cache_) cache_->put(k, {load.real(), load.imag()});
  return load;
}

}  // namespace pmom::sweep
