// The feed lines' Z0 across the sweep's band, their matched loads where the ports are
// terminated by them and the ports' launches where they are calibrated: a few line checks,
// cached on disk, solved on the sweep's backend and logged one by one (line_checks.hpp).
#pragma once

#include <complex>
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/gpusolver/backend.hpp"
#include "planarmom/mom/deembed.hpp"
#include "planarmom/mom/feed_impedance.hpp"
#include "planarmom/sweep/config.hpp"
#include "planarmom/sweep/line_checks.hpp"

namespace pmom::sweep {

// How each port's waves are found (SweepSettings::deembedding): calibrated needs the line
// standard's Z, so every entry of Z kept (no sparsify density or reach); a fitted port needs
// the room for its fit (mom::check_fit_window throws); automatic fits where there is room.
// Throws std::invalid_argument for `calibrated` with a thresholded Z.
[[nodiscard]] std::vector<mom::PortWaves> port_waves(const geometry::Mesh& mesh,
                                                     const SweepSettings& s);
// Whether any port is calibrated.
[[nodiscard]] bool any_calibrated(const std::vector<mom::PortWaves>& waves);

// shared: results another rank obtained (used first), to which every result is added; or null.
[[nodiscard]] mom::FeedImpedances band_feed_impedances(const geometry::Mesh& mesh,
                                                       const SweepSettings& s,
                                                       Backend<std::complex<double>>& backend,
                                                       LineResults* shared);

}  // namespace pmom::sweep
