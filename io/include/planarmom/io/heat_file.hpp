// The HDF5 file of `planarmom heat` (readable with h5py): the final temperature field on the
// interior grid, the run's settings, and the solver's iterations and time per step.
//
//   /u                  [n, n] float64   u[j, i] at x = (i+1)/(n+1), y = (j+1)/(n+1)
//   /steps/iterations   [S] int32        solver iterations of each step
//   /steps/seconds      [S] float64      solve time of each step
//   root attributes     program_version, initial, solver, backend, format (strings);
//                       n, steps (int); kappa, dt, boundary, time (float64; time = steps·dt)
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace pmom::io {

struct HeatRecord {
  int n = 0;
  std::vector<double> u;  // n², u[i + n·j]: row j of the file's /u
  double kappa = 0, dt = 0, boundary = 0;
  std::string initial, solver, backend, format, program_version;
  std::vector<int> iterations;  // one per step
  std::vector<double> seconds;  // one per step
};

// Writes `<file>.partial` and renames it to `file` once complete, so an interrupted write
// leaves no file under the final name (and a failed one removes its partial file). Throws
// std::invalid_argument when u is not n² values or the per-step lists differ in length, and
// std::runtime_error (io::SweepFileError, from the shared HDF5 layer) naming the file when
// HDF5 or the rename fails.
void write_heat_file(const std::filesystem::path& file, const HeatRecord& record);

// Throws std::runtime_error naming the file and the missing or malformed part.
HeatRecord read_heat_file(const std::filesystem::path& file);

}  // namespace pmom::io
