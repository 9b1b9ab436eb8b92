// Cheap checks, before a sweep runs, of the knobs its result depends on but that it cannot
// converge by itself (the thresholding of Z, the feeds' length for the de-embedding's fit, the
// cell against the wavelength): one line each for the log, saying what was measured and what to
// change. tools/converge.py measures every knob for real (docs/VALIDATION.md). And one check
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

// |S_ij − S_ji| above which a sweep's S is reported as not reciprocal: Z is symmetric, so the
// difference is the error of the waves fitted on the feeds. Measured (docs/VALIDATION.md):
// 4.5e-4 on the RO4003 asymmetric stub of tests/mom/test_deembed.cpp, 9.0e-4 on the RO4003
// two-coupler example, 2-5e-3 on the FR-4 pinwheel. Twice the RO4003 layouts' largest: it
// flags the thick-board regime, where the error is 0.3 dB and more on a −25 dB entry.
inline constexpr double kReciprocityWarning = 2e-3;
// One line when some record's S departs from reciprocity by more than kReciprocityWarning,
// naming the largest, its ports and frequency; none otherwise.
[[nodiscard]] std::optional<std::string> reciprocity_warning(const io::SweepData& data);

}  // namespace pmom::sweep
