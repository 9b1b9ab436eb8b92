// load_sweep and run_sweep (run.hpp): the sweep loop with resume, warm starts and outputs.
#include "planarmom/sweep/run.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>
#include <system_error>

#include "planarmom/geometry/cell_size.hpp"
#include "planarmom/geometry/svg.hpp"
#include "planarmom/geometry/yaml_reader.hpp"
#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/io/logging.hpp"
#include "planarmom/io/touchstone.hpp"
#include "planarmom/mom/constants.hpp"
#include "planarmom/sweep/current_picture.hpp"
#include "planarmom/sweep/knob_checks.hpp"
#include "planarmom/sweep/pipeline.hpp"

namespace pmom::sweep {
namespace {

namespace fs = std::filesystem;
using cd = std::complex<double>;

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// `cell_mm: auto`'s resolution: cells per wavelength in the substrate by default, and cells
// across every rectangle (a strip's edge currents need a few).
constexpr double kAutoCellsPerWavelength = 20;
constexpr int kAutoCellsAcross = 3;

// The cell size: given, or the largest one dividing the layout (auto: the largest one the
// layout snaps to, snapping every rectangle to at least three cells across) with at least the
// requested cells per wavelength in the substrate at the highest frequency.
double cell_size(const geometry::GeometryConfig& g, double max_frequency_hz) {
  if (g.mesh.cell_mm) return *g.mesh.cell_mm;
  const double lambda_mm =
      mom::c0 / (max_frequency_hz * std::sqrt(g.layout.substrate.eps_r)) * 1e3;
  if (!g.mesh.auto_cell)
    return geometry::largest_dividing_cell(g.layout.rects,
                                           lambda_mm / *g.mesh.cells_per_wavelength);
  return geometry::largest_snapping_cell(
      g.layout, lambda_mm / g.mesh.cells_per_wavelength.value_or(kAutoCellsPerWavelength),
      g.mesh.snap_mm, kAutoCellsAcross);
}

// The layout on the grid of `cell_mm`, its edges moved by at most the snap (a tenth of the cell
// with cell_mm auto), in one log line; unchanged where no snap applies.
void snap(geometry::GeometryConfig& g, double cell_mm) {
  if (!g.mesh.auto_cell && !(g.mesh.snap_mm > 0)) return;
  const double limit = g.mesh.snap_mm > 0 ? g.mesh.snap_mm : 0.1 * cell_mm;
  std::vector<geometry::SnapMove> moves;
  try {
    g.layout = geometry::snapped_layout(g.layout, cell_mm, limit, &moves);
  } catch (const geometry::GeometryError& e) {
    throw geometry::ConfigError(g.file, g.line_of(e), e.what());
  }
  std::ostringstream line;
  line << g.file << ": cell " << cell_mm << " mm" << (g.mesh.auto_cell ? " (auto)" : "")
       << ", edges snapped to it within " << limit << " mm: ";
  if (moves.empty()) {
    line << "none moved";
  } else {
    const auto most = std::max_element(moves.begin(), moves.end(), [](const auto& a, const auto& b) {
      return std::abs(a.to_mm - a.from_mm) < std::abs(b.to_mm - b.from_mm);
    });
    line << moves.size() << " moved, the most " << most->what << " by "
         << std::abs(most->to_mm - most->from_mm) << " mm (" << most->from_mm << " -> "
         << most->to_mm << ")";
  }
  PMOM_LOG(info) << line.str();
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

}  // namespace

SweepJob load_sweep(const fs::path& config) {
  const std::string file = config.string();
  const YAML::Node root = geometry::YamlReader::load(file);
  geometry::GeometryConfig g = geometry::parse_geometry_config(root, file);
  SweepSettings settings = read_sweep_settings(root, file, static_cast<int>(g.layout.ports.size()));
  const double cell_mm = cell_size(g, settings.frequencies_hz.back());
  snap(g, cell_mm);
  geometry::Mesh mesh = g.make_mesh(cell_mm);
  if (g.mesh.max_unknowns > 0 &&
      mesh.basis().size() > static_cast<std::size_t>(g.mesh.max_unknowns)) {
    std::ostringstream text;
    text << "/mesh: cells of " << cell_mm << " mm give " << mesh.basis().size()
         << " unknowns, more than max_unknowns " << g.mesh.max_unknowns;
    const geometry::GeometryError e(text.str(), geometry::Item::mesh);
    throw geometry::ConfigError(file, g.line_of(e), e.what());
  }
  if (!g.layout.metal.pec)
    PMOM_LOG(info) << file << ": metal of " << g.layout.metal.conductivity_s_per_m << " S/m, "
                   << g.layout.metal.thickness_um
                   << " µm thick: conductor loss on both faces of the strips and on the ground "
                      "(the feeds' line checks with it)";
  PMOM_LOG(info) << file << ": " << mesh.metal_cell_count() << " cells of "
                 << mesh.grid().cell_mm << " mm, " << mesh.basis().size() << " unknowns, "
                 << mesh.ports().size() << " ports, " << settings.frequencies_hz.size()
                 << " frequencies";
  for (const std::string& w : knob_warnings(mesh, settings)) PMOM_LOG(warning) << w;
  return {config, std::move(g), std::move(settings), std::move(mesh)};
}

SweepSettings output_paths(const SweepJob& job, const RunOptions& options) {
  SweepSettings s = job.settings;
  if (!options.backend.empty()) s.backend = options.backend;
  s.line_cache = options.line_cache;
  if (!options.out_dir.empty())
    for (std::string* path : {&s.hdf5, &s.touchstone, &s.plot, &s.layout})
      *path = (options.out_dir / fs::path(*path).filename()).string();
  return s;
}

namespace {

// The pictures `output: {currents}` asks for, from the currents the sweep file keeps.
void write_current_pictures(const geometry::Mesh& mesh, const SweepSettings& settings,
                            const std::vector<std::string>& ports) {
  if (settings.current_frequencies_hz.empty()) return;
  const io::SweepData data = io::read_sweep_file(settings.hdf5, /*with_currents=*/true);
  const std::size_t n = mesh.basis().size();
  const std::vector<CurrentPicture> pictures =
      current_pictures(settings.hdf5, settings.current_frequencies_hz, ports);
  for (const CurrentPicture& p : pictures) {
    const auto record = std::find_if(data.records.begin(), data.records.end(),
                                     [&p](const io::FrequencyRecord& r) {
                                       return r.frequency_hz == p.frequency_hz;
                                     });
    if (record == data.records.end())
      throw std::logic_error("current pictures: no record at " +
                             std::to_string(p.frequency_hz) + " Hz");
    const std::span<const cd> currents(record->currents.data() + p.port * n, n);
    std::ostringstream title;
    title << "|J| at " << p.frequency_hz * 1e-9 << " GHz, port " << p.port + 1 << " '"
          << ports[static_cast<std::size_t>(p.port)] << "' driven";
    write_current_picture(mesh, current_density(mesh, currents), p, title.str());
  }
  PMOM_LOG(info) << "current pictures: " << pictures.size() << " (SVG and CSV), e.g. "
                 << pictures.front().svg.string();
}

}  // namespace

io::SweepData run_sweep(const SweepJob& job, const RunOptions& options) {
  const SweepSettings settings = output_paths(job, options);
  const geometry::Mesh& mesh = job.mesh;
  // The config is read and meshed without error: only now may output appear.
  if (!options.out_dir.empty()) create_output_folder(options.out_dir);
  check_output_folders(settings);
  geometry::write_svg(mesh, settings.layout);

  const std::string backend_name = choose_backend(settings.backend);
  const auto backend = make_backend<cd>(backend_name);
  io::SweepInfo info;
  for (const geometry::Port& p : job.geometry.layout.ports) {
    info.port_names.push_back(p.name);
    info.reference_impedance_ohm.push_back(p.impedance_ohm);
    info.reference_plane_mm.push_back(p.reference_plane_mm);
  }
  info.config_text = read_text(job.file);
  info.program_version = PLANARMOM_VERSION;
  info.backend = backend_name;
  info.unknowns = mesh.basis().size();
  io::SweepFile file(settings.hdf5, info,
                     options.resume ? io::SweepFile::Mode::resume : io::SweepFile::Mode::fresh);

  SweepPipeline pipeline(mesh, settings, *backend);
  // Each solve starts from the previous frequency's solution (zero for the first one). After a
  // frequency taken from a resumed file, that solution is the currents stored with it, so a
  // resumed sweep repeats the uninterrupted one's solves exactly and gives the same S, bit for bit.
  std::vector<cd> guess;
  bool guess_is_previous = true;  // guess holds the solution of the frequency before this one
  const auto start = std::chrono::steady_clock::now();
  SweepProgress progress;
  const std::vector<double>& frequencies = settings.frequencies_hz;
  for (const double hz : frequencies) progress.todo += file.contains(hz) ? 0 : 1;
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
    ++progress.done;
    progress.record = &r;
    progress.elapsed_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (options.progress) options.progress(progress);
  }
  file.finish();
  io::SweepData data = io::read_sweep_file(settings.hdf5, /*with_currents=*/false);
  io::write_touchstone(settings.touchstone, io::touchstone_from_sweep(data));
  write_current_pictures(mesh, settings, info.port_names);
  return data;
}

}  // namespace pmom::sweep
