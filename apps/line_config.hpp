// The YAML settings file of `planarmom line` (examples/microstrip_line.yaml):
//
//   substrate: {eps_r: 3.38, height_mm: 0.508}   # as in the geometry config; loss_tangent 0 only
//   line: {z0_ohm: 50, cells_across: 6}          # or width_mm instead of z0_ohm; half_length_mm
//   frequencies: {start_hz: 1.0e9, stop_hz: 6.0e9, points: 6}   # or a list in Hz
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "planarmom/geometry/config_schema.hpp"

namespace pmom::app {

struct LineConfig {
  double eps_r = 1;
  double height_mm = 1;
  std::optional<double> z0_ohm;    // exactly one of z0_ohm and width_mm is set
  std::optional<double> width_mm;
  int cells_across = 6;
  std::optional<double> half_length_mm;  // unset: sized per frequency
  std::vector<double> frequencies_hz;    // not empty, each > 0, increasing
};

// The keys read_line_config accepts (docs/CONFIG.md, "Line config").
[[nodiscard]] const geometry::ConfigSchema& line_config_schema();

// Reads and checks `file`. Throws geometry::ConfigError, whose what() reads
// "FILE:LINE: message" and names the key path (e.g. "/line/width_mm must be > 0, got -1").
[[nodiscard]] LineConfig read_line_config(const std::string& file);

}  // namespace pmom::app
