// `planarmom sweep CONFIG.yaml`: the frequency sweep of a layout to S-parameters, written to
// HDF5 as it goes (resumable), then Touchstone, a layout picture and a plot of |S| in dB.
#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <sstream>
#include <system_error>

#include <unistd.h>

#include "commands.hpp"
#include "plot_script.hpp"
#include "planarmom/geometry/cell_size.hpp"
#include "planarmom/geometry/config_yaml.hpp"
#include "planarmom/geometry/svg.hpp"
#include "planarmom/geometry/yaml_reader.hpp"
#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/io/logging.hpp"
#include "planarmom/io/sweep_file.hpp"
#include "planarmom/io/touchstone.hpp"
#include "planarmom/mom/constants.hpp"
#include "sweep_config.hpp"
#include "sweep_pipeline.hpp"

namespace pmom::app {
namespace {

namespace fs = std::filesystem;
using cd = std::complex<double>;

struct SweepFlags {
  std::string config;
  bool resume = false;
  bool no_line_cache = false;
  std::string backend;  // overrides solver.backend
  std::string out_dir;  // puts the output files there, under their own names
};

std::string read_text(const std::string& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The cell size: given, or the largest one dividing the layout with at least the requested
// cells per guided wavelength in the substrate at the highest frequency.
double cell_size(const geometry::GeometryConfig& g, double max_frequency_hz) {
  if (g.mesh.cell_mm) return *g.mesh.cell_mm;
  const double lambda_mm =
      mom::c0 / (max_frequency_hz * std::sqrt(g.layout.substrate.eps_r)) * 1e3;
  return geometry::largest_dividing_cell(g.layout.rects, lambda_mm / *g.mesh.cells_per_wavelength);
}

// Throws "cannot WHAT: REASON".
[[noreturn]] void cannot(std::string what, const std::error_code& reason) {
  what.insert(0, "cannot ");
  what += ": ";
  what += reason.message();
  throw std::runtime_error(what);
}

void create_output_folder(const fs::path& folder) {
  std::error_code error;
  fs::create_directories(folder, error);
  if (error) cannot(std::string("create the output folder ") + folder.string(), error);
}

// Each output's folder must take new files. Checked before any is written, so that one that
// does not costs one line and leaves nothing behind (no picture written, then no partial file).
void check_output_folders(const SweepSettings& s) {
  for (const std::string* path : {&s.hdf5, &s.touchstone, &s.plot, &s.layout}) {
    const fs::path folder = fs::path(*path).parent_path();
    const fs::path checked = folder.empty() ? fs::path(".") : folder;
    if (::access(checked.c_str(), W_OK | X_OK) != 0)
      cannot(std::string("write ") + *path + " into " + checked.string(),
             std::error_code(errno, std::generic_category()));
  }
}

std::string choose_backend(const std::string& wanted) {
  if (wanted != "auto") return wanted;
  const CudaDeviceStatus status = cuda_device_status();
  PMOM_LOG(info) << "backend: " << (status.available ? "cuda, " : "cpu (") << status.description
                 << (status.available ? "" : ")");
  return status.available ? "cuda" : "cpu";
}

// One line, redrawn in place: [#####     ] 17/101  2.320 GHz  572 iterations  ETA 5:41
void progress_bar(std::size_t done, std::size_t todo, double hz, int iterations, double eta_s) {
  constexpr std::size_t width = 30;
  const std::size_t filled = todo == 0 ? width : width * done / todo;
  const auto eta = static_cast<long long>(std::lround(eta_s));
  char line[160];
  std::snprintf(line, sizeof line, "\r[%s%s] %zu/%zu  %.3f GHz  %d iterations  ETA %lld:%02lld ",
                std::string(filled, '#').c_str(), std::string(width - filled, ' ').c_str(), done,
                todo, hz * 1e-9, iterations, eta / 60, eta % 60);
  std::cerr << line << std::flush;
}

int run(const SweepFlags& f) {
  const YAML::Node root = geometry::YamlReader::load(f.config);
  const geometry::GeometryConfig g = geometry::parse_geometry_config(root, f.config);
  SweepSettings settings =
      read_sweep_settings(root, f.config, static_cast<int>(g.layout.ports.size()));
  if (!f.backend.empty()) settings.backend = f.backend;
  settings.line_cache = !f.no_line_cache;
  if (!f.out_dir.empty()) {
    for (std::string* path : {&settings.hdf5, &settings.touchstone, &settings.plot, &settings.layout})
      *path = (fs::path(f.out_dir) / fs::path(*path).filename()).string();
  }
  const geometry::Mesh mesh = g.make_mesh(cell_size(g, settings.frequencies_hz.back()));
  PMOM_LOG(info) << f.config << ": " << mesh.metal_cell_count() << " cells of "
                 << mesh.grid().cell_mm << " mm, " << mesh.basis().size() << " unknowns, "
                 << mesh.ports().size() << " ports, " << settings.frequencies_hz.size()
                 << " frequencies";
  // The config is read and meshed without error: only now may output appear.
  if (!f.out_dir.empty()) create_output_folder(f.out_dir);
  check_output_folders(settings);
  geometry::write_svg(mesh, settings.layout);

  const std::string backend_name = choose_backend(settings.backend);
  const auto backend = make_backend<cd>(backend_name);
  io::SweepInfo info;
  for (const geometry::Port& p : g.layout.ports) {
    info.port_names.push_back(p.name);
    info.reference_impedance_ohm.push_back(p.impedance_ohm);
    info.reference_plane_mm.push_back(p.reference_plane_mm);
  }
  info.config_text = read_text(f.config);
  info.program_version = PLANARMOM_VERSION;
  info.backend = backend_name;
  info.unknowns = mesh.basis().size();
  io::SweepFile file(settings.hdf5, info,
                     f.resume ? io::SweepFile::Mode::resume : io::SweepFile::Mode::fresh);

  SweepPipeline pipeline(mesh, settings, *backend);
  // Each solve starts from the previous frequency's solution (zero for the first one). After a
  // frequency taken from a resumed file, that solution is the currents stored with it, so a
  // resumed sweep repeats the uninterrupted one's solves exactly and gives the same S, bit for bit.
  std::vector<cd> guess;
  bool guess_is_previous = true;  // guess holds the solution of the frequency before this one
  const auto start = std::chrono::steady_clock::now();
  std::size_t done = 0, todo = 0;
  // On a terminal a progress bar replaces the per-frequency log lines (which would break it).
  const bool terminal = isatty(STDERR_FILENO) != 0;
  const std::vector<double>& frequencies = settings.frequencies_hz;
  for (const double hz : frequencies) todo += file.contains(hz) ? 0 : 1;
  for (std::size_t i = 0; i < frequencies.size(); ++i) {
    const double hz = frequencies[i];
    if (file.contains(hz)) {
      guess_is_previous = false;
      continue;
    }
    if (!guess_is_previous) {  // i > 0: frequency i - 1 is in the file
      guess = file.currents(frequencies[i - 1]);
      PMOM_LOG(debug) << "initial guess at " << hz * 1e-9 << " GHz: the currents stored at "
                      << frequencies[i - 1] * 1e-9 << " GHz";
      guess_is_previous = true;
    }
    // The next frequency to compute, whose Green's table and offset tables the pipeline
    // prepares while this one solves.
    std::optional<double> next;
    for (std::size_t j = i + 1; j < frequencies.size() && !next; ++j)
      if (!file.contains(frequencies[j])) next = frequencies[j];
    io::FrequencyRecord r = pipeline.run(hz, guess, next);
    r.currents = guess;  // run() leaves the solutions in guess
    file.append(r);
    ++done;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double eta = elapsed / static_cast<double>(done) * static_cast<double>(todo - done);
    if (terminal) {
      progress_bar(done, todo, hz, r.iterations, eta);
    } else {
      PMOM_LOG(info) << "[" << done << "/" << todo << "] " << hz * 1e-9 << " GHz: "
                     << r.iterations << " iterations, residual " << r.residual << ", "
                     << r.seconds_greens + r.seconds_fill + r.seconds_sparsify +
                            r.seconds_solve + r.seconds_deembed
                     << " s, ETA " << eta << " s";
    }
  }
  if (terminal) std::cerr << '\n';
  file.finish();
  io::write_touchstone(settings.touchstone, io::touchstone_from_sweep(io::read_sweep_file(
                                                settings.hdf5, /*with_currents=*/false)));
  plot_with_script("plot_sweep.py", settings.hdf5, settings.plot);  // |S| in dB
  PMOM_LOG(info) << "wrote " << settings.hdf5 << ", " << settings.touchstone << ", "
                 << settings.plot << " and " << settings.layout;
  return 0;
}

}  // namespace

Command add_sweep_command(CLI::App& parent) {
  auto flags = std::make_shared<SweepFlags>();
  CLI::App* app = parent.add_subcommand(
      "sweep", "Sweep a layout's S-parameters over frequency (YAML config; HDF5, Touchstone, "
               "plot and layout picture out)");
  app->add_option("config", flags->config, "The sweep's YAML config (examples/*.yaml)")
      ->required()
      ->check(CLI::ExistingFile);
  app->add_flag("--resume", flags->resume,
                "Continue a killed sweep from its partial HDF5 file, skipping the frequencies "
                "already written");
  app->add_option("--out-dir", flags->out_dir,
                  "Write the output files into this folder (under the names the config gives)");
  app->add_option("--backend", flags->backend, "Override solver.backend: auto, cpu or cuda")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  app->add_flag("--no-line-cache", flags->no_line_cache,
                "Solve the feed line checks even where the line cache ($PLANARMOM_CACHE_DIR, "
                "else ~/.cache/planarmom/lines) holds them, and store nothing there");
  return {app, [flags] { return run(*flags); }};
}

}  // namespace pmom::app
