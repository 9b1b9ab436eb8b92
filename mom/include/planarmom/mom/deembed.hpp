// S-parameters of a P-port layout from its MoM solutions (DESIGN §5): every port driven in turn
// by a delta gap on its feed line, the current standing wave on every feed fitted for its
// incident and outgoing waves (at a γ given per feed, e.g. the line checks', or else one γ
// per feed line fitted to every excitation on every feed of that width together), those
// moved to the reference planes, S solved from the P excitations (S = B A⁻¹) and
// renormalised to each port's reference impedance.
#pragma once

#include <array>
#include <complex>
#include <span>
#include <utility>
#include <vector>

#include "planarmom/geometry/mesh.hpp"

namespace pmom::mom {

// The P right-hand sides, N×P column-major: column p is the delta gap of port p
// (mesh.ports()[p].delta_gap()), 1 V driving current into the circuit.
std::vector<std::complex<double>> port_excitations(const geometry::Mesh& mesh);

struct DeembedOptions {
  // Samples closer than this many max(width, height) to the gap, the port's open edge or the
  // circuit end of the feed are left out of the fit: their near fields are not a wave. β's error
  // falls as the margin grows and as the feed lengthens (keep feeds long); the driven gap's near
  // field reaches furthest (docs/VALIDATION.md, "The de-embedding's fit window").
  double near_field_sizes = 3.0;
};

struct SParameters {
  int ports = 0;
  std::vector<std::complex<double>> s;      // P×P row-major, to the ports' reference impedances
  std::vector<std::complex<double>> gamma;  // per port, 1/m: equal for feeds of one width
  std::vector<double> reference_ohm;        // per port
  std::vector<double> reference_plane_mm;   // per port, from its port edge into the circuit
  [[nodiscard]] std::complex<double> operator()(int row, int col) const {
    return s[static_cast<std::size_t>(row) * static_cast<std::size_t>(ports) +
             static_cast<std::size_t>(col)];
  }
};

// currents: the MoM solutions of port_excitations (N×P column-major); feed_z0_ohm: the
// characteristic impedance of each port's feed line (e.g. from characterise_line; complex on a
// lossy line), which gives the voltage V = Z0 (F e^{−γx} − B e^{γx}) beside the fitted current
// at the reference plane; S is of the power waves of that V and I at each port's reference
// impedance. Throws std::invalid_argument when the sizes disagree or
// a feed is too short to leave at least 6 samples between its near fields (the message names
// the port and the length it needs; 10–15 sizes give the fit room to be accurate), std::runtime_error when the excitations do not determine
// S (singular wave matrix).
// The length (mm) of the stretch of a port's feed whose samples the fit uses: the feed less
// the near-field margins at both ends (0 when they overlap).
double fit_window_mm(const geometry::Mesh& mesh, const geometry::MeshPort& port,
                     const DeembedOptions& options = {});
// Throws what deembed throws for a feed too short to fit: a sweep checks its ports with it
// before it solves anything.
void check_fit_window(const geometry::Mesh& mesh, const geometry::MeshPort& port,
                      const DeembedOptions& options = {});
// Whether a port's feed leaves the fit its room (check_fit_window would not throw).
[[nodiscard]] bool has_fit_window(const geometry::Mesh& mesh, const geometry::MeshPort& port,
                                  const DeembedOptions& options = {});

SParameters deembed(const geometry::Mesh& mesh, std::span<const std::complex<double>> currents,
                    std::span<const std::complex<double>> feed_z0_ohm, const DeembedOptions& options = {});
// The same with each feed's γ given (per port, 1/m, β > 0; e.g. FeedImpedances'), so that only
// the waves' amplitudes are fitted on the feeds.
SParameters deembed(const geometry::Mesh& mesh, std::span<const std::complex<double>> currents,
                    std::span<const std::complex<double>> feed_z0_ohm,
                    std::span<const std::complex<double>> feed_gamma,
                    const DeembedOptions& options = {});

// A port's launch: its delta gap's voltage and current into the circuit as a linear function
// of the two waves on its feed, (V, I)ᵀ = E (F, B)ᵀ, where the current into the circuit x from
// the port edge is I(x) = F e^{−γx} + B e^{γx} along the uniform line (F runs into the circuit).
// E is the gap's and the open end's near field seen from the line: calibrated once per feed
// line on a line standard of the same cross-section and cells (LineCheck::launch), it gives a
// port's waves from its gap alone, so the feed needs no room for a fit.
struct PortLaunch {
  std::array<std::complex<double>, 4> e{};  // row-major 2×2
  // (F, B) from the gap's (V, I). Throws std::runtime_error when E is singular.
  [[nodiscard]] std::pair<std::complex<double>, std::complex<double>> waves(
      std::complex<double> v, std::complex<double> i) const;
};

// An internal port's launch (geometry::MeshPort::internal): no feed, its waves the power waves
// of its gap's voltage V and current I_ext at its reference impedance Zr (V = Zr (F − B),
// I_ext = F + B: incident √Zr F, outgoing −√Zr B, as deembed's S reads them, at a reference
// plane of 0 and a "feed" of Z0 = Zr), where the current through the gap I = I_ext + Y V holds
// the gap's own shunt Y (GapParasitics::shunt, the near field of a zero-width gap, measured as
// a lumped element's): E = [[Zr, −Zr], [1 + Y Zr, 1 − Y Zr]].
[[nodiscard]] PortLaunch internal_port_launch(double reference_ohm,
                                              std::complex<double> gap_shunt);

// F and B on a port's feed in one solution x (N values), least squares at γ over the samples
// the de-embedding fits (clear of the near fields); throws as check_fit_window.
std::pair<std::complex<double>, std::complex<double>> feed_waves(
    const geometry::Mesh& mesh, const geometry::MeshPort& port,
    std::span<const std::complex<double>> x, std::complex<double> gamma,
    const DeembedOptions& options = {});
// The current into the circuit through a port's delta gap in one solution.
std::complex<double> gap_current(const geometry::MeshPort& port,
                                 std::span<const std::complex<double>> x);

// The launch of `port` on a line standard (its feed long enough to fit) from two of the
// standard's solutions whose waves on that feed are independent, with the port's gap voltages
// in them (into the circuit). Throws std::runtime_error when the two states' waves are not
// independent.
PortLaunch port_launch(const geometry::Mesh& mesh, const geometry::MeshPort& port,
                       std::array<std::span<const std::complex<double>>, 2> x,
                       std::array<std::complex<double>, 2> gap_voltage,
                       std::complex<double> gamma);

// How each port's waves are found: fitted on its feed's samples clear of the near fields (a
// long feed), or calibrated: from its gap's voltage and current through its launch (any feed
// of two cells or more; the circuit's near field must not reach the gap).
enum class PortWaves { fitted, calibrated };
struct PortCalibration {
  std::vector<PortWaves> waves;                // per port
  std::vector<PortLaunch> launch;              // per port; read where calibrated
  std::vector<std::complex<double>> load_ohm;  // the gap loads the solutions were made with
};
// deembed with each feed's γ given, each port's waves as `calibration` says. Throws as deembed
// (the fit window only for fitted ports), std::invalid_argument for sizes that disagree.
SParameters deembed(const geometry::Mesh& mesh, std::span<const std::complex<double>> currents,
                    std::span<const std::complex<double>> feed_z0_ohm,
                    std::span<const std::complex<double>> feed_gamma,
                    const PortCalibration& calibration, const DeembedOptions& options = {});

}  // namespace pmom::mom
