// The feed lines' Z0 across the sweep's band, and their matched loads where the ports are
// terminated by them: a few line checks, cached on disk, solved on the sweep's backend and
// logged one by one (line_checks.hpp).
#pragma once

#include <complex>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/gpusolver/backend.hpp"
#include "planarmom/mom/feed_impedance.hpp"
#include "planarmom/sweep/config.hpp"
#include "planarmom/sweep/line_checks.hpp"

namespace pmom::sweep {

// shared: results another rank obtained (used first), to which every result is added; or null.
[[nodiscard]] mom::FeedImpedances band_feed_impedances(const geometry::Mesh& mesh,
                                                       const SweepSettings& s,
                                                       Backend<std::complex<double>>& backend,
                                                       LineResults* shared);

}  // namespace pmom::sweep
