// Cheap checks, before a sweep runs, of the knobs its result depends on but that it cannot
// converge by itself (the thresholding of Z, the feeds' length for the de-embedding's fit, the
// cell against the wavelength): one line each for the log, saying what was measured and what to
// change. tools/converge.py measures every knob for real (docs/VALIDATION.md).
#pragma once

#include <string>
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/sweep/config.hpp"

namespace pmom::sweep {

[[nodiscard]] std::vector<std::string> knob_warnings(const geometry::Mesh& mesh,
                                                     const SweepSettings& settings);

}  // namespace pmom::sweep
