// The characteristic impedance of each port's feed line over a frequency band, for the
// de-embedding (deembed.hpp), and the gap loads that terminate the feeds in it (port_loads.hpp):
// the centre-fed line check and the matched gap load (line_characterisation.hpp)
// at a few Chebyshev nodes of the band, interpolated in between. Z0(f) of a microstrip is
// smooth (it rises slowly with dispersion) and so is the load (a resistance and the
// inductance that cancels the open end's capacitance and the gap's near field), so a
// handful of dense line solves replaces one per frequency.
#pragma once

#include <array>
#include <complex>
#include <functional>
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/mom/line_characterisation.hpp"

namespace pmom::mom {

// The line check FeedImpedances runs at each node (line_check: Z0, γ and, when the ports are
// matched, the load): on the host by default; the sweep passes its own (cached on disk, solved
// on its backend, logged as they go).
using LineChecks = std::function<LineCheck(const LineSpec&, double frequency_hz, bool with_load)>;
inline LineCheck host_line_check(const LineSpec& spec, double frequency_hz, bool with_load) {
  return line_check(spec, frequency_hz, with_load);
}
// The gap check FeedImpedances runs at each node for each lumped element's strip
// (gap_parasitics with the line check's γ and Z0); the sweep passes its own, as for LineChecks.
using GapChecks = std::function<GapParasitics(const LineSpec&, double frequency_hz)>;
GapParasitics host_gap_check(const LineSpec& spec, double frequency_hz);

class FeedImpedances {
 public:
  // Runs the line check for each distinct feed width of the mesh's ports at `nodes` Chebyshev
  // nodes of [f_min_hz, f_max_hz] (one node, at f_min, when the band is a single frequency),
  // on the mesh's own cell size: periodic checks (γ and Z0 of the period with the board's
  // losses, periodic_line.hpp; the load on a line of one length, load_half_length_mm). Throws
  // std::invalid_argument for nodes < 1 or a band that is not 0 < f_min <= f_max.
  // With matched_loads false the loads' line runs are skipped (and the launches with them).
  // Each lumped element's and internal port's strip gets a gap check at the nodes too.
  FeedImpedances(const geometry::Mesh& mesh, double f_min_hz, double f_max_hz, int nodes = 6,
                 bool matched_loads = true, const LineChecks& checks = host_line_check,
                 const GapChecks& gap_checks = host_gap_check);

  // Z0 of every port's feed (Ω, in port order; complex on a lossy board) at f, by the
  // barycentric interpolant through the nodes; an internal port's (geometry::MeshPort::internal) its reference impedance. Throws
  // std::out_of_range for f outside the band (beyond a 1e-9 relative slack).
  [[nodiscard]] std::vector<std::complex<double>> at(double frequency_hz) const;
  // γ of every port's feed (1/m, in port order) at f, interpolated as γ/f; α is the
  // attenuation the board's losses (the substrate's tanδ, the metal) add, the period's; an
  // internal port's 0 (its reference plane is its gap). Throws as at().
  [[nodiscard]] std::vector<std::complex<double>> propagation_constants(double frequency_hz) const;
  // The gap load of every port (Ω, in port order) at f that terminates its feed
  // (matched_gap_load); an internal port's its reference impedance. Throws as at(),
  // std::logic_error when built without the loads.
  [[nodiscard]] std::vector<std::complex<double>> matched_loads(double frequency_hz) const;
  // The launch of every port (deembed.hpp, in port order) at f, each entry interpolated; an
  // internal port's is internal_port_launch with its gap's shunt. Throws as matched_loads.
  [[nodiscard]] std::vector<PortLaunch> launches(double frequency_hz) const;

  // The admittance of each lumped element's gap in parallel with it (GapParasitics::shunt;
  // in element order) at f, interpolated as shunt/f (a capacitance). Throws as at().
  [[nodiscard]] std::vector<std::complex<double>> gap_shunts(double frequency_hz) const;
  [[nodiscard]] const std::vector<double>& nodes_hz() const { return nodes_; }

 private:
  double f_min_ = 0, f_max_ = 0;
  std::vector<double> nodes_;                 // Chebyshev points of the first kind
  std::vector<double> weights_;               // their barycentric weights
  std::vector<int> width_of_port_;            // index into z0_; -1 for an internal port
  std::vector<std::vector<std::complex<double>>> z0_;  // per distinct width, per node
  std::vector<std::vector<std::complex<double>>> loads_;  // likewise, times the node's f
  std::vector<std::vector<std::complex<double>>> gamma_;  // likewise, divided by it
  std::array<std::vector<std::vector<std::complex<double>>>, 4> launch_;  // per entry of E

  std::vector<int> strip_of_element_;                      // index into shunt_
  std::vector<int> strip_of_port_;                         // internal ports', else -1
  std::vector<double> internal_ohm_;                       // per port: an internal one's Zr
  std::vector<std::vector<std::complex<double>>> shunt_;  // per distinct strip, per node, / f
  // Barycentric interpolation of per-width node values at f, returned per `owner` entry (the
  // ports' widths, or the elements' strips; -1: none, T(0)).
  template <class T>
  std::vector<T> interpolate(const std::vector<std::vector<T>>& values, double frequency_hz,
                             const std::vector<int>& owner) const;
};

}  // namespace pmom::mom
