// `planarmom line`: characterise a straight microstrip line by the full MoM and compare it with
// Hammerstad-Jensen (Z0) and Kirschning-Jansen (εeff), frequency by frequency; with --gap-mm a
// symmetric coupled pair, mode by mode, against Kirschning-Jansen's coupled lines; with --cover
// under dielectric layers (and a ground over them), with --periodic from one period of the line.
// Settings come from flags or from a YAML file (--config, line_config.hpp), the flags given
// overriding it.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <stdexcept>

#include "commands.hpp"
#include "line_config.hpp"
#include "planarmom/logging/logging.hpp"
#include "planarmom/mom/coupled_microstrip_formulas.hpp"
#include "planarmom/mom/line_characterisation.hpp"
#include "planarmom/mom/microstrip_formulas.hpp"
#include "planarmom/mom/periodic_line.hpp"
#include "planarmom/mom/stackup.hpp"
#include "planarmom/mom/surface_impedance.hpp"

namespace pmom::app {
namespace {

struct LineFlags {
  double eps_r = 3.38;
  double height_mm = 0.508;
  double z0 = 50;
  double width_mm = 0;  // 0: the Hammerstad-Jensen width for z0
  int cells_across = 6;
  double half_length_mm = 0;  // 0: 3/8 of the guided wavelength, per frequency
  std::vector<double> freq_ghz{3};
  std::string config;  // YAML settings; the flags given on the command line override it
  bool plain_rooftops = false;
  double loss_tangent = 0;
  double conductivity = 0;  // S/m; 0: perfect strip and ground
  double thickness_um = 35;
  double gap_mm = 0;    // > 0: a coupled pair with this gap
  double along_mm = 0;  // the cell's side along the line; 0: square cells
  std::vector<std::string> cover;  // EPS_R:HEIGHT_MM[:TAN_DELTA], bottom to top
  std::vector<std::string> under;  // the same, between the ground and the substrate
  bool periodic = false;           // γ and Z0 from one period of the line
  bool cover_ground = false;       // a ground over the cover: a stripline
  int broadside = 0;               // > 0: a second strip over the first, on this cover layer
};

// --cover's or --under's layers: EPS_R:HEIGHT_MM or EPS_R:HEIGHT_MM:TAN_DELTA each (validated
// by the stack).
std::vector<mom::Layer> parse_layers(const std::vector<std::string>& items, const char* flag) {
  std::vector<mom::Layer> layers;
  for (const std::string& item : items) {
    std::vector<double> v;
    std::size_t start = 0;
    try {
      while (start <= item.size()) {
        const std::size_t end = std::min(item.find(':', start), item.size());
        std::size_t used = 0;
        const std::string field = item.substr(start, end - start);
        v.push_back(std::stod(field, &used));
        if (used != field.size()) throw std::invalid_argument(field);
        start = end + 1;
      }
    } catch (const std::exception&) {
      v.clear();
    }
    if (v.size() != 2 && v.size() != 3)
      throw std::invalid_argument(std::string("line: ") + flag + " '" + item +
                                  "' is not EPS_R:HEIGHT_MM or EPS_R:HEIGHT_MM:TAN_DELTA");
    layers.push_back({v[0], v.size() == 3 ? v[2] : 0.0, v[1] * 1e-3});
  }
  return layers;
}

// The options whose values a config file supplies unless they are given.
struct LineOptions {
  CLI::Option *eps_r, *height_mm, *z0, *width_mm, *cells_across, *half_length_mm, *freq_ghz;
};

// The flags with the config file's settings under those not given on the command line.
LineFlags with_config(const LineFlags& given, const LineOptions& o) {
  LineFlags f = given;
  if (f.config.empty()) return f;
  const LineConfig c = read_line_config(f.config);
  auto unset = [](const CLI::Option* option) { return option->count() == 0; };
  if (unset(o.eps_r)) f.eps_r = c.eps_r;
  if (unset(o.height_mm)) f.height_mm = c.height_mm;
  if (unset(o.z0) && unset(o.width_mm)) {
    f.z0 = c.z0_ohm.value_or(f.z0);
    f.width_mm = c.width_mm.value_or(0);
  }
  if (unset(o.cells_across)) f.cells_across = c.cells_across;
  if (unset(o.half_length_mm)) f.half_length_mm = c.half_length_mm.value_or(0);
  if (unset(o.freq_ghz)) {
    f.freq_ghz.clear();
    for (double hz : c.frequencies_hz) f.freq_ghz.push_back(hz * 1e-9);
  }
  return f;
}

// The layers under and over the strips and what lies over them, and where the static
// references are.
void print_stack(const std::vector<mom::Layer>& under, const std::vector<mom::Layer>& cover,
                 mom::Top top, bool broadside = false) {
  for (const mom::Layer& l : under)
    std::printf("layer under the substrate (bottom to top): eps_r %.3f, tan delta %g, %.4f mm\n",
                l.eps_r, l.loss_tangent, l.height_m * 1e3);
  for (const mom::Layer& l : cover)
    std::printf("cover layer (bottom to top): eps_r %.3f, tan delta %g, %.4f mm\n", l.eps_r,
                l.loss_tangent, l.height_m * 1e3);
  if (top == mom::Top::ground) std::printf("a ground over the cover\n");
  if (broadside)
    std::printf("no closed form in general (Cohn's 1960 one for wide strips in one dielectric): "
                "tools/quasi_static_line.py --second-strip-on gives the modes' static eps_eff "
                "and Z0\n");
  else if (!cover.empty() || !under.empty())
    std::printf("KJ and HJ are the bare line's formulas on the substrate at the strip's height "
                "(no closed form for a stack: tools/quasi_static_line.py gives its static eps_eff "
                "and Z0)\n");
}

// The coupled pair: per frequency and mode, εeff and Z0 (per strip) against Kirschning-Jansen's.
int run_pair(const LineFlags& f, double width, const std::vector<mom::Layer>& cover, mom::Top top) {
  const double u = width / f.height_mm, g = f.gap_mm / f.height_mm;
  const double across = width / f.cells_across;
  std::printf("eps_r %.3f, h %.4f mm, coupled pair W %.4f mm, gap %.4f mm (W/h %.3f, S/h %.3f), "
              "%d cells across each strip, %.0f across the gap, cells %.4f mm along, %s "
              "rooftops; Z0 per strip\n",
              f.eps_r, f.height_mm, width, f.gap_mm, u, g, f.cells_across, f.gap_mm / across,
              f.along_mm > 0 ? f.along_mm : across, f.plain_rooftops ? "plain" : "edge-shaped");
  std::printf("%8s %5s %8s %9s %10s %10s %8s %9s %9s %8s %10s %8s\n", "f GHz", "mode", "half mm",
              "unknowns", "eps_eff", "KJ", "diff %", "Z0 ohm", "KJ", "diff %", "assembly s",
              "LU s");
  for (double ghz : f.freq_ghz) {
    mom::LineSpec spec{f.eps_r, f.height_mm, width, f.cells_across, f.half_length_mm,
                       !f.plain_rooftops};
    spec.gap_mm = f.gap_mm;
    spec.along_mm = f.along_mm;
    spec.cover = cover;
    spec.top = top;
    if (spec.half_length_mm <= 0)
      spec.half_length_mm = mom::suggested_half_length_mm(spec, ghz * 1e9);
    PMOM_LOG(info) << "coupled pair at " << ghz << " GHz, half length " << spec.half_length_mm
                   << " mm";
    const mom::CoupledLineResult r = mom::characterise_coupled_pair(spec, ghz * 1e9);
    const mom::CoupledModes kj = mom::coupled_microstrip_kj(u, g, f.eps_r, ghz, f.height_mm);
    const auto row = [&](const char* mode, const mom::LineResult& m, double eps, double z0) {
      std::printf("%8.3f %5s %8.2f %9d %10.4f %10.4f %+8.2f %9.2f %9.2f %+8.2f %10.2f %8.2f\n",
                  ghz, mode, spec.half_length_mm, m.unknowns, m.eps_eff, eps,
                  100 * (m.eps_eff / eps - 1), m.z0.real(), z0, 100 * (m.z0.real() / z0 - 1),
                  m.seconds_assembly, m.seconds_solve);
    };
    row("even", r.even, kj.eps_eff_even, kj.z0_even);
    row("odd", r.odd, kj.eps_eff_odd, kj.z0_odd);
    std::fflush(stdout);
  }
  return 0;
}

// The broadside pair: per frequency and mode, εeff, Z0 (per strip) and α from one period each,
// each row as soon as its mode is found (a leaky odd mode stops the run after the even row).
int run_broadside(const LineFlags& f, const mom::LineSpec& board) {
  std::printf("eps_r %.3f, h %.4f mm, broadside pair W %.4f mm, the second strip on cover layer "
              "%d, %d cells across, %s rooftops; one period per mode, Z0 per strip\n",
              f.eps_r, f.height_mm, board.width_mm, board.broadside, f.cells_across,
              f.plain_rooftops ? "plain" : "edge-shaped");
  print_stack(board.base, board.cover, board.top, true);
  std::printf("%8s %5s %9s %12s %11s %14s %10s\n", "f GHz", "mode", "unknowns", "eps_eff",
              "Z0 ohm", "alpha dB/m", "seconds");
  for (double ghz : f.freq_ghz) {
    for (const auto& [name, mode] : {std::pair{"even", mom::BroadsideMode::even},
                                     std::pair{"odd", mom::BroadsideMode::odd}}) {
      PMOM_LOG(info) << "broadside pair at " << ghz << " GHz, the " << name << " mode's period";
      const auto start = std::chrono::steady_clock::now();
      const mom::LineResult m = mom::periodic_broadside_mode(board, ghz * 1e9, mode);
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::printf("%8.3f %5s %9d %12.6f %11.4f %14.5f %10.2f\n", ghz, name, m.unknowns,
                  m.eps_eff, m.z0.real(), 20 / std::log(10.0) * m.gamma.real(), seconds);
      std::fflush(stdout);
    }
  }
  return 0;
}

int run(const LineFlags& f) {
  const mom::Conductor metal =
      f.conductivity > 0 ? mom::Conductor{f.conductivity, f.thickness_um * 1e-6} : mom::Conductor{};
  // The line and its board (its width once the board's height is known), checked before any
  // output.
  mom::LineSpec board{f.eps_r,        f.height_mm, 0.0, f.cells_across, f.half_length_mm,
                      !f.plain_rooftops, f.loss_tangent, metal, f.along_mm};
  board.base = parse_layers(f.under, "--under");
  board.cover = parse_layers(f.cover, "--cover");
  board.top = f.cover_ground ? mom::Top::ground : mom::Top::air;
  validate(board.stackup());
  const std::vector<mom::Layer>& under = board.base;
  const std::vector<mom::Layer>& cover = board.cover;
  const mom::Top top = board.top;
  const double height_mm = board.height_over_ground_mm();  // the formulas' h
  const double width = f.width_mm > 0
                           ? f.width_mm
                           : mom::width_for_impedance_hj(f.z0, f.eps_r) * height_mm;
  board.width_mm = width;
  if (!under.empty() && f.gap_mm > 0)
    throw std::invalid_argument("line: a coupled pair (--gap-mm) is compared with formulas of "
                                "one substrate; leave out --under");
  mom::check_losses(board, "line");
  if (f.broadside > 0) {
    board.half_length_mm = 0;  // one period per mode
    board.broadside = f.broadside;
    mom::check_broadside(board, "line --broadside");
    return run_broadside(f, board);
  }
  if (f.gap_mm > 0) {
    if (f.periodic)
      throw std::invalid_argument("line: a coupled pair (--gap-mm) is characterised by the long "
                                  "line only; leave out --periodic");
    if (f.loss_tangent > 0 || f.conductivity > 0)
      throw std::invalid_argument("line: a coupled pair (--gap-mm) is characterised lossless; "
                                  "leave out --loss-tangent and --conductivity");
    print_stack({}, cover, top);
    return run_pair(f, width, cover, top);
  }
  const double u = width / height_mm;
  const double z_hj = mom::impedance_hj(u, f.eps_r);
  std::printf("eps_r %.3f, h %.4f mm, W %.4f mm (Hammerstad-Jensen Z0 %.2f ohm), %d cells "
              "across, %s rooftops, %s\n",
              f.eps_r, f.height_mm, width, z_hj, f.cells_across,
              f.plain_rooftops ? "plain" : "edge-shaped",
              f.periodic ? "gamma and Z0 from one period of the line" : "a centre-fed line");
  print_stack(under, cover, top);
  // Z0 against the static Hammerstad-Jensen value and their dispersive one at KJ's εeff(f).
  std::printf("%8s %8s %9s %10s %10s %8s %9s %8s %9s %8s %10s %8s\n", "f GHz", "half mm",
              "unknowns", "eps_eff", "KJ", "diff %", "Z0 ohm", "diff %", "HJ(f)", "diff %",
              "assembly s", "LU s");
  const bool lossy = f.loss_tangent > 0 || f.conductivity > 0;
  if (lossy)
    std::printf("losses: tan delta %g, metal %s; attenuation in dB/m against Pozar's dielectric "
                "and the conductor loss by Wheeler's incremental-inductance rule (Pucel's "
                "method)\n",
                f.loss_tangent,
                metal.perfect() ? "perfect"
                                : (std::to_string(f.conductivity) + " S/m, " +
                                   std::to_string(f.thickness_um) + " um").c_str());
  for (double g : f.freq_ghz) {
    const double kj = mom::effective_permittivity_kj(u, f.eps_r, g, height_mm);
    mom::LineSpec spec = board;
    if (spec.half_length_mm <= 0) spec.half_length_mm = mom::suggested_half_length_mm(spec, g * 1e9);
    const double half = f.periodic ? 0.0 : spec.half_length_mm;
    PMOM_LOG(info) << "line at " << g << " GHz, "
                   << (f.periodic ? "one period" : "half length " + std::to_string(half) + " mm");
    const auto start = std::chrono::steady_clock::now();
    mom::LineResult r =
        f.periodic ? mom::periodic_line(spec, g * 1e9) : mom::characterise_line(spec, g * 1e9);
    if (f.periodic)
      r.seconds_assembly =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double z_hj_f = mom::impedance_dispersive_hj(u, f.eps_r, kj);
    std::printf("%8.3f %8.2f %9d %10.5f %10.5f %+8.2f %9.3f %+8.2f %9.2f %+8.2f %10.2f %8.2f\n",
                g, half, r.unknowns, r.eps_eff, kj, 100 * (r.eps_eff / kj - 1), r.z0.real(),
                100 * (r.z0.real() / z_hj - 1), z_hj_f, 100 * (r.z0.real() / z_hj_f - 1),
                r.seconds_assembly, r.seconds_solve);
    if (lossy) {
      // The long line's fitted Re γ less its lossless twin's (its bias: near fields of the gap
      // and the open ends, ~1e-4 of β), so that what is compared is the losses' attenuation;
      // the period's root has no such bias.
      const double alpha =
          f.periodic ? r.gamma.real()
                   : r.gamma.real() - mom::characterise_line(spec.lossless(), g * 1e9).gamma.real();
      const double db = 20 / std::log(10.0);
      const double dielectric = mom::attenuation_dielectric(f.eps_r, kj, f.loss_tangent, g * 1e9);
      double conductor = 0, hj = 0;
      if (!metal.perfect()) {
        const double rs = 1 / (f.conductivity * mom::skin_depth_m(f.conductivity, g * 1e9));
        conductor = mom::attenuation_conductor_wheeler(width, height_mm, f.thickness_um * 1e-3,
                                                       z_hj, rs);
        hj = mom::attenuation_conductor_hj(width, z_hj, rs);
      }
      const double formula = dielectric + conductor;
      std::printf("%8s attenuation %.4f dB/m (Re gamma %.4f less the lossless line's %.4f), "
                  "formulas %.4f (dielectric %.4f, conductor %.4f; Hammerstad-Jensen's "
                  "conductor %.4f): %+.2f %%\n",
                  "", db * alpha, db * r.gamma.real(), db * (r.gamma.real() - alpha),
                  db * formula, db * dielectric, db * conductor, db * hj,
                  100 * (alpha / formula - 1));
    }
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

Command add_line_command(CLI::App& parent) {
  auto flags = std::make_shared<LineFlags>();
  LineOptions o{};
  CLI::App* app = parent.add_subcommand(
      "line", "Characterise a straight microstrip line by the MoM (centre-fed, dense LU) and "
              "compare eps_eff with Kirschning-Jansen and Z0 with Hammerstad-Jensen; with "
              "--gap-mm a coupled pair's even and odd modes with Kirschning-Jansen's");
  o.eps_r = app->add_option("--eps-r", flags->eps_r, "Substrate permittivity")
      ->capture_default_str()
      ->check(CLI::Range(1.0, 100.0));
  o.height_mm = app->add_option("--height-mm", flags->height_mm, "Substrate height")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  o.z0 = app->add_option("--z0", flags->z0, "Line impedance whose Hammerstad-Jensen width is used")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  o.width_mm = app->add_option("--width-mm", flags->width_mm, "Strip width (overrides --z0)")
      ->check(CLI::PositiveNumber);
  o.cells_across = app->add_option("--cells-across", flags->cells_across,
                                   "Square cells across the strip")
      ->capture_default_str()
      ->check(CLI::Range(2, 64));
  o.half_length_mm = app->add_option("--half-length-mm", flags->half_length_mm,
                  "Gap to each open end (default: 3/8 of the guided wavelength; avoid odd "
                  "multiples of a quarter wavelength)")
      ->check(CLI::PositiveNumber);
  o.freq_ghz = app->add_option("--freq-ghz", flags->freq_ghz, "Frequencies, comma-separated")
      ->delimiter(',')
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app->add_option("--config", flags->config,
                  "YAML settings (examples/microstrip_line.yaml); flags given override them")
      ->check(CLI::ExistingFile);
  app->add_option("--loss-tangent", flags->loss_tangent, "Substrate loss tangent")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  app->add_option("--conductivity", flags->conductivity,
                  "Strip and ground conductivity, S/m (default: perfect conductors)")
      ->check(CLI::PositiveNumber);
  app->add_option("--thickness-um", flags->thickness_um, "Strip and ground thickness, um")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app->add_option("--gap-mm", flags->gap_mm,
                  "A symmetric coupled pair: a second strip this far from the first, a whole "
                  "number of the cells across (W / --cells-across); even and odd modes against "
                  "Kirschning-Jansen's coupled lines")
      ->check(CLI::PositiveNumber);
  app->add_option("--along-mm", flags->along_mm,
                  "The cell's side along the line (default: square cells, W / --cells-across)")
      ->check(CLI::PositiveNumber);
  app->add_option("--under", flags->under,
                  "Dielectric layers between the ground and the substrate (--eps-r, --height-mm, "
                  "the layer the strip lies on), bottom to top: EPS_R:HEIGHT_MM[:TAN_DELTA] each, "
                  "comma-separated (a core under a prepreg)")
      ->delimiter(',');
  app->add_option("--cover", flags->cover,
                  "Dielectric layers over the strip, bottom to top, air above: "
                  "EPS_R:HEIGHT_MM[:TAN_DELTA] each, comma-separated (a solder mask: 3.8:0.025)")
      ->delimiter(',');
  app->add_flag("--cover-ground", flags->cover_ground,
                "A ground over the cover (a stripline: --cover EPS_R:HEIGHT_MM of the layer "
                "between the strip and it)");
  app->add_option("--broadside", flags->broadside,
                  "A broadside-coupled pair: a second strip of the same width over the first, "
                  "on top of this --cover layer (1-based), in a stack symmetric about the strips' "
                  "midplane (--cover-ground, the last cover layer the substrate's); even and odd "
                  "modes from one period each")
      ->check(CLI::PositiveNumber);
  app->add_flag("--periodic", flags->periodic,
                "gamma and Z0 from one period of the line (an eigenvalue problem, the same cost "
                "at every frequency) instead of a centre-fed line's standing wave");
  app->add_flag("--plain-rooftops", flags->plain_rooftops,
                "Plain rooftops also beside the metal edges (to compare with the default "
                "edge-shaped ones)");
  return {app, [flags, o] { return run(with_config(*flags, o)); }};
}

}  // namespace pmom::app
