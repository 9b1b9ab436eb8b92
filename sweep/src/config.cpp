// Reading the non-geometry sections of a sweep config (and the frequency section of
// `planarmom line`) with the geometry config's checks: every mistake reads "FILE:LINE: what",
// naming the key path.
#include "planarmom/sweep/config.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <limits>
#include <stdexcept>
#include <vector>

#include "planarmom/geometry/yaml_reader.hpp"
#include "planarmom/sweep/config_schema.hpp"

namespace pmom::sweep {
namespace {

using geometry::YamlReader;

// The name of `value` in `names`.
template <class E, std::size_t N> std::string name_of(const Named<E> (&names)[N], E value) {
  for (const Named<E>& n : names)
    if (n.value == value) return std::string(n.name);
  throw std::logic_error("a setting's value without a name");
}


// frequencies.adaptive and adaptive_tolerance, in the mapping form.
void read_adaptive(const YamlReader& r, const YAML::Node& node, SweepSettings& s) {
  if (!node.IsMap()) return;
  if (const YAML::Node n = node["adaptive"])
    s.sampling = r.boolean(n, "/frequencies/adaptive") ? Sampling::adaptive
                                                        : Sampling::every_frequency;
  if (const YAML::Node n = node["adaptive_tolerance"]) {
    s.adaptive_tolerance = r.number(n, "/frequencies/adaptive_tolerance");
    if (!(s.adaptive_tolerance > 0 && s.adaptive_tolerance <= 0.1))
      r.fail(n, "/frequencies/adaptive_tolerance must be in (0, 0.1] (the largest |dS| the fit "
                "may be off by), got " + n.Scalar());
    if (s.sampling == Sampling::every_frequency)
      r.fail(n, "/frequencies/adaptive_tolerance goes with an adaptive sweep, not adaptive: false "
                "(which solves every frequency)");
  }
}

void read_sparsify(const YamlReader& r, const YAML::Node& node, SweepSettings& s) {
  r.check_keys(node, "/sparsify", settings_schema().keys("/sparsify"));
  if (const YAML::Node n = node["density"]) {
    s.density = r.number(n, "/sparsify/density");
    if (!(s.density > 0 && s.density <= 1))
      r.fail(n, "/sparsify/density must be in (0, 1], got " + n.Scalar());
  }
  if (const YAML::Node n = node["rule"])
    s.rule = r.choice(n, "/sparsify/rule", kRuleNames);
  else if (node["density"] || node["check_dense"] || node["format"] || node["reach_heights"])
    s.rule = Rule::magnitude;  // what thresholds or stores Z, without a rule: the largest |Z_mn|
  if (s.rule == Rule::exact && node["density"])
    r.fail(node["density"], "/sparsify/density: rule exact keeps every interaction (Z x by FFT); "
                            "give no density");
  if (const YAML::Node n = node["reach_heights"]) {
    s.reach_heights = r.positive(n, "/sparsify/reach_heights");
    if (node["density"])
      r.fail(n, "/sparsify: give density or reach_heights, not both (the reach sets the density)");
    if (s.rule != Rule::mpie)
      r.fail(n, "/sparsify/reach_heights needs rule: mpie (the magnitude rule keeps the largest "
                "entries, whatever their distance)");
    if (!(s.reach_heights <= 1e4))
      r.fail(n, "/sparsify/reach_heights must be at most 1e4 substrate heights, got " + n.Scalar());
  }
  if (const YAML::Node n = node["check_dense"]) {
    s.check_dense = r.boolean(n, "/sparsify/check_dense");
    if (s.check_dense && s.rule == Rule::exact)
      r.fail(n, "/sparsify/check_dense compares a thresholded Z with the dense one; rule exact "
                "thresholds nothing");
  }
  if (const YAML::Node n = node["format"])
    s.format = r.choice(n, "/sparsify/format", kZFormatNames);
}

void read_solver(const YamlReader& r, const YAML::Node& node, SweepSettings& s) {
  r.check_keys(node, "/solver", settings_schema().keys("/solver"));
  if (const YAML::Node n = node["method"])
    s.method = r.choice(n, "/solver/method", kSweepMethodNames);
  if (const YAML::Node n = node["tolerance"]) {
    s.tolerance = r.number(n, "/solver/tolerance");
    if (!(s.tolerance > 0 && s.tolerance < 1))
      r.fail(n, "/solver/tolerance must be in (0, 1), got " + n.Scalar());
  }
  if (const YAML::Node n = node["max_iterations"])
    s.max_iterations =
        r.integer(n, "/solver/max_iterations", 1, std::numeric_limits<int>::max());
  if (const YAML::Node n = node["backend"])
    s.backend = r.choice(n, "/solver/backend", kBackendNames);
  if (const YAML::Node n = node["symmetry"])
    s.symmetry = r.choice(n, "/solver/symmetry", kSymmetryNames);
  if (const YAML::Node n = node["preconditioner"]) {
    s.preconditioner = r.choice(n, "/solver/preconditioner", kPreconditionerNames);
    if (s.preconditioner == PreconditionerChoice::lu && s.rule != Rule::exact)
      r.fail(n, "/solver/preconditioner lu needs sparsify rule exact (Z's LU preconditions the "
                "operator with every interaction); use block with rule " + to_string(s.rule));
    const bool complex_symmetric = s.preconditioner == PreconditionerChoice::block ||
                                   s.preconditioner == PreconditionerChoice::lu;
    if (complex_symmetric && s.method != Method::automatic && s.method != Method::cocg)
      r.fail(n, "/solver/preconditioner " + to_string(s.preconditioner) +
                    " needs method auto or cocg (its M⁻¹ is complex symmetric, as COCG needs); "
                    "use jacobi with " + name_of(kSweepMethodNames, s.method));
  }
}

void read_accuracy(const YamlReader& r, const YAML::Node& node, SweepSettings& s) {
  r.check_keys(node, "/accuracy", settings_schema().keys("/accuracy"));
  if (const YAML::Node n = node["greens_table"]) {
    s.greens_table_accuracy = r.number(n, "/accuracy/greens_table");
    if (!(s.greens_table_accuracy >= 1e-10 && s.greens_table_accuracy <= 1e-3))
      r.fail(n, "/accuracy/greens_table must be in [1e-10, 1e-3] (relative error of the "
                "Green's tables), got " + n.Scalar());
  }
  if (const YAML::Node n = node["quadrature"])
    s.quadrature = r.integer(n, "/accuracy/quadrature", 1, 4);
  if (const YAML::Node n = node["interpolate_tables"])
    s.interpolate_tables = r.boolean(n, "/accuracy/interpolate_tables");
}

// Output paths: given ones relative to the config file's folder, the others the config file's
// stem with `extension` beside it.
void read_output(const YamlReader& r, const YAML::Node& node, int ports, SweepSettings& s) {
  const std::filesystem::path config(r.file());
  const std::filesystem::path folder = config.parent_path();
  const auto path = [&](const char* key, const std::string& extension) {
    if (node && node[key]) {
      const YAML::Node n = node[key];
      const std::string where = std::string("/output/") + key;
      const std::filesystem::path given(r.text(n, where));
      if (given.empty()) r.fail(n, where + " must not be empty");
      return (given.is_absolute() ? given : folder / given).string();
    }
    return (folder / config.stem()).string() + extension;
  };
  if (node) r.check_keys(node, "/output", settings_schema().keys("/output"));
  if (node && node["currents"]) {
    const YAML::Node list = node["currents"];
    if (!list.IsSequence() || list.size() == 0)
      r.fail(list, "/output/currents must be a list of the sweep's frequencies in Hz");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string where = "/output/currents/" + std::to_string(i);
      const double hz = r.positive(list[i], where);
      const auto nearest = std::min_element(
          s.frequencies_hz.begin(), s.frequencies_hz.end(),
          [hz](double a, double b) { return std::abs(a - hz) < std::abs(b - hz); });
      if (!(std::abs(*nearest - hz) <= 1e-9 * hz)) {
        std::ostringstream text;
        text << where << ": " << hz << " Hz is not one of the sweep's frequencies (the nearest is "
             << *nearest << " Hz); the currents are kept only where the sweep solves";
        r.fail(list[i], text.str());
      }
      s.current_frequencies_hz.push_back(*nearest);
    }
  }
  if (node && node["keep_solutions"])
    s.keep_solutions = r.boolean(node["keep_solutions"], "/output/keep_solutions");
  s.hdf5 = path("hdf5", ".h5");
  s.touchstone = path("touchstone", ".s" + std::to_string(ports) + "p");
  s.plot = path("plot", ".png");
  s.layout = path("layout", ".svg");
}

}  // namespace

std::vector<double> read_frequencies(const YAML::Node& node, const std::string& file,
                                     const YamlReader::Keys& accepted) {
  constexpr int kMaxPoints = 100000;
  const YamlReader r(file);
  std::vector<double> f;
  if (node.IsSequence()) {
    if (node.size() == 0) r.fail(node, "/frequencies must not be an empty list");
    for (std::size_t i = 0; i < node.size(); ++i) {
      const std::string path = "/frequencies/" + std::to_string(i);
      f.push_back(r.positive(node[i], path));
      if (i > 0 && !(f[i] > f[i - 1]))
        r.fail(node[i], path + " must be greater than the entry before it (" +
                            node[i - 1].Scalar() + "): the list must be increasing without "
                            "duplicates, got " + node[i].Scalar());
    }
    return f;
  }
  if (!node.IsMap())
    r.fail(node, "/frequencies must be {start_hz, stop_hz, points} or a list of frequencies in Hz");
  r.check_keys(node, "/frequencies", accepted);
  const double start =
      r.positive(r.require(node, "/frequencies", "start_hz"), "/frequencies/start_hz");
  const YAML::Node stop_node = r.require(node, "/frequencies", "stop_hz");
  const double stop = r.positive(stop_node, "/frequencies/stop_hz");
  if (stop < start)
    r.fail(stop_node, "/frequencies/stop_hz must be >= start_hz (" +
                          node["start_hz"].Scalar() + "), got " + stop_node.Scalar());
  const YAML::Node points_node = r.require(node, "/frequencies", "points");
  const int points =
      r.integer(points_node, "/frequencies/points", 1, std::numeric_limits<int>::max());
  if (points > kMaxPoints)
    r.fail(points_node, "/frequencies/points must be at most " + std::to_string(kMaxPoints) +
                            " (each point is a full solve), got " + points_node.Scalar());
  if (points > 1 && stop == start)
    r.fail(points_node, "/frequencies/points must be 1 when stop_hz equals start_hz, got " +
                            points_node.Scalar());
  for (int i = 0; i < points; ++i) {
    // The step as a fraction of the span: (stop - start) * i could overflow.
    const double fraction = static_cast<double>(i) / (points - 1);
    f.push_back(i == 0 ? start : i == points - 1 ? stop : start + (stop - start) * fraction);
    if (i > 0 && !(f[i] > f[i - 1]))
      r.fail(points_node, "/frequencies/points: " + points_node.Scalar() + " points from " +
                              node["start_hz"].Scalar() + " to " + stop_node.Scalar() +
                              " Hz are closer than double precision tells apart; use fewer");
  }
  return f;
}

SweepSettings read_sweep_settings(const YAML::Node& root, const std::string& file, int ports) {
  const YamlReader r(file);
  if (!root.IsMap()) r.fail(root, "the config must be a mapping of sections");
  SweepSettings s;
  s.frequencies_hz = read_frequencies(r.require(root, "", "frequencies"), file,
                                      settings_schema().keys("/frequencies"));
  read_adaptive(r, root["frequencies"], s);
  if (const YAML::Node n = root["sparsify"]) read_sparsify(r, n, s);
  if (const YAML::Node n = root["solver"]) read_solver(r, n, s);
  read_output(r, root["output"], ports, s);
  if (const YAML::Node n = root["termination"])
    s.termination = r.choice(n, "/termination", kTerminationNames);
  if (const YAML::Node n = root["deembedding"])
    s.deembedding = r.choice(n, "/deembedding", kDeembeddingNames);
  if (const YAML::Node n = root["accuracy"]) read_accuracy(r, n, s);
  return s;
}

std::string to_string(Rule v) { return name_of(kRuleNames, v); }
std::string to_string(ZFormat v) { return name_of(kZFormatNames, v); }
std::string to_string(BackendChoice v) { return name_of(kBackendNames, v); }
std::string to_string(PreconditionerChoice v) { return name_of(kPreconditionerNames, v); }
std::string to_string(Termination v) { return name_of(kTerminationNames, v); }
std::string to_string(Deembedding v) { return name_of(kDeembeddingNames, v); }

BackendChoice parse_backend_choice(const std::string& name) {
  for (const Named<BackendChoice>& n : kBackendNames)
    if (n.name == name) return n.value;
  throw std::invalid_argument("backend must be one of auto, cpu, cuda, got '" + name + "'");
}

bool is_adaptive(const SweepSettings& settings) {
  return settings.sampling == Sampling::adaptive ||
         (settings.sampling == Sampling::automatic &&
          settings.frequencies_hz.size() >= SweepSettings::kAdaptiveFrom);
}

mom::AssemblyOptions assembly_options(const SweepSettings& settings) {
  mom::AssemblyOptions o;
  o.far_order *= settings.quadrature;
  o.near_order *= settings.quadrature;
  o.outer_order *= settings.quadrature;
  o.distant_order *= settings.quadrature;
  o.remote_order *= settings.quadrature;
  return o;
}

mom::TableOptions table_options(const SweepSettings& settings) {
  mom::TableOptions o;
  o.accuracy = settings.greens_table_accuracy;
  return o;
}

}  // namespace pmom::sweep
