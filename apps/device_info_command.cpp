// `planarmom device-info`: the CUDA device this build would use and its measured memory
// bandwidth, the denominator of every bytes-moved floor in docs/PERFORMANCE.md.
#include <iomanip>
#include <iostream>

#include "commands.hpp"
#include "planarmom/bench/bandwidth.hpp"
#include "planarmom/gpusolver/backends.hpp"

namespace pmom::app {

Command add_device_info_command(CLI::App& parent) {
  auto bytes_gib = std::make_shared<double>(2.0);
  CLI::App* app = parent.add_subcommand(
      "device-info", "Show the CUDA device and measure its memory bandwidth (copy and read)");
  app->add_option("--gib", *bytes_gib, "Buffer size of the bandwidth measurement, GiB")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 64.0));
  return {app, [bytes_gib] {
            const CudaDeviceStatus s = cuda_device_status();
            std::cout << "device: " << s.description << '\n';
            if (!s.available) return 1;
            const auto bw = bench::measure_device_bandwidth(
                static_cast<std::size_t>(*bytes_gib * (1ull << 30)));
            std::cout << std::fixed << std::setprecision(0)
                      << "bandwidth: copy " << bw.copy_gbs << " GB/s (read + write counted), "
                      << "read-only stream " << bw.read_gbs << " GB/s (16-byte loads)\n";
            return 0;
          }};
}

}  // namespace pmom::app
