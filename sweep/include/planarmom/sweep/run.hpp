// A whole sweep, as `planarmom sweep` runs it and as a C++ user of the installed package can:
// load_sweep reads and checks a config (geometry, frequencies, sparsify, solver, output) and
// meshes it; run_sweep computes every frequency, writing the HDF5 file as it goes (resumable),
// then the Touchstone file and the layout picture, and returns what the file holds.
#pragma once

#include <complex>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "planarmom/geometry/config_yaml.hpp"
#include "planarmom/geometry/mesh.hpp"
#include "planarmom/io/sweep_file.hpp"
#include "planarmom/sweep/config.hpp"

namespace pmom::sweep {

struct SweepJob {
  std::filesystem::path file;  // the config: named in messages
  std::string config_text;     // its text, as the HDF5 file stores it
  geometry::GeometryConfig geometry;
  SweepSettings settings;
  geometry::Mesh mesh;
};

// Reads, checks and meshes a config. Throws geometry::ConfigError ("FILE:LINE: what") for a
// mistake in it. Output paths default to the config's stem beside it (SweepSettings).
SweepJob load_sweep(const std::filesystem::path& config);
// The same for a config given as YAML text (the Python module's dicts): `name` stands for its
// file, in messages and as the folder that relative paths (GDSII, outputs) start from.
SweepJob load_sweep_text(const std::string& text, const std::filesystem::path& name);

// One computed frequency, for progress reports: its index among those computed this run, how
// many this run computes, its record (S, iterations, residual, times per stage) and which of
// the run's workers (MPI ranks; one without MPI) computed it.
struct SweepProgress {
  std::size_t done = 0, todo = 0;
  const io::FrequencyRecord* record = nullptr;
  double elapsed_s = 0;
  int worker = 0, workers = 1;
};

// What becomes of the HDF5 file an earlier run with the same output left.
enum class Continuation {
  automatic,  // continue it where it holds this same run (config, version, backend), saying so;
              // else start afresh
  resume,     // `--resume`: continue it; an error where it is another run's or damaged
  restart,    // `--restart`: discard it and start afresh
};

struct RunOptions {
  Continuation continuation = Continuation::automatic;
  std::optional<BackendChoice> backend;  // overrides solver.backend where given
  std::filesystem::path out_dir;  // writes the outputs there, under their own names
  bool line_cache = true;   // false: `--no-line-cache`
  // `--adaptive` / `--no-adaptive`: as frequencies.adaptive: true / false, where given.
  std::optional<bool> adaptive;
  std::function<void(const SweepProgress&)> progress;  // after every frequency
};

// Runs the job. Checks that every output folder takes files before writing any; throws
// std::runtime_error ("cannot write ...") otherwise, io::SweepFileError for the HDF5 file.
// The plot of |S| is not drawn here (the command draws it with tools/plot_sweep.py).
io::SweepData run_sweep(const SweepJob& job, const RunOptions& options = {});

// The paths the job writes to with these options (out_dir applied).
[[nodiscard]] SweepSettings output_paths(const SweepJob& job, const RunOptions& options);

}  // namespace pmom::sweep
