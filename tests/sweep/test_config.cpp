// The sweep config's own sections (frequencies, sparsify, solver, output): the example coupler
// parses with its defaults, and each kind of mistake is a ConfigError "sweep.yaml:LINE: ..."
// naming the key path.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <string>
#include <tuple>
#include <vector>

#include "geometry/layouts.hpp"
#include "planarmom/geometry/config_yaml.hpp"
#include "planarmom/sweep/config.hpp"

namespace pmom::sweep {
namespace {

using geometry::ConfigError;
using geometry::test::expect_error;

// Line numbers below refer to this text (line 1 is "frequencies:"); the geometry sections are
// not read here.
const std::string kValid = R"(frequencies:
  start_hz: 1.0e9
  stop_hz: 2.0e9
  points: 3
sparsify:
  density: 0.1
  check_dense: true
  format: hyb
solver:
  method: cocg
  tolerance: 1.0e-6
  max_iterations: 200
  backend: cpu
output:
  hdf5: out/run.h5
  touchstone: /tmp/run.s2p
)";

// kValid with the sparsify rule given (line 9 of this text).
const std::string kWithRule = [] {
  std::string text = kValid;
  return text.replace(text.find("  format: hyb\n"), 14, "  format: hyb\n  rule: mpie\n");
}();

SweepSettings read(const std::string& text, const std::string& file = "dir/sweep.yaml") {
  return read_sweep_settings(YAML::Load(text), file, 2);
}

// kValid with the first occurrence of `from` replaced by `to`.
std::string edited(const std::string& from, const std::string& to) {
  std::string text = kValid;
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

// Every field but the frequencies.
auto fields(const SweepSettings& s) {
  return std::tie(s.density, s.rule, s.check_dense, s.format, s.method, s.tolerance,
                  s.max_iterations, s.backend, s.preconditioner, s.symmetry, s.termination, s.hdf5,
                  s.touchstone, s.plot, s.layout, s.sampling, s.adaptive_tolerance,
                  s.deembedding);
}

void expect_bad(const std::string& text, const std::string& message) {
  expect_error<ConfigError>([&] { (void)read(text); }, "dir/sweep.yaml:" + message);
}

// Current pictures at frequencies of the sweep only (1, 1.5 and 2 GHz here).
TEST(SweepConfig, CurrentPicturesAtTheSweepsFrequencies) {
  EXPECT_TRUE(read(kValid).current_frequencies_hz.empty());
  const SweepSettings s = read(kValid + "  currents: [1.5e9, 2.0e9]\n");
  EXPECT_EQ(s.current_frequencies_hz, (std::vector<double>{1.5e9, 2.0e9}));
  expect_bad(kValid + "  currents: [1.6e9]\n",
             "17: /output/currents/0: 1.6e+09 Hz is not one of the sweep's frequencies (the "
             "nearest is 1.5e+09 Hz); the currents are kept only where the sweep solves");
  expect_bad(kValid + "  currents: []\n",
             "17: /output/currents must be a list of the sweep's frequencies in Hz");
}

// The finished file keeps the solutions of output: {currents} only, unless keep_solutions.
TEST(SweepConfig, KeepSolutionsIsABoolOffByDefault) {
  EXPECT_FALSE(read(kValid).keep_solutions);
  EXPECT_TRUE(read(kValid + "  keep_solutions: true\n").keep_solutions);
  EXPECT_FALSE(read(kValid + "  keep_solutions: false\n").keep_solutions);
  EXPECT_THROW((void)read(kValid + "  keep_solutions: sometimes\n"), ConfigError);
}

TEST(SweepConfig, ExampleCouplerParses) {
  const std::string file = PLANARMOM_SOURCE_DIR "/examples/branch_line_coupler.yaml";
  const YAML::Node root = YAML::LoadFile(file);
  const geometry::GeometryConfig geometry = geometry::parse_geometry_config(root, file);
  ASSERT_EQ(geometry.layout.ports.size(), 4u);
  EXPECT_EQ(geometry.layout.ports[0].name, "in");
  EXPECT_EQ(geometry.layout.ports[3].name, "isolated");
  ASSERT_TRUE(geometry.mesh.cell_mm.has_value());
  const geometry::Mesh mesh = geometry.make_mesh(*geometry.mesh.cell_mm);
  EXPECT_EQ(mesh.ports().size(), 4u);
  // Cells of 0.2 mm along x and 0.4 mm along y: series arms 84 x 5 each, shunt arms 6 x 45 less
  // the corners, feeds 100 x 3 (on square 0.4 mm cells 42 x 5, 3 x 45 and 50 x 3: 2126
  // unknowns with 24 cell bubbles, six at each corner of the ring).
  EXPECT_EQ(mesh.metal_cell_count(), 2 * 84 * 5 + 2 * (6 * 45 - 2 * 6 * 5) + 4 * 100 * 3);
  EXPECT_EQ(mesh.basis().size(), 4308u);
  EXPECT_EQ(mesh.bubble_count(), 24);

  const SweepSettings s = read_sweep_settings(root, file, 4);
  ASSERT_EQ(s.frequencies_hz.size(), 101u);
  EXPECT_DOUBLE_EQ(s.frequencies_hz.front(), 2.0e9);
  EXPECT_DOUBLE_EQ(s.frequencies_hz[50], 3.0e9);
  EXPECT_DOUBLE_EQ(s.frequencies_hz.back(), 4.0e9);
  const std::string stem = PLANARMOM_SOURCE_DIR "/examples/branch_line_coupler";
  // The example sets rule exact and tolerance 1e-9; the rest are the defaults.
  const SweepSettings expected{{},
                               1.0,
                               Rule::exact,
                               false,
                               ZFormat::automatic,
                               Method::automatic,
                               1e-9,
                               5000,
                               BackendChoice::automatic,
                               PreconditionerChoice::automatic,
                               SymmetryChoice::automatic,
                               Termination::matched,
                               stem + ".h5",
                               stem + ".s4p",
                               stem + ".png",
                               stem + ".svg",
                               {}};
  EXPECT_EQ(fields(s), fields(expected));
}

// solver.symmetry: auto by default, off on request; anything else names the choices.
TEST(SweepConfig, SymmetryIsAutoOrOff) {
  std::string text = kValid;
  text.replace(text.find("  backend: cpu\n"), 15, "  backend: cpu\n  symmetry: off\n");
  EXPECT_EQ(read(text).symmetry, SymmetryChoice::off);
  text.replace(text.find("off"), 3, "yes");
  expect_bad(text, "14: /solver/symmetry must be one of auto, off");
}

TEST(SweepConfig, GivenValuesAndOutputPaths) {
  const SweepSettings s = read(kValid);
  EXPECT_EQ(s.frequencies_hz, (std::vector<double>{1.0e9, 1.5e9, 2.0e9}));
  // Relative paths are relative to the config file's folder; missing ones default to its stem.
  const SweepSettings given{{},
                            0.1,
                            Rule::magnitude,
                            true,
                            ZFormat::hyb,
                            Method::cocg,
                            1e-6,
                            200,
                            BackendChoice::cpu,
                            PreconditionerChoice::automatic,
                            SymmetryChoice::automatic,
                            Termination::matched,
                            "dir/out/run.h5",
                            "/tmp/run.s2p",
                            "dir/sweep.png",
                            "dir/sweep.svg",
                            {}};
  EXPECT_EQ(fields(s), fields(given));
  EXPECT_EQ(read(kWithRule).rule, Rule::mpie);
  EXPECT_EQ(read(edited("backend: cpu", "backend: cpu\n  preconditioner: jacobi")).preconditioner,
            PreconditionerChoice::jacobi);
  EXPECT_EQ(read(kValid + "termination: short\n").termination, Termination::short_circuit);
  EXPECT_EQ(read(kValid + "termination: matched\n").termination, Termination::matched);
  EXPECT_EQ(read(kValid).deembedding, Deembedding::automatic);
  EXPECT_EQ(read(kValid + "deembedding: fit\n").deembedding, Deembedding::fit);
  EXPECT_EQ(read(kValid + "deembedding: calibrated\n").deembedding, Deembedding::calibrated);
  // A file in the working folder: names without a folder; only frequencies is required.
  const SweepSettings bare = read("frequencies: [3.0e9, 1.0e10]\n", "coupler.yaml");
  EXPECT_EQ(bare.frequencies_hz, (std::vector<double>{3.0e9, 1.0e10}));
  EXPECT_EQ(bare.hdf5, "coupler.h5");
  EXPECT_EQ(bare.touchstone, "coupler.s2p");
  EXPECT_DOUBLE_EQ(bare.density, 1.0);  // every entry kept
  EXPECT_EQ(bare.rule, Rule::exact);     // every interaction
  // A density, a format or the dense check without a rule: the largest |Z_mn| of a stored Z.
  const std::string f = "frequencies: [3.0e9]\n";
  EXPECT_EQ(read(f + "sparsify: {}\n").rule, Rule::exact);
  EXPECT_EQ(read(f + "sparsify: {density: 0.05}\n").rule, Rule::magnitude);
  EXPECT_EQ(read(f + "sparsify: {format: csr}\n").rule, Rule::magnitude);
  EXPECT_EQ(read(f + "sparsify: {check_dense: true}\n").rule, Rule::magnitude);
  EXPECT_EQ(read(f + "sparsify: {rule: mpie, density: 0.05}\n").rule, Rule::mpie);
}

TEST(SweepConfig, AccuracySetsTheIntegralsOptions) {
  const SweepSettings plain = read(kValid);
  EXPECT_DOUBLE_EQ(plain.greens_table_accuracy, mom::TableOptions{}.accuracy);
  EXPECT_EQ(plain.quadrature, 1);
  const mom::AssemblyOptions defaults;
  const mom::AssemblyOptions same = assembly_options(plain);
  EXPECT_EQ(std::tie(same.far_order, same.near_order, same.outer_order, same.distant_order,
                     same.remote_order),
            std::tie(defaults.far_order, defaults.near_order, defaults.outer_order,
                     defaults.distant_order, defaults.remote_order));
  const SweepSettings tight = read(kValid + "accuracy: {greens_table: 1.0e-8, quadrature: 2}\n");
  EXPECT_DOUBLE_EQ(table_options(tight).accuracy, 1e-8);
  const mom::AssemblyOptions doubled = assembly_options(tight);
  EXPECT_EQ(doubled.far_order, 2 * defaults.far_order);
  EXPECT_EQ(doubled.near_order, 2 * defaults.near_order);
  EXPECT_EQ(doubled.outer_order, 2 * defaults.outer_order);
  EXPECT_EQ(doubled.distant_order, 2 * defaults.distant_order);
  EXPECT_EQ(doubled.remote_order, 2 * defaults.remote_order);
  EXPECT_EQ(doubled.near_cells, defaults.near_cells);  // which offsets are near: unchanged
  expect_bad(kValid + "accuracy: {greens_table: 1.0e-2}\n",
             "17: /accuracy/greens_table must be in [1e-10, 1e-3] (relative error of the Green's "
             "tables), got 1.0e-2");
  expect_bad(kValid + "accuracy: {quadrature: 5}\n", "17: /accuracy/quadrature must be in 1..4, got 5");
  expect_bad(kValid + "accuracy: {quadrature: 0}\n", "17: /accuracy/quadrature must be in 1..4, got 0");
  expect_bad(kValid + "accuracy: {tables: 1.0e-8}\n",
             "17: unknown key 'tables' in /accuracy");
  EXPECT_TRUE(plain.interpolate_tables);
  EXPECT_FALSE(read(kValid + "accuracy: {interpolate_tables: false}\n").interpolate_tables);
  expect_bad(kValid + "accuracy: {interpolate_tables: 1.0e-9}\n",
             "17: /accuracy/interpolate_tables must be true or false");
}

// frequencies.adaptive and its tolerance (the mapping form only; the default 1e-3); without it a
// sweep of kAdaptiveFrom frequencies or more is adaptive.
TEST(SweepConfig, AdaptiveSweep) {
  EXPECT_EQ(read(kValid).sampling, Sampling::automatic);
  EXPECT_FALSE(is_adaptive(read(kValid)));  // 3 frequencies
  EXPECT_TRUE(is_adaptive(read(edited("  points: 3\n", "  points: 50\n"))));
  EXPECT_FALSE(is_adaptive(read(edited("  points: 3\n", "  points: 49\n"))));
  EXPECT_FALSE(is_adaptive(read(edited("  points: 3\n", "  points: 101\n  adaptive: false\n"))));
  const auto with = [](const std::string& lines) {
    return edited("  points: 3\n", "  points: 3\n" + lines);
  };
  const SweepSettings on = read(with("  adaptive: true\n"));
  EXPECT_EQ(on.sampling, Sampling::adaptive);
  EXPECT_TRUE(is_adaptive(on));
  EXPECT_EQ(on.adaptive_tolerance, 1e-3);
  EXPECT_EQ(read(with("  adaptive: true\n  adaptive_tolerance: 1.0e-4\n")).adaptive_tolerance,
            1e-4);
  expect_bad(with("  adaptive: yes please\n"), "5: /frequencies/adaptive must be true or false");
  expect_bad(with("  adaptive: true\n  adaptive_tolerance: 0.5\n"),
             "6: /frequencies/adaptive_tolerance must be in (0, 0.1] (the largest |dS| the fit "
             "may be off by), got 0.5");
  EXPECT_EQ(read(with("  adaptive_tolerance: 1.0e-4\n")).adaptive_tolerance, 1e-4);
  expect_bad(with("  adaptive: false\n  adaptive_tolerance: 1.0e-4\n"),
             "6: /frequencies/adaptive_tolerance goes with an adaptive sweep, not adaptive: false "
             "(which solves every frequency)");
  expect_bad(with("  adaptiv: true\n"),
             "5: unknown key 'adaptiv' in /frequencies (did you mean 'adaptive'?)");
}

TEST(SweepConfig, UnknownKeys) {
  expect_bad(edited("  tolerance:", "  tolerence:"),
             "11: unknown key 'tolerence' in /solver (did you mean 'tolerance'?)");
  expect_bad(edited("  density:", "  densty:"),
             "6: unknown key 'densty' in /sparsify (did you mean 'density'?)");
  expect_bad(edited("  hdf5:", "  hdf:"), "15: unknown key 'hdf' in /output (did you mean 'hdf5'?)");
  expect_bad(edited("  points:", "  point:"),
             "4: unknown key 'point' in /frequencies (did you mean 'points'?)");
  expect_bad("sparsify: {density: 0.1}\n", "1: missing required key 'frequencies' in /");
}

TEST(SweepConfig, BadSparsifyAndSolverValues) {
  struct Case {
    std::string from, to, message;
  };
  const Case cases[] = {
      {"density: 0.1", "density: 0", "6: /sparsify/density must be in (0, 1], got 0"},
      {"density: 0.1", "density: 1.5", "6: /sparsify/density must be in (0, 1], got 1.5"},
      {"format: hyb", "format: ell", "8: /sparsify/format must be one of auto, csr, hyb, got 'ell'"},
      {"check_dense: true", "check_dense: maybe", "7: /sparsify/check_dense must be true or false"},
      {"method: cocg", "method: gmres",
       "10: /solver/method must be one of auto, bicg, cocg, bicgstab, got 'gmres'"},
      {"backend: cpu", "backend: opencl",
       "13: /solver/backend must be one of auto, cpu, cuda, got 'opencl'"},
      {"tolerance: 1.0e-6", "tolerance: 0", "11: /solver/tolerance must be in (0, 1), got 0"},
      {"max_iterations: 200", "max_iterations: 0",
       "12: /solver/max_iterations must be >= 1, got 0"},
      {"hdf5: out/run.h5", "hdf5: [a, b]", "15: /output/hdf5 must be a string"},
      {"hdf5: out/run.h5", "hdf5: ''", "15: /output/hdf5 must not be empty"},
      {"backend: cpu", "backend: cpu\n  preconditioner: ilu",
       "14: /solver/preconditioner must be one of auto, lu, block, jacobi, got 'ilu'"},
      {"method: cocg", "method: bicg\n  preconditioner: block",
       "11: /solver/preconditioner block needs method auto or cocg (its M⁻¹ is complex "
       "symmetric, as COCG needs); use jacobi with bicg"},
      // Z's LU needs Z with every interaction: a thresholded Z is another matrix.
      {"backend: cpu", "backend: cpu\n  preconditioner: lu",
       "14: /solver/preconditioner lu needs sparsify rule exact (Z's LU preconditions the "
       "operator with every interaction); use block with rule magnitude"},
  };
  for (const Case& c : cases) expect_bad(edited(c.from, c.to), c.message);
  // The sparsify rule, with the nearest choice named when it is close.
  const auto rule = [](const std::string& value) {
    std::string text = kWithRule;
    return text.replace(text.find("rule: mpie"), 10, "rule: " + value);
  };
  expect_bad(rule("mpi"),
             "9: /sparsify/rule must be one of magnitude, mpie, exact, got 'mpi' (did you mean 'mpie'?)");
  expect_bad(rule("magnitud"), "9: /sparsify/rule must be one of magnitude, mpie, exact, got 'magnitud' "
                               "(did you mean 'magnitude'?)");
  expect_bad(rule("loop-star"),
             "9: /sparsify/rule must be one of magnitude, mpie, exact, got 'loop-star'");
  // Rule exact keeps every interaction: a density would mean nothing.
  expect_bad(rule("exact"), "6: /sparsify/density: rule exact keeps every interaction (Z x by "
                            "FFT); give no density");
  {
    std::string text = rule("exact");
    text.erase(text.find("  density:"), text.find('\n', text.find("  density:")) -
                                            text.find("  density:") + 1);
    expect_bad(text, "6: /sparsify/check_dense compares a thresholded Z with the dense one; "
                     "rule exact thresholds nothing");
    text.replace(text.find("check_dense: true"), 17, "check_dense: false");
    EXPECT_EQ(read(text).rule, Rule::exact);
    // With rule exact Z's LU may be asked for.
    text.replace(text.find("backend: cpu"), 12, "backend: cpu\n  preconditioner: lu");
    EXPECT_EQ(read(text).preconditioner, PreconditionerChoice::lu);
  }
  expect_bad(edited("format: hyb", "format: hib"),
             "8: /sparsify/format must be one of auto, csr, hyb, got 'hib' (did you mean 'hyb'?)");
  // A reach instead of a density, with rule mpie only.
  const auto reach = [](const std::string& line) {
    std::string text = kWithRule;
    return text.replace(text.find("  density: 0.1\n"), 15, line);
  };
  EXPECT_DOUBLE_EQ(read(reach("  reach_heights: 4.5\n")).reach_heights, 4.5);
  EXPECT_DOUBLE_EQ(read(kWithRule).reach_heights, 0.0);
  expect_bad(reach("  reach_heights: 0\n"), "6: /sparsify/reach_heights must be > 0, got 0");
  expect_bad(reach("  reach_heights: 1e5\n"),
             "6: /sparsify/reach_heights must be at most 1e4 substrate heights, got 1e5");
  expect_bad(edited("  density: 0.1\n", "  reach_heights: 4\n"),
             "6: /sparsify/reach_heights needs rule: mpie (the magnitude rule keeps the largest "
             "entries, whatever their distance)");
  expect_bad(reach("  density: 0.1\n  reach_heights: 4\n"),
             "7: /sparsify: give density or reach_heights, not both (the reach sets the density)");
  expect_bad(kValid + "termination: open\n",
             "17: /termination must be one of matched, short, got 'open'");
  expect_bad(kValid + "deembedding: trl\n",
             "17: /deembedding must be one of auto, fit, calibrated, got 'trl'");
}

TEST(SweepConfig, BadFrequencies) {
  expect_bad("frequencies: []\n", "1: /frequencies must not be an empty list");
  expect_bad("frequencies:\n  - 1.0e9\n  - 3.0e9\n  - 2.0e9\n",
             "4: /frequencies/2 must be greater than the entry before it (3.0e9)");
  expect_bad("frequencies: [1.0e9, 1.0e9]\n",
             "1: /frequencies/1 must be greater than the entry before it (1.0e9)");
  expect_bad("frequencies: [1.0e9, -2]\n", "1: /frequencies/1 must be > 0, got -2");
  expect_bad(edited("stop_hz: 2.0e9", "stop_hz: 0.5e9"),
             "3: /frequencies/stop_hz must be >= start_hz (1.0e9), got 0.5e9");
  expect_bad(edited("stop_hz: 2.0e9", "stop_hz: 1.0e9"),
             "4: /frequencies/points must be 1 when stop_hz equals start_hz, got 3");
  expect_bad(edited("points: 3", "points: 0"), "4: /frequencies/points must be >= 1, got 0");
  expect_bad("frequencies: 3.0e9\n",
             "1: /frequencies must be {start_hz, stop_hz, points} or a list of frequencies in Hz");
  // One point needs no span.
  EXPECT_EQ(read("frequencies: {start_hz: 1.0e9, stop_hz: 1.0e9, points: 1}\n").frequencies_hz,
            (std::vector<double>{1.0e9}));
}

}  // namespace
}  // namespace pmom::sweep
