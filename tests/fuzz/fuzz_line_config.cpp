// Fuzz target: the YAML settings file of `planarmom line` (apps/line_config.hpp). Contract: a
// ConfigError naming the file, or settings within the ranges the header promises.
#include <cmath>
#include <cstdint>
#include <string>

#include "harness.hpp"
#include "line_config.hpp"
#include "planarmom/geometry/config_yaml.hpp"

namespace {

using namespace pmom;

bool positive(double value) { return std::isfinite(value) && value > 0; }

void check(const app::LineConfig& c) {
  fuzz::expect(std::isfinite(c.eps_r) && c.eps_r >= 1, "eps_r not finite and >= 1");
  fuzz::expect(positive(c.height_mm), "height not finite and > 0");
  fuzz::expect(c.z0_ohm.has_value() != c.width_mm.has_value(), "not exactly one of z0, width");
  fuzz::expect(!c.z0_ohm || positive(*c.z0_ohm), "z0 not finite and > 0");
  fuzz::expect(!c.width_mm || positive(*c.width_mm), "width not finite and > 0");
  fuzz::expect(c.cells_across >= 2 && c.cells_across <= 64, "cells_across outside 2..64");
  fuzz::expect(!c.half_length_mm || positive(*c.half_length_mm), "half length not > 0");
  fuzz::expect_frequencies(c.frequencies_hz);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = fuzz::write_input("line.yaml", data, size);
  try {
    check(app::read_line_config(file.string()));
  } catch (const geometry::ConfigError& error) {
    fuzz::expect_names_file(error.what(), file);
  }
  return 0;
}
