// The device's memory bandwidth measured on the device itself, the denominator of the
// bytes-moved floors in the performance write-up (DESIGN §8).
#pragma once

#include <cstddef>
#include <string>

namespace pmom::bench {

struct DeviceBandwidth {
  double copy_gbs = 0;  // device-to-device copy, read + write bytes counted, 1e9 B/s
  double read_gbs = 0;  // read-only stream of 16-byte loads, 1e9 B/s: SpMV's traffic is reads
  std::string device_name;
  int sm_count = 0;
  std::size_t l2_bytes = 0;
};

// Medians of 10 timed runs after one warm-up, on the current device, over buffers of `bytes`
// (the copy needs two). Throws std::runtime_error on a CUDA error, or when the build has no
// CUDA.
DeviceBandwidth measure_device_bandwidth(std::size_t bytes = 2ull << 30);

}  // namespace pmom::bench
