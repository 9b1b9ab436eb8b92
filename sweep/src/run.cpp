// load_sweep and run_sweep (run.hpp): the sweep loop with resume, warm starts and outputs.
#include "planarmom/sweep/run.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>
#include <system_error>

#include "planarmom/geometry/cell_size.hpp"
#include "planarmom/geometry/svg.hpp"
#include "planarmom/geometry/yaml_reader.hpp"
#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/logging/logging.hpp"
#include "planarmom/io/touchstone.hpp"
#include "planarmom/mom/constants.hpp"
#include "planarmom/mom/deembed.hpp"
#include "planarmom/sweep/current_picture.hpp"
#include "planarmom/sweep/knob_checks.hpp"
#include "planarmom/sweep/pipeline.hpp"
#include "planarmom/sweep/sweep_coordinator.hpp"
#include "feed_lines.hpp"
#include "sweep_steps.hpp"

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

// The cell size: given, or the largest square one dividing the layout (auto: the largest one
// the layout snaps to per axis, snapping every rectangle to at least three cells across) with
// at least the requested cells per wavelength in the substrate at the highest frequency.
geometry::CellSize cell_size(const geometry::GeometryConfig& g, double max_frequency_hz) {
  if (g.mesh.cell_mm) return *g.mesh.cell_mm;
  const double lambda_mm =
      mom::c0 / (max_frequency_hz * std::sqrt(g.layout.substrate.max_eps_r())) * 1e3;
  if (!g.mesh.auto_cell) {
    const double cell =
        geometry::largest_dividing_cell(g.layout, lambda_mm / *g.mesh.cells_per_wavelength);
    return {cell, cell};
  }
  return geometry::largest_snapping_cell(
      g.layout, lambda_mm / g.mesh.cells_per_wavelength.value_or(kAutoCellsPerWavelength),
      g.mesh.snap_mm, kAutoCellsAcross);
}

// The layout on the grid of `cell`, its edges moved by at most the snap (a tenth of the cell's
// side with cell_mm auto), in one log line; unchanged where no snap applies.
void snap(geometry::GeometryConfig& g, geometry::CellSize cell) {
  if (!g.mesh.auto_cell && !(g.mesh.snap_mm > 0)) return;
  std::vector<geometry::SnapMove> moves;
  try {
    g.layout = geometry::snapped_layout(g.layout, cell, g.mesh.snap_mm, &moves);
  } catch (const geometry::GeometryError& e) {
    throw geometry::ConfigError(g.file, g.line_of(e), e.what());
  }
  const geometry::CellSize limit = g.mesh.snap_mm > 0
                                        ? geometry::CellSize{g.mesh.snap_mm, g.mesh.snap_mm}
                                        : geometry::CellSize{0.1 * cell.dx_mm, 0.1 * cell.dy_mm};
  std::ostringstream line;
  line << g.file << ": cell " << geometry::cell_text(cell) << " mm"
       << (g.mesh.auto_cell ? " (auto)" : "") << ", edges snapped to it within "
       << geometry::cell_text(limit) << " mm: ";
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

}  // namespace

BackendChoice steps::choose_backend(BackendChoice wanted) {
  if (wanted != BackendChoice::automatic) return wanted;
  const CudaDeviceStatus status = cuda_device_status();
  PMOM_LOG(info) << "backend: " << (status.available ? "cuda, " : "cpu (") << status.description
                 << (status.available ? "" : ")");
  return status.available ? BackendChoice::cuda : BackendChoice::cpu;
}

namespace {

// ", of them 4 via cells (2 vias)" where the layout has vias, for the mesh's log line.
std::string via_text(const geometry::Mesh& mesh) {
  if (mesh.vias().empty()) return "";
  return " (" + std::to_string(mesh.via_cell_count()) + " of them via cells, " +
         std::to_string(mesh.vias().size()) + " vias)";
}

// load_sweep of a parsed config, `config_text` its text.
SweepJob load_parsed(const YAML::Node& root, const fs::path& config, std::string config_text) {
  const std::string file = config.string();
  geometry::GeometryConfig g = geometry::parse_geometry_config(root, file);
  SweepSettings settings = read_sweep_settings(root, file, static_cast<int>(g.layout.ports.size()));
  const geometry::CellSize cell = cell_size(g, settings.frequencies_hz.back());
  snap(g, cell);
  geometry::Mesh mesh = g.make_mesh(cell);
  if (g.mesh.max_unknowns > 0 &&
      mesh.unknowns() > static_cast<std::size_t>(g.mesh.max_unknowns)) {
    std::ostringstream text;
    text << "/mesh: cells of " << geometry::cell_text(cell) << " mm give " << mesh.unknowns()
         << " unknowns, more than max_unknowns " << g.mesh.max_unknowns;
    const geometry::GeometryError e(text.str(), geometry::Item::mesh);
    throw geometry::ConfigError(file, g.line_of(e), e.what());
  }
  // A feed too short for the de-embedding's fit would stop the sweep at its first frequency,
  // after the line checks: it is the config's error, at the port's line.
  const std::vector<mom::PortWaves> waves = [&] {
    try {
      return port_waves(mesh, settings);
    } catch (const std::invalid_argument& e) {
      throw geometry::ConfigError(file, 0, e.what());
    }
  }();
  std::string calibrated;
  int calibrated_count = 0;
  for (const geometry::MeshPort& port : mesh.ports()) {
    if (port.internal) continue;  // no feed: its waves are its gap's (mom::internal_port_launch)
    if (waves[static_cast<std::size_t>(port.port)] == mom::PortWaves::calibrated) {
      calibrated += (calibrated.empty() ? "" : ", ") +
                    g.layout.ports[static_cast<std::size_t>(port.port)].name;
      ++calibrated_count;
      continue;
    }
    try {
      mom::check_fit_window(mesh, port);
    } catch (const std::invalid_argument& e) {
      const std::string what = std::string(e.what()) +
                               (settings.deembedding == Deembedding::fit
                                    ? " (deembedding: auto calibrates such a port)"
                                    : " (or keep every entry of Z, which calibrates such a port)");
      const geometry::GeometryError at(what, geometry::Item::port, port.port, "feed_length_mm");
      throw geometry::ConfigError(file, g.line_of(at), what);
    }
  }
  if (calibrated_count > 0)
    PMOM_LOG(info) << file << ": port" << (calibrated_count == 1 ? " " : "s ")
                   << calibrated
                   << (settings.deembedding == Deembedding::calibrated
                           ? ": calibrated (deembedding: calibrated)"
                           : ": calibrated, their feeds too short for the fit")
                   << " (waves from the gap through the launch of a line standard)";
  if (!g.layout.metal.pec)
    PMOM_LOG(info) << file << ": metal of " << g.layout.metal.conductivity_s_per_m << " S/m, "
                   << g.layout.metal.thickness_um
                   << " µm thick: conductor loss on both faces of the strips and on the ground "
                      "(the feeds' line checks with it)";
  PMOM_LOG(info) << file << ": " << mesh.metal_cell_count() << " cells of "
                 << geometry::cell_text(mesh.grid().cell()) << " mm, " << mesh.unknowns()
                 << " unknowns" << via_text(mesh) << ", " << mesh.ports().size() << " ports, " << settings.frequencies_hz.size()
                 << " frequencies";
  for (const std::string& w : mesh.warnings()) PMOM_LOG(warning) << file << ": " << w;
  for (const std::string& w : knob_warnings(mesh, settings)) PMOM_LOG(warning) << w;
  return {config, std::move(config_text), std::move(g), std::move(settings), std::move(mesh)};
}

}  // namespace

SweepJob load_sweep(const fs::path& config) {
  const YAML::Node root = geometry::YamlReader::load(config.string());
  return load_parsed(root, config, read_text(config));
}

SweepJob load_sweep_text(const std::string& text, const fs::path& name) {
  return load_parsed(geometry::YamlReader::parse(text, name.string()), name, text);
}

SweepSettings output_paths(const SweepJob& job, const RunOptions& options) {
  SweepSettings s = job.settings;
  if (options.backend) s.backend = *options.backend;
  s.line_cache = options.line_cache;
  if (options.adaptive)
    s.sampling = *options.adaptive ? Sampling::adaptive : Sampling::every_frequency;
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
  const std::size_t n = mesh.unknowns();
  const std::vector<CurrentPicture> pictures =
      current_pictures(settings.hdf5, settings.current_frequencies_hz, ports, mesh.layers());
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
    if (mesh.layer_count() > 1)
      title << ", metal on layer " << mesh.layers()[static_cast<std::size_t>(p.layer)];
    // The surface's current only: the vias' unknowns follow the basis.
    write_current_picture(
        mesh, current_density(mesh, currents.first(mesh.basis().size()), p.layer), p, title.str());
  }
  PMOM_LOG(info) << "current pictures: " << pictures.size() << " (SVG and CSV), e.g. "
                 << pictures.front().svg.string();
}

}  // namespace

void steps::prepare_outputs(const SweepJob& job, const SweepSettings& settings,
                            const RunOptions& options) {
  // The config is read and meshed without error: only now may output appear.
  if (!options.out_dir.empty()) create_output_folder(options.out_dir);
  check_output_folders(settings);
  geometry::write_svg(job.mesh, settings.layout);
}

io::SweepFile::Mode steps::file_mode(Continuation continuation) {
  switch (continuation) {
    case Continuation::resume: return io::SweepFile::Mode::resume;
    case Continuation::restart: return io::SweepFile::Mode::fresh;
    case Continuation::automatic: break;
  }
  return io::SweepFile::Mode::automatic;
}

io::SweepInfo steps::sweep_info(const SweepJob& job, const std::string& backend) {
  io::SweepInfo info;
  for (const geometry::Port& p : job.geometry.layout.ports) {
    info.port_names.push_back(p.name);
    info.reference_impedance_ohm.push_back(p.impedance_ohm);
    info.reference_plane_mm.push_back(p.reference_plane_mm);
  }
  info.config_text = job.config_text;
  info.program_version = PLANARMOM_VERSION;
  info.backend = backend;
  info.unknowns = job.mesh.unknowns();
  return info;
}

io::SweepData steps::finish(io::SweepFile& file, const SweepJob& job,
                            const SweepSettings& settings, const io::SweepFit* fit) {
  file.finish(settings.frequencies_hz, fit,
              io::KeptSolutions{settings.keep_solutions, settings.current_frequencies_hz});
  io::SweepData data = io::read_sweep_file(settings.hdf5, /*with_currents=*/false);
  io::write_touchstone(settings.touchstone, io::touchstone_from_sweep(data));
  write_current_pictures(job.mesh, settings, data.info.port_names);
  if (const auto w = reciprocity_warning(data)) PMOM_LOG(warning) << *w;
  return data;
}

io::SweepData run_sweep(const SweepJob& job, const RunOptions& options) {
  const SweepSettings settings = output_paths(job, options);
  steps::prepare_outputs(job, settings, options);
  const std::string backend_name = to_string(steps::choose_backend(settings.backend));
  const auto backend = make_backend<cd>(backend_name);
  if (is_adaptive(settings)) return steps::run_adaptive(job, settings, options, backend_name, *backend);
  io::SweepFile file(settings.hdf5, steps::sweep_info(job, backend_name),
                     steps::file_mode(options.continuation));
  SweepPipeline pipeline(job.mesh, settings, *backend);
  // One worker walks the frequencies in order, each solve starting from the one before (or
  // from the currents stored with it in a resumed file): a resumed sweep repeats the
  // uninterrupted one's solves exactly and gives the same S, bit for bit.
  SweepCoordinator coordinator(file, settings.frequencies_hz, 1, options.progress);
  work([&coordinator](io::FrequencyRecord* done) { return coordinator.next(0, done); },
       [&pipeline](double hz, std::vector<cd>& guess, std::optional<double> next) {
         return pipeline.run(hz, guess, next);
       });
  coordinator.log_rate();
  return steps::finish(file, job, settings);
}

}  // namespace pmom::sweep
