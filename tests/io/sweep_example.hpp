// A small deterministic sweep for the sweep-file, Touchstone and h5py tests: values with full
// 53-bit mantissas (so exact round trips are a real check) and every field distinct.
#pragma once

#include <cmath>
#include <limits>
#include <string>

#include "planarmom/io/sweep_record.hpp"

namespace pmom::test {

// N of the example sweeps: each record holds N x P currents.
inline constexpr std::size_t kExampleUnknowns = 5;

inline io::SweepInfo example_sweep_info(std::size_t ports) {
  io::SweepInfo info;
  for (std::size_t p = 0; p < ports; ++p) {
    info.port_names.push_back("port " + std::to_string(p + 1));
    info.reference_impedance_ohm.push_back(50.0);
    info.reference_plane_mm.push_back(1.25 + 0.1 * static_cast<double>(p));
  }
  info.config_text = "substrate: {eps_r: 4.4, height_mm: 1.6}  # FR-4, \xce\xb5r \xe2\x89\x88 4.4\n"
                     "frequencies: {start_hz: 1e9, stop_hz: 5e9, points: 5}\n";
  info.program_version = "0.1.0-test";
  info.backend = "cpu";
  info.unknowns = kExampleUnknowns;
  return info;
}

// The record of sweep point `index` (0-based); frequencies 1, 2, 3... GHz.
inline io::FrequencyRecord example_record(std::size_t index, std::size_t ports) {
  const double x = static_cast<double>(index) + 1.0;
  io::FrequencyRecord r;
  r.frequency_hz = 1e9 * x;
  for (std::size_t k = 0; k < ports * ports; ++k) {
    const double phase = 0.7 * x + 0.3 * static_cast<double>(k);
    r.s.emplace_back(std::cos(phase) / 3.0, -std::sin(phase) / 7.0);
  }
  r.iterations = static_cast<int>(10 * index + 3);
  r.residual = 1e-9 / x;
  r.seconds_greens = 0.1 * x;
  r.seconds_fill = 0.2 / x;
  r.seconds_sparsify = 0.3 * std::sqrt(x);
  r.seconds_solve = 1.0 / 3.0 + x;
  r.seconds_deembed = 1e-3 * x;
  r.nnz = 1'000'000'007LL * static_cast<long long>(index + 1);  // beyond 32 bits
  r.density = 0.05 / x;
  r.dense_error = index % 2 == 0 ? std::numeric_limits<double>::quiet_NaN() : 1e-4 * x;
  for (std::size_t k = 0; k < kExampleUnknowns * ports; ++k) {  // N x P, column k / N = port
    const double phase = 0.11 * x * static_cast<double>(k + 1);
    r.currents.emplace_back(std::sin(phase) / 1e3, std::cos(phase) / (1e3 * x));
  }
  return r;
}

}  // namespace pmom::test
