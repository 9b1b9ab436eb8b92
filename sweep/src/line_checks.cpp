// SweepLineChecks (line_checks.hpp): cached, logged line checks.
#include "planarmom/sweep/line_checks.hpp"

#include <chrono>
#include <cstdio>
#include <iomanip>
#include <numbers>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "planarmom/logging/heartbeat.hpp"
#include "planarmom/logging/logging.hpp"

namespace pmom::sweep {
namespace {

using cd = std::complex<double>;

// Bumped whenever the line checks' numbers change (mesh rules, quadrature, fit), so that a
// cache written by an older version is not read.
constexpr int kLineNumerics = 3;
// Likewise for the lumped elements' gap checks (mom::gap_parasitics).
constexpr int kGapNumerics = 1;

std::string hex(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%a", v);
  return text;
}

bool on_device(const Backend<cd>* backend) {
  return backend != nullptr && backend->on_device();
}

// A check as the cache and the other ranks keep it: γ, εeff, Z0, unknowns, the load and the
// launch (an older cache's eight values are a miss).
std::vector<double> stored_values(const mom::LineCheck& c, bool with_load) {
  std::vector<double> values{c.line.gamma.real(), c.line.gamma.imag(), c.line.eps_eff,
                             c.line.z0.real(),    c.line.z0.imag(),
                             static_cast<double>(c.line.unknowns)};
  if (with_load) {
    values.insert(values.end(), {c.load.real(), c.load.imag()});
    for (const cd e : c.launch.e) values.insert(values.end(), {e.real(), e.imag()});
  }
  return values;
}

// The check those values hold, or nothing when they are not as many as it needs.
std::optional<mom::LineCheck> stored_check(const std::vector<double>& v, double frequency_hz,
                                           bool with_load) {
  if (v.size() != (with_load ? 16u : 6u)) return std::nullopt;
  mom::LineCheck c;
  c.line.frequency_hz = frequency_hz;
  c.line.gamma = {v[0], v[1]};
  c.line.eps_eff = v[2];
  c.line.z0 = {v[3], v[4]};
  c.line.unknowns = static_cast<int>(v[5]);
  if (with_load) {
    c.load = {v[6], v[7]};
    for (std::size_t k = 0; k < 4; ++k) c.launch.e[k] = {v[8 + 2 * k], v[9 + 2 * k]};
  }
  return c;
}

// Where a check's result came from.
enum class Source { shared, cache, solved };

// A check's result by key: another rank's (shared), else the cache's, else solved and stored in
// both. decode turns stored values into the result (nothing when they are not its values: an
// older cache's), encode the result into values; each source bumps its count.
template <class Decode, class Encode, class Solve>
auto shared_cached_or_solved(LineResults* shared, const std::optional<LineCache>& cache,
                             const std::string& key, Decode decode, Encode encode, Solve solve,
                             int& from_shared, int& from_cache, int& solved) {
  using Result = decltype(solve());
  if (shared)
    if (const auto it = shared->find(key); it != shared->end())
      if (std::optional<Result> r = decode(it->second)) {
        ++from_shared;
        return std::pair{std::move(*r), Source::shared};
      }
  if (cache)
    if (const auto v = cache->get(key))
      if (std::optional<Result> r = decode(*v)) {
        ++from_cache;
        if (shared) (*shared)[key] = *v;
        return std::pair{std::move(*r), Source::cache};
      }
  Result r = solve();
  ++solved;
  const std::vector<double> values = encode(r);
  if (cache) cache->put(key, values);
  if (shared) (*shared)[key] = values;
  return std::pair{std::move(r), Source::solved};
}

}  // namespace

SweepLineChecks::SweepLineChecks(Backend<cd>* backend, std::optional<LineCache> cache, int total,
                                 LineResults* shared)
    : backend_(backend), cache_(std::move(cache)), shared_(shared), total_(total) {}

mom::LineChecks SweepLineChecks::checks() {
  return [this](const mom::LineSpec& spec, double f, bool with_load) {
    return check(spec, f, with_load);
  };
}

mom::GapChecks SweepLineChecks::gaps(int gap_total) {
  gap_total_ = gap_total;
  return [this](const mom::LineSpec& spec, double f) { return gap(spec, f); };
}

mom::GapParasitics SweepLineChecks::gap(const mom::LineSpec& spec, double frequency_hz) {
  ++gaps_done_;
  double seconds = 0;
  const auto [g, source] = shared_cached_or_solved(
      shared_, cache_,
      "gap numerics " + std::to_string(kGapNumerics) + " of the " +
          key(spec, frequency_hz, false),
      [](const std::vector<double>& v) -> std::optional<mom::GapParasitics> {
        if (v.size() != 4) return std::nullopt;
        return mom::GapParasitics{{v[0], v[1]}, {v[2], v[3]}};
      },
      [](const mom::GapParasitics& r) {
        return std::vector<double>{r.shunt.real(), r.shunt.imag(), r.line_voltage.real(),
                                   r.line_voltage.imag()};
      },
      [&] {
        const auto start = std::chrono::steady_clock::now();
        const logging::Heartbeat beat("gap check " + std::to_string(gaps_done_) + "/" +
                                      std::to_string(gap_total_));
        const mom::LineResult line = mom::line_check(spec, frequency_hz, false, solver()).line;
        const mom::GapParasitics r =
            mom::gap_parasitics(spec, frequency_hz, line.gamma, line.z0, solver());
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return r;
      },
      from_shared_, from_cache_, solved_);
  if (source == Source::shared) return g;  // solved or read once for the whole sweep, logged then
  std::ostringstream how;
  if (source == Source::cache) how << "from the cache";
  else how << seconds << " s";
  PMOM_LOG(info) << "gap check " << gaps_done_ << "/" << gap_total_ << " (the strip of a lumped "
                 << "element or internal port, W " << spec.width_mm << " mm, " << spec.cells_across
                 << " cells across, " << frequency_hz * 1e-9 << " GHz): the gap's C "
                 << std::setprecision(4)
                 << g.shunt.imag() / (2 * std::numbers::pi * frequency_hz) * 1e12
                 << " pF, taken out of the element or port; " << how.str();
  return g;
}

mom::LineSolver SweepLineChecks::solver() {
  if (!on_device(backend_)) return mom::solve_line_by_lu;
  return [this](const mom::LineSystem& s) { return solve_line_on_backend(s, *backend_); };
}

namespace {

std::string cover_key(const mom::LineSpec& spec) {
  std::string key;
  for (const mom::Layer& l : spec.cover)
    key += " cover " + hex(l.eps_r) + " " + hex(l.height_m) + " " + hex(l.loss_tangent);
  for (const mom::Layer& l : spec.base)
    key += " base " + hex(l.eps_r) + " " + hex(l.height_m) + " " + hex(l.loss_tangent);
  return key + (spec.top == mom::Top::ground ? " top ground" : "");
}

}  // namespace

std::string SweepLineChecks::key(const mom::LineSpec& spec, double frequency_hz,
                                 bool with_load) const {
  return std::string(with_load ? "line and load" : "line") + " numerics " +
         std::to_string(kLineNumerics) + " solver " + (on_device(backend_) ? "device" : "lu") +
         " eps_r " + hex(spec.eps_r) + " h_mm " + hex(spec.height_mm) + " w_mm " +
         hex(spec.width_mm) + " across " + std::to_string(spec.cells_across) + " half_mm " +
         hex(spec.half_length_mm) + " edges " + (spec.edge_profiles ? "1" : "0") +
         (spec.periodic ? " periodic" : "") + " f_hz " +
         hex(frequency_hz) +
         // Square cells keep the keys they had before cells could be oblong, bare boards
         // theirs from before covers.
         (spec.along_mm > 0 ? " along_mm " + hex(spec.along_mm) : std::string()) +
         cover_key(spec) +
         (!spec.lossy()
              ? std::string()
              : " tand " + hex(spec.loss_tangent) + " sigma " +
                    hex(spec.metal.conductivity_s_per_m) + " t_m " + hex(spec.metal.thickness_m) +
                    // The strips' loss model: 2, both faces (surface_loss.hpp).
                    (spec.metal.perfect() ? std::string() : " strips 2"));
}

void SweepLineChecks::report(const mom::LineSpec& spec, double frequency_hz, bool with_load,
                             const mom::LineCheck& c, const std::string& how) {
  ++done_;
  // Z0 and εeff to 6 digits: what the de-embedding refers the waves to, and what a user
  // compares with the closed forms (or with another mesh's checks).
  std::ostringstream result, along;
  result << std::setprecision(6) << "Z0 " << c.line.z0.real() << " ohm, eps_eff "
         << c.line.eps_eff;
  if (spec.along_mm > 0) along << ", cells " << spec.along_mm << " mm along";
  PMOM_LOG(info) << "line check " << done_ << "/" << total_ << " ("
                 << (spec.periodic ? "Z0 of the period" : "Z0")
                 << (with_load ? " and matched load" : "") << ", W " << spec.width_mm << " mm, "
                 << spec.cells_across << " cells across" << along.str() << ", " << frequency_hz * 1e-9
                 << " GHz, half " << spec.half_length_mm << " mm): " << result.str() << "; "
                 << how;
}

mom::LineCheck SweepLineChecks::check(const mom::LineSpec& spec, double frequency_hz,
                                      bool with_load) {
  const auto [c, source] = shared_cached_or_solved(
      shared_, cache_, key(spec, frequency_hz, with_load),
      [&](const std::vector<double>& v) { return stored_check(v, frequency_hz, with_load); },
      [&](const mom::LineCheck& r) { return stored_values(r, with_load); },
      [&] {
        const logging::Heartbeat beat("line check " + std::to_string(done_ + 1) + "/" +
                                      std::to_string(total_));
        return mom::line_check(spec, frequency_hz, with_load, solver());
      },
      from_shared_, from_cache_, solved_);
  switch (source) {
    case Source::shared:
      ++done_;  // solved or read once for the whole sweep, and logged then
      PMOM_LOG(debug) << "line check " << done_ << "/" << total_ << ": shared";
      break;
    case Source::cache: report(spec, frequency_hz, with_load, c, "from the cache"); break;
    case Source::solved: {
      std::ostringstream how;
      how << c.line.unknowns << " unknowns, " << c.line.seconds_assembly + c.line.seconds_solve
          << " s (set-up and fill " << c.line.seconds_assembly << " s, solve "
          << c.line.seconds_solve << " s)";
      report(spec, frequency_hz, with_load, c, how.str());
      break;
    }
  }
  return c;
}

}  // namespace pmom::sweep
