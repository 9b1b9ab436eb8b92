// The non-geometry sections of a sweep config (DESIGN §7): frequencies, sparsify, solver and
// output, every key in docs/CONFIG.md. The geometry sections (substrate, metal, layout, ports,
// mesh) are read by geometry::parse_geometry_config from the same document.
//
//   frequencies: {start_hz: 2.0e9, stop_hz: 4.0e9, points: 101}   # or a list in Hz
//     # adaptive: true solves a few of them and fits the rest (adaptive_sampler.hpp), refining
//     # until two competing models agree within adaptive_tolerance (|ΔS|, default 1e-3)
//   sparsify: {rule: exact}   # or {density: 0.05, rule: magnitude, check_dense: false, format: auto}
//     # rule: magnitude | mpie | exact; format: auto | csr | hyb; with rule mpie,
//     # reach_heights: R instead of density keeps the interactions within R substrate heights;
//     # rule exact (the default, no density) keeps every interaction, Z x by FFT
//     # (mom/convolution_operator.hpp) or by Z itself beside its LU; a density, a format or
//     # check_dense without a rule means rule magnitude
//   solver: {method: auto, tolerance: 1.0e-7, max_iterations: 5000, backend: auto,
//            preconditioner: auto}
//   output: {hdf5: coupler.h5, touchstone: coupler.s4p, plot: coupler.png, layout: coupler.svg}
//   termination: matched   # or short: what loads every port's gap (mom/port_loads.hpp)
//   deembedding: auto      # or fit, calibrated: how each port's waves are found
//   accuracy: {greens_table: 1.0e-6, quadrature: 1, interpolate_tables: true}
//     # the MoM integrals' accuracy knobs; interpolate_tables: the host's offset tables over the
//     # band from a few exact evaluations (mom/band_tables.hpp)
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "planarmom/geometry/named.hpp"
#include "planarmom/geometry/yaml_reader.hpp"
#include "planarmom/gpusolver/solver.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/greens_table.hpp"

namespace pmom::sweep {

// The enumerated settings, parsed once where the config is read. Each has one table of names,
// which serves the reader and to_string (log lines, messages).

// sparsify.rule: which entries of Z are kept, and so how Z·x is made (z_route.hpp).
// magnitude: the largest |Z_mn| of the dense Z (sparsify::sparsify); mpie: the
// structure-preserving pattern assembled directly as CSR (mom/sparse_assembly.hpp); exact:
// every interaction, Z·x by FFT (mom/convolution_operator.hpp).
enum class Rule { magnitude, mpie, exact };
// sparsify.format of a thresholded Z: chosen from its rows (sparsify::suggest_format), or given.
enum class ZFormat { automatic, csr, hyb };
// solver.backend: automatic is cuda where a device is visible, else cpu.
enum class BackendChoice { automatic, cpu, cuda };
// solver.preconditioner. lu: Z's LU at one frequency for the next ones (rule exact;
// recycled_inverse.hpp); block: block Jacobi on geometric tiles of the layout (tile_blocks.hpp);
// both COCG only. jacobi: the diagonal.
// automatic: lu with rule exact where the backend factors a matrix of Z's size, else block.
enum class PreconditionerChoice { automatic, lu, block, jacobi };
// solver.symmetry. automatic: where the layout is mirror-symmetric (or half-turn) and so are
// its loads, Z's LU is made on the symmetry's two parities (mom/mesh_symmetry.hpp, gpusolver's
// preconditioners/folded_inverse.hpp), a quarter of the work; off: one LU of all of Z.
enum class SymmetryChoice { automatic, off };
// frequencies.adaptive: which of the frequencies are solved. every_frequency: all of them;
// adaptive: a few, S at the others from a rational model of them (adaptive_sampler.hpp);
// automatic: adaptive for kAdaptiveFrom frequencies or more on one worker, else every one
// (is_adaptive).
enum class Sampling { automatic, every_frequency, adaptive };
// termination: what loads every port's delta gap. matched: Z0 − Z_end, so that each feed sees
// its own Z0 (the undriven feeds absorb what reaches them, as on a bench); short_circuit: an
// ideal short (the layout is then a resonator of open-ended feeds). S does not depend on it:
// the de-embedding fits the waves on the feeds.
enum class Termination { matched, short_circuit };
// deembedding: how each port's two waves are found (mom/deembed.hpp, PortWaves). fit: fitted on
// its feed clear of the near fields (the feed long enough for it); calibrated: from its gap's
// voltage and current through the launch its line standard calibrated (any feed; every entry of
// Z kept, as on the standard); automatic: fitted where the feed leaves the fit its room (the
// examples' S as before), calibrated where it does not and every entry is kept (port_waves,
// feed_lines.hpp).
enum class Deembedding { automatic, fit, calibrated };

using geometry::Named;
inline constexpr Named<Rule> kRuleNames[] = {
    {"magnitude", Rule::magnitude}, {"mpie", Rule::mpie}, {"exact", Rule::exact}};
inline constexpr Named<ZFormat> kZFormatNames[] = {
    {"auto", ZFormat::automatic}, {"csr", ZFormat::csr}, {"hyb", ZFormat::hyb}};
// The methods a sweep takes (the Krylov methods of the BiCG family and BiCGSTAB).
inline constexpr Named<Method> kSweepMethodNames[] = {{"auto", Method::automatic},
                                                      {"bicg", Method::bicg},
                                                      {"cocg", Method::cocg},
                                                      {"bicgstab", Method::bicgstab}};
inline constexpr Named<BackendChoice> kBackendNames[] = {{"auto", BackendChoice::automatic},
                                                         {"cpu", BackendChoice::cpu},
                                                         {"cuda", BackendChoice::cuda}};
inline constexpr Named<PreconditionerChoice> kPreconditionerNames[] = {
    {"auto", PreconditionerChoice::automatic},
    {"lu", PreconditionerChoice::lu},
    {"block", PreconditionerChoice::block},
    {"jacobi", PreconditionerChoice::jacobi}};
inline constexpr Named<SymmetryChoice> kSymmetryNames[] = {{"auto", SymmetryChoice::automatic},
                                                           {"off", SymmetryChoice::off}};
inline constexpr Named<Termination> kTerminationNames[] = {{"matched", Termination::matched},
                                                           {"short", Termination::short_circuit}};
inline constexpr Named<Deembedding> kDeembeddingNames[] = {{"auto", Deembedding::automatic},
                                                           {"fit", Deembedding::fit},
                                                           {"calibrated", Deembedding::calibrated}};

std::string to_string(Rule v);
std::string to_string(ZFormat v);
std::string to_string(BackendChoice v);
std::string to_string(PreconditionerChoice v);
std::string to_string(Termination v);
std::string to_string(Deembedding v);
// "cpu" or "cuda" for the command line's --backend; throws std::invalid_argument naming the
// choices.
BackendChoice parse_backend_choice(const std::string& name);

struct SweepSettings {
  std::vector<double> frequencies_hz;  // not empty, each > 0, increasing, no duplicates
  // (0, 1]. Default 1: every entry kept. No thresholded Z converged on the boards measured
  // (docs/VALIDATION.md, "Thresholding on thick substrates"); below 1 the sweep warns.
  double density = 1.0;
  // Every interaction by default: with Z's LU as the preconditioner where it fits, the fastest
  // route measured (docs/PERFORMANCE.md, v0.35).
  Rule rule = Rule::exact;
  bool check_dense = false;            // dense LU reference per frequency (small N only)
  ZFormat format = ZFormat::automatic;
  Method method = Method::automatic;   // one of kSweepMethodNames
  double tolerance = 1e-7;             // (0, 1)
  int max_iterations = 5000;           // >= 1
  BackendChoice backend = BackendChoice::automatic;
  PreconditionerChoice preconditioner = PreconditionerChoice::automatic;
  SymmetryChoice symmetry = SymmetryChoice::automatic;
  Termination termination = Termination::matched;
  // Output paths; relative ones are relative to the config file's folder; defaults: the config
  // file's stem with .h5, .sNp (N = ports), .png and .svg beside it.
  std::string hdf5, touchstone, plot, layout;
  // `output: {currents: [Hz, ...]}`: frequencies of the sweep (each one of frequencies_hz) whose
  // current pictures are drawn for every driven port (current_picture.hpp).
  std::vector<double> current_frequencies_hz;
  // `output: {keep_solutions: true}`: the finished HDF5 file keeps the port solutions of every
  // frequency solved, not only of current_frequencies_hz (io::KeptSolutions).
  bool keep_solutions = false;
  // Not in the file: `sweep --no-line-cache` turns it off (sweep/line_cache.hpp).
  bool line_cache = true;
  // The accuracy of the integrals behind Z, for convergence studies (tools/converge.py): the
  // Green's tables' relative interpolation target (mom::TableOptions::accuracy) and a factor on
  // every Gauss order of the Galerkin integrals (mom::AssemblyOptions). The feed lines' checks
  // keep the defaults.
  double greens_table_accuracy = 1e-6;  // [1e-10, 1e-3]
  int quadrature = 1;                   // 1 to 4
  // On the host, adaptive sweeps and sweeps of at least kBandTablesFrom frequencies interpolate
  // the offset tables over the band (mom::BandTables) to greens_table_accuracy × 1e-3 of their
  // largest entry.
  bool interpolate_tables = true;
  static constexpr std::size_t kBandTablesFrom = 15;  // twice the 7 evaluations it starts with
  // Rule mpie only: when > 0, the pattern's reach in substrate heights
  // (mom::mpie_sparsity_in_heights), the density its outcome; 0: the reach that gives
  // `density`.
  double reach_heights = 0;
  // frequencies.adaptive (true, false, or absent: automatic; `sweep --adaptive` sets it):
  // adaptive sweeps solve a few of frequencies_hz, the others from a rational model of them,
  // refined until two competing models agree within adaptive_tolerance (the largest |ΔS| at any
  // frequency). Every example of the project measured safe (docs/PERFORMANCE.md v0.29).
  Sampling sampling = Sampling::automatic;
  double adaptive_tolerance = 1e-3;  // (0, 0.1]
  Deembedding deembedding = Deembedding::automatic;
  static constexpr std::size_t kAdaptiveFrom = 50;
};

// Whether the sweep is adaptive: Sampling::adaptive, or automatic with kAdaptiveFrom
// frequencies or more.
[[nodiscard]] bool is_adaptive(const SweepSettings& settings);

// The YAML frequency section, shared with `planarmom line`: {start_hz, stop_hz, points} (points
// 1 to 100000, stop_hz >= start_hz, evenly spaced and distinct; points 1 when stop_hz equals
// start_hz) or a list of frequencies in Hz, increasing without duplicates. `accepted`: the
// mapping's keys (the sweep's take adaptive ones, read by read_sweep_settings). Throws
// geometry::ConfigError.
[[nodiscard]] std::vector<double> read_frequencies(const YAML::Node& node, const std::string& file,
                                                   const geometry::YamlReader::Keys& accepted);

// The integrals' options that the accuracy section sets.
[[nodiscard]] mom::AssemblyOptions assembly_options(const SweepSettings& settings);
[[nodiscard]] mom::TableOptions table_options(const SweepSettings& settings);

// Reads the sections above from `root` (sections other than these and the geometry ones are
// errors, reported by parse_geometry_config); every section but frequencies is optional.
// `ports` sizes the default Touchstone name. Throws geometry::ConfigError ("FILE:LINE: ...").
[[nodiscard]] SweepSettings read_sweep_settings(const YAML::Node& root, const std::string& file,
                                                int ports);

}  // namespace pmom::sweep
