// band_feed_impedances (feed_lines.hpp) and solve_line_checks (pipeline.hpp).
#include "feed_lines.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>

#include "planarmom/logging/logging.hpp"
#include "planarmom/mom/feed_impedance.hpp"
#include "planarmom/mom/static_near_store.hpp"
#include "planarmom/mom/surface_impedance.hpp"
#include "planarmom/sweep/line_cache.hpp"
#include "planarmom/sweep/pipeline.hpp"
#include "timing.hpp"

namespace pmom::sweep {

std::vector<mom::PortWaves> port_waves(const geometry::Mesh& mesh, const SweepSettings& s) {
  const bool every_entry = !(s.density < 1 || s.reach_heights > 0);
  if (s.deembedding == Deembedding::calibrated && !every_entry)
    throw std::invalid_argument(
        "/deembedding: calibrated ports need every entry of Z (as on their line standard): "
        "drop sparsify's density and reach_heights, or use deembedding: fit");
  std::vector<mom::PortWaves> waves;
  for (const geometry::MeshPort& port : mesh.ports()) {
    if (port.internal && !every_entry)
      throw std::invalid_argument(
          "/ports: internal port '" +
          mesh.layout().ports[static_cast<std::size_t>(port.port)].name +
          "' needs every entry of Z (its gap's near field is calibrated on a line that keeps "
          "them): drop sparsify's density and reach_heights");
    const bool calibrated =
        port.internal || s.deembedding == Deembedding::calibrated ||
        (s.deembedding == Deembedding::automatic && every_entry && !mom::has_fit_window(mesh, port));
    waves.push_back(calibrated ? mom::PortWaves::calibrated : mom::PortWaves::fitted);
  }
  return waves;
}

bool any_calibrated(const std::vector<mom::PortWaves>& waves) {
  return std::find(waves.begin(), waves.end(), mom::PortWaves::calibrated) != waves.end();
}

mom::FeedImpedances band_feed_impedances(const geometry::Mesh& mesh, const SweepSettings& s,
                                         Backend<std::complex<double>>& backend,
                                         LineResults* shared) {
  const auto start = clock::now();
  const auto [lo, hi] = std::minmax_element(s.frequencies_hz.begin(), s.frequencies_hz.end());
  const bool matched = s.termination == Termination::matched;
  // The loads' line is the ports' calibration standard too.
  const bool calibrating = any_calibrated(port_waves(mesh, s));
  const bool with_load = matched || calibrating;
  constexpr int kNodes = 6;
  std::set<geometry::StripKey> widths;  // the distinct feed lines (on each layer)
  for (const geometry::MeshPort& port : mesh.ports())
    if (!port.internal) widths.insert(port.line_key());
  const int nodes = *lo == *hi ? 1 : kNodes;
  const int total = static_cast<int>(widths.size()) * nodes;
  std::optional<LineCache> cache;
  if (s.line_cache) cache.emplace(LineCache::default_folder());
  // The near tables' static parts (every plan's, the line checks' first) beside the lines.
  mom::store_static_near_parts(cache ? cache->folder() / "static-near" : std::filesystem::path());
  PMOM_LOG(info) << total << " line checks for the feeds' Z0"
                 << (matched ? " and loads" : "")
                 << (calibrating ? ", calibrating the ports" : "")
                 << (cache ? ", cached in " + cache->folder().string()
                           : std::string(", cache bypassed (--no-line-cache)"));
  // A lumped element's or internal port's strip gets a gap check at every node (one per
  // distinct strip).
  const int gap_total = static_cast<int>(mesh.gap_strips().keys.size()) * nodes;
  if (gap_total > 0)
    PMOM_LOG(info) << gap_total << " gap checks for the lumped elements' and internal ports' gaps";
  SweepLineChecks checks(&backend, std::move(cache), total, shared);
  mom::FeedImpedances feeds(mesh, *lo, *hi, kNodes, with_load, checks.checks(),
                            checks.gaps(gap_total));
  PMOM_LOG(info) << "line checks: " << seconds_since(start) << " s, " << checks.solved()
                 << " solved, " << checks.from_cache() << " from the cache"
                 << (checks.from_shared() > 0
                         ? ", " + std::to_string(checks.from_shared()) + " shared"
                         : std::string());
  return feeds;
}

void solve_line_checks(const geometry::Mesh& mesh, const SweepSettings& settings,
                       Backend<std::complex<double>>& backend, LineResults& results) {
  (void)band_feed_impedances(mesh, settings, backend, &results);
}

}  // namespace pmom::sweep
