// The keys of a sweep config (`planarmom sweep CONFIG.yaml`): those the sweep's own sections
// accept (read_sweep_settings, read_frequencies) and, with the geometry's, every key of the
// file; docs/CONFIG.md documents the same list.
#pragma once

#include <string>
#include <vector>

#include "planarmom/geometry/config_schema.hpp"

namespace pmom::sweep {

// The sections read by config.hpp's readers. The
// file's top level is checked by the geometry reader, the sweep's sections being those
// geometry::other_config_sections() names.
[[nodiscard]] const geometry::ConfigSchema& settings_schema();

// "/frequencies" as `planarmom line` takes it: {start_hz, stop_hz, points}; the sweep's adds
// adaptive and adaptive_tolerance.
[[nodiscard]] const geometry::ConfigSection& frequency_range_section();

// Every key a sweep config accepts, geometry and sweep sections together, as key paths
// ("/solver/tolerance", "/layout/*/x0"; geometry::ConfigSchema::key_paths).
[[nodiscard]] std::vector<std::string> config_key_paths();

}  // namespace pmom::sweep
