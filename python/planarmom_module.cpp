// planarmom._core, the extension under the Python package planarmom (docs/PYTHON.md): the
// sweep library's load_sweep and run_sweep, as `planarmom sweep` calls them
// (apps/sweep_command.cpp), with the result as NumPy arrays and config mistakes as
// planarmom.ConfigError. The GIL is released while the library works; each computed frequency
// takes it back to report progress and to let Ctrl-C stop the sweep (resumable, like a kill).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "planarmom/logging/logging.hpp"
#include "planarmom/mom/coupled_microstrip_formulas.hpp"
#include "planarmom/mom/microstrip_formulas.hpp"
#include "planarmom/sweep/current_picture.hpp"
#include "planarmom/sweep/run.hpp"
#include "python_config.hpp"

namespace pmom::python {
namespace {

namespace py = pybind11;
using namespace pybind11::literals;

// The per-frequency column `member` of the records.
template <class T, class Member>
py::array_t<T> column(const std::vector<io::FrequencyRecord>& records, Member member) {
  py::array_t<T> values(static_cast<py::ssize_t>(records.size()));
  auto out = values.template mutable_unchecked<1>();
  for (std::size_t f = 0; f < records.size(); ++f)
    out(static_cast<py::ssize_t>(f)) = static_cast<T>(records[f].*member);
  return values;
}

py::array_t<double> array_of(const std::vector<double>& values) {
  return py::array_t<double>(static_cast<py::ssize_t>(values.size()), values.data());
}

// S of every point as one [F, P, P] array.
py::array_t<std::complex<double>> s_array(const std::vector<io::FrequencyRecord>& points,
                                          std::size_t ports) {
  const auto frequencies = static_cast<py::ssize_t>(points.size());
  const auto p = static_cast<py::ssize_t>(ports);
  py::array_t<std::complex<double>> s({frequencies, p, p});
  std::complex<double>* out = s.mutable_data();
  for (const io::FrequencyRecord& r : points) out = std::copy(r.s.begin(), r.s.end(), out);
  return s;
}

// The files the sweep wrote (the plot of |S| is the command's, not the library's).
py::dict written_paths(const sweep::SweepSettings& s, const io::SweepInfo& info) {
  std::vector<std::string> pictures;
  for (const sweep::CurrentPicture& p :
       sweep::current_pictures(s.hdf5, s.current_frequencies_hz, info.port_names)) {
    pictures.push_back(p.svg.string());
    pictures.push_back(p.csv.string());
  }
  return py::dict("hdf5"_a = s.hdf5, "touchstone"_a = s.touchstone, "layout"_a = s.layout,
                  "current_pictures"_a = pictures);
}

py::dict result(const io::SweepData& data, const sweep::SweepSettings& settings) {
  using io::FrequencyRecord;
  std::vector<bool> solved;
  const std::vector<FrequencyRecord> r = io::every_point(data, &solved);
  py::array_t<bool> solved_array(static_cast<py::ssize_t>(solved.size()));
  for (std::size_t f = 0; f < solved.size(); ++f)
    solved_array.mutable_at(static_cast<py::ssize_t>(f)) = solved[f];
  return py::dict(
      "frequency_hz"_a = column<double>(r, &FrequencyRecord::frequency_hz),
      "s"_a = s_array(r, data.info.ports()), "solved"_a = solved_array,
      "port_names"_a = data.info.port_names,
      "reference_impedance_ohm"_a = array_of(data.info.reference_impedance_ohm),
      "reference_plane_mm"_a = array_of(data.info.reference_plane_mm),
      "iterations"_a = column<std::int64_t>(r, &FrequencyRecord::iterations),
      "residual"_a = column<double>(r, &FrequencyRecord::residual),
      "nnz"_a = column<std::int64_t>(r, &FrequencyRecord::nnz),
      "density"_a = column<double>(r, &FrequencyRecord::density),
      "dense_error"_a = column<double>(r, &FrequencyRecord::dense_error),
      "seconds_greens"_a = column<double>(r, &FrequencyRecord::seconds_greens),
      "seconds_fill"_a = column<double>(r, &FrequencyRecord::seconds_fill),
      "seconds_sparsify"_a = column<double>(r, &FrequencyRecord::seconds_sparsify),
      "seconds_solve"_a = column<double>(r, &FrequencyRecord::seconds_solve),
      "seconds_deembed"_a = column<double>(r, &FrequencyRecord::seconds_deembed),
      "unknowns"_a = data.info.unknowns, "backend"_a = data.info.backend,
      "config_text"_a = data.info.config_text, "program_version"_a = data.info.program_version,
      "paths"_a = written_paths(settings, data.info));
}

py::dict run(const sweep::SweepJob& job, const std::string& backend, const std::string& out_dir,
             bool resume, bool line_cache, const py::object& progress) {
  sweep::RunOptions options;
  // The module keeps its own default: a fresh run unless resume (docs/PYTHON.md).
  options.continuation = resume ? sweep::Continuation::resume : sweep::Continuation::restart;
  if (!backend.empty()) options.backend = sweep::parse_backend_choice(backend);
  options.out_dir = out_dir;
  options.line_cache = line_cache;
  // A handle, not an object: the library copies the callback without the GIL.
  options.progress = [callback = py::handle(progress)](const sweep::SweepProgress& p) {
    const py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    if (!callback.is_none())
      callback(p.done, p.todo, p.record->frequency_hz, p.record->iterations, p.record->residual,
               p.elapsed_s);
  };
  std::optional<io::SweepData> data;
  {
    const py::gil_scoped_release release;
    data = sweep::run_sweep(job, options);
  }
  return result(*data, sweep::output_paths(job, options));
}

void init_logging(const std::string& verbosity, const std::optional<std::string>& file) {
  logging::LogOptions options;
  if (verbosity == "quiet") {
    options.verbosity = logging::Verbosity::quiet;
  } else if (verbosity == "verbose") {
    options.verbosity = logging::Verbosity::verbose;
  } else if (verbosity != "normal") {
    throw py::value_error("log must be quiet, normal or verbose, got '" + verbosity + "'");
  }
  if (file) options.file = *file;
  logging::init_logging(options);
}

// planarmom.ConfigError (a ValueError): the message the command prints, and its file and line.
void register_config_error(py::module_& m) {
  static py::handle type = py::exception<geometry::ConfigError>(m, "ConfigError",
                                                                PyExc_ValueError).release();
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const geometry::ConfigError& e) {
      py::object error = type(e.what());
      error.attr("file") = e.file();
      error.attr("line") = e.line();
      PyErr_SetObject(type.ptr(), error.ptr());
    }
  });
}

// The closed forms the MoM is checked against, for design scripts (tools/design_*.py): the
// same functions as the checks use.
void define_formulas(py::module_& m) {
  m.def("microstrip_width_hj", &mom::width_for_impedance_hj, "z0_ohm"_a, "eps_r"_a,
        "W/h of a microstrip of impedance z0 (Hammerstad-Jensen, zero thickness)");
  m.def("microstrip_kj",
        [](double u, double eps_r, double f_ghz, double h_mm) {
          return py::make_tuple(mom::effective_permittivity_kj(u, eps_r, f_ghz, h_mm),
                                mom::impedance_kj(u, eps_r, f_ghz, h_mm));
        },
        "u"_a, "eps_r"_a, "f_ghz"_a, "h_mm"_a,
        "(εeff, Z0) of a microstrip of W/h = u at f (Kirschning-Jansen)");
  m.def("coupled_microstrip_kj",
        [](double u, double g, double eps_r, double f_ghz, double h_mm) {
          const mom::CoupledModes c = mom::coupled_microstrip_kj(u, g, eps_r, f_ghz, h_mm);
          return py::make_tuple(c.eps_eff_even, c.eps_eff_odd, c.z0_even, c.z0_odd);
        },
        "u"_a, "g"_a, "eps_r"_a, "f_ghz"_a, "h_mm"_a,
        "(εeff even, εeff odd, Z0 even, Z0 odd) of a symmetric coupled pair, W/h = u, S/h = g "
        "(Kirschning-Jansen)");
}

void define_module(py::module_& m) {
  m.doc() = "planarmom's sweep library; use it through the package planarmom (docs/PYTHON.md)";
  register_config_error(m);
  // Without a sink Boost.Log prints every record: quiet until a sweep says otherwise.
  init_logging("quiet", std::nullopt);

  py::class_<sweep::SweepJob, std::unique_ptr<sweep::SweepJob>>(
      m, "Job", "A config read, checked and meshed (pmom::sweep::SweepJob)");
  m.def("load_sweep",
        [](const std::string& file) {
          return std::make_unique<sweep::SweepJob>(sweep::load_sweep(file));
        },
        "file"_a, py::call_guard<py::gil_scoped_release>(), "Reads, checks and meshes a config file");
  m.def("load_sweep_text",
        [](const std::string& text, const std::string& name) {
          return std::make_unique<sweep::SweepJob>(sweep::load_sweep_text(text, name));
        },
        "text"_a, "name"_a, py::call_guard<py::gil_scoped_release>(),
        "Reads, checks and meshes a config's YAML text; `name` stands for its file");
  m.def("run_sweep", &run, "job"_a, "backend"_a, "out_dir"_a, "resume"_a, "line_cache"_a,
        "progress"_a, "Runs a loaded sweep; a dict of its results");
  m.def("config_yaml", &config_yaml, "config"_a, "The YAML text of a config dict");
  m.def("init_logging", &init_logging, "verbosity"_a, "file"_a,
        "The library's log on stderr: quiet, normal or verbose; everything also to `file`");
  define_formulas(m);
}

}  // namespace
}  // namespace pmom::python

PYBIND11_MODULE(_core, m) { pmom::python::define_module(m); }
