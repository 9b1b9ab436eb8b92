// Cheap checks, before a sweep runs, of the knobs its result depends on but that it cannot
// converge by itself (the thresholding of Z, the feeds' length for the de-embedding's fit or
// calibration, the cell against the wavelength): one line each for the log, saying what was
// measured and what to change. tools/converge.py measures every knob for real (docs/VALIDATION.md). And one check
// after it: S's reciprocity, which the physics makes exact and the extraction of the feeds'
// waves does not.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/io/sweep_record.hpp"
#include "planarmom/sweep/config.hpp"

namespace pmom::sweep {

[[nodiscard]] std::vector<std::string> knob_warnings(const geometry::Mesh& mesh,
                                                     const SweepSettings& settings);

// A calibrated port's feed shorter than this many of max(width, substrate height) gets a
// warning: on the RO4003 coupler 3.3 of them left |ΔS| 3.0e-3, 6.7 left 1.1e-3 (the level by
// which the fitted feeds move themselves), docs/VALIDATION.md "Calibrated ports".
inline constexpr double kCalibratedFeedSizes = 6;

// |S_ij − S_ji| above which a sweep's S is reported as not reciprocal: Z is symmetric, so the
// difference is the error of the waves fitted on the feeds. Twice the largest measured on thin
// (RO4003) boards, so that it flags the thick-board regime (docs/VALIDATION.md, "Measurements
// behind constants in the code").
inline constexpr double kReciprocityWarning = 2e-3;
// One line when some record's S departs from reciprocity by more than kReciprocityWarning,
// naming the largest, its ports and frequency; none otherwise.
[[nodiscard]] std::optional<std::string> reciprocity_warning(const io::SweepData& data);

}  // namespace pmom::sweep
