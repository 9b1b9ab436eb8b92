// band_feed_impedances (feed_lines.hpp) and solve_line_checks (pipeline.hpp).
#include "feed_lines.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <string>

#include "planarmom/logging/logging.hpp"
#include "planarmom/mom/feed_impedance.hpp"
#include "planarmom/mom/surface_impedance.hpp"
#include "planarmom/sweep/line_cache.hpp"
#include "planarmom/sweep/pipeline.hpp"
#include "timing.hpp"

namespace pmom::sweep {

mom::FeedImpedances band_feed_impedances(const geometry::Mesh& mesh, const SweepSettings& s,
                                         Backend<std::complex<double>>& backend,
                                         LineResults* shared) {
  const auto start = clock::now();
  const auto [lo, hi] = std::minmax_element(s.frequencies_hz.begin(), s.frequencies_hz.end());
  const bool matched = s.termination == Termination::matched;
  constexpr int kNodes = 6;
  std::set<int> widths;
  for (const geometry::MeshPort& port : mesh.ports()) widths.insert(port.count);
  const int nodes = *lo == *hi ? 1 : kNodes;
  // Every feed has the board's substrate and metal, so the same checks per node.
  const geometry::Substrate& sub = mesh.layout().substrate;
  mom::LineSpec board;
  board.loss_tangent = sub.loss_tangent;
  board.metal = mom::conductor(mesh.layout().metal);
  const int total = static_cast<int>(widths.size()) * nodes * mom::checks_per_node(board);
  std::optional<LineCache> cache;
  if (s.line_cache) cache.emplace(LineCache::default_folder());
  PMOM_LOG(info) << total << " line checks for the feeds' Z0" << (matched ? " and loads" : "")
                 << (cache ? ", cached in " + cache->folder().string()
                           : std::string(", cache bypassed (--no-line-cache)"));
  SweepLineChecks checks(&backend, std::move(cache), total, shared);
  mom::FeedImpedances feeds(mesh, *lo, *hi, kNodes, matched, checks.checks());
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
