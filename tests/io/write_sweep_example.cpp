// Writes the sweep files that check_read_sweep.py reads with h5py: DIR/complete.h5, a finished
// 2-port sweep of 3 frequencies, and DIR/killed.h5.partial, a run that ends without closing the
// file after 2 frequencies, as a killed one would. Values are exact binary fractions so that
// Python can check them exactly.
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>

#include "planarmom/io/sweep_file.hpp"

namespace {

using namespace pmom::io;

constexpr std::size_t kPorts = 2;
constexpr std::size_t kUnknowns = 3;

SweepInfo example_info() {
  SweepInfo info;
  info.port_names = {"in", "out"};
  info.reference_impedance_ohm = {50.0, 50.0};
  info.reference_plane_mm = {1.5, 2.5};
  info.config_text = "ports: [in, out]\n";
  info.program_version = "h5py-check";
  info.backend = "cpu";
  info.unknowns = kUnknowns;
  return info;
}

// Mirrored in check_read_sweep.py.
FrequencyRecord example_record(std::size_t index) {
  const double f = static_cast<double>(index);
  FrequencyRecord r;
  r.frequency_hz = (f + 1.0) * 1e9;
  for (std::size_t i = 0; i < kPorts; ++i)
    for (std::size_t j = 0; j < kPorts; ++j)
      r.s.emplace_back(f + 0.5 * static_cast<double>(i), -0.25 * static_cast<double>(j) - 0.125);
  r.iterations = 10 + static_cast<int>(index);
  r.residual = 0.0009765625 * (f + 1.0);  // 2^-10 (f + 1)
  r.nnz = (1LL << 40) + static_cast<long long>(index);
  r.density = 0.25;
  r.dense_error = 0.5;
  r.seconds_greens = r.seconds_fill = r.seconds_sparsify = r.seconds_deembed = 0.125;
  r.seconds_solve = 1.0 + f;
  for (std::size_t p = 0; p < kPorts; ++p)  // N x P column-major: currents[p * N + n]
    for (std::size_t n = 0; n < kUnknowns; ++n)
      r.currents.emplace_back(f + 0.25 * static_cast<double>(p), 0.0625 * static_cast<double>(n));
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: write_sweep_example DIR\n";
    return 2;
  }
  try {
    const std::filesystem::path dir = argv[1];
    std::filesystem::remove_all(dir);  // a partial file from an earlier run would be discarded
    std::filesystem::create_directories(dir);
    SweepFile complete(dir / "complete.h5", example_info(), SweepFile::Mode::fresh);
    for (std::size_t index = 0; index < 3; ++index) complete.append(example_record(index));
    complete.finish();

    SweepFile killed(dir / "killed.h5", example_info(), SweepFile::Mode::fresh);
    for (std::size_t index = 0; index < 2; ++index) killed.append(example_record(index));
    std::cout << "wrote " << (dir / "complete.h5").string() << " and "
              << SweepFile::partial_path(dir / "killed.h5").string() << std::endl;
    std::_Exit(0);  // like a kill: no destructor or HDF5 shutdown closes killed.h5.partial
  } catch (const std::exception& e) {
    std::cerr << "write_sweep_example: " << e.what() << '\n';
    return 1;
  }
}
