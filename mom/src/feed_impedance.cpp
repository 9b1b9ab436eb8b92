// Feed-line Z0 over a band from a few line checks (feed_impedance.hpp).
#include "planarmom/mom/feed_impedance.hpp"

#include <cmath>
#include <map>
#include <tuple>
#include <numbers>
#include <stdexcept>
#include <string>

#include "planarmom/mom/line_characterisation.hpp"

namespace pmom::mom {
namespace {

// A straight line of the layout's board and metal on interface `interface`, `count` cells across
// `width_mm`.
LineSpec board_line(const geometry::Layout& layout, int interface, double width_mm, int count,
                    double along_mm) {
  const geometry::Substrate sub = layout.substrate.with_strips_on(interface);
  LineSpec spec{sub.eps_r,        sub.height_mm,    width_mm, count, 0, true,
                sub.loss_tangent, conductor(layout.metal), along_mm};
  spec.cover = layers(sub.cover);
  spec.base = layers(sub.base);
  spec.top = sub.top;
  return spec;
}

// What entry k of a launch (row-major E) is multiplied by for the band's interpolant: f on the
// voltage row, mostly the open end's reactance ∝ 1/f, 1 on the current row.
double launch_scale(std::size_t k, double frequency_hz) { return k < 2 ? frequency_hz : 1.0; }

}  // namespace

GapParasitics host_gap_check(const LineSpec& spec, double frequency_hz) {
  const LineResult line = line_check(spec, frequency_hz, false).line;
  return gap_parasitics(spec, frequency_hz, line.gamma, line.z0);
}

FeedImpedances::FeedImpedances(const geometry::Mesh& mesh, double f_min_hz, double f_max_hz,
                               int nodes, bool matched_loads, const LineChecks& checks,
                               const GapChecks& gap_checks)
    : f_min_(f_min_hz), f_max_(f_max_hz) {
  if (nodes < 1) throw std::invalid_argument("FeedImpedances: at least one node is needed");
  if (!(f_min_hz > 0) || !(f_max_hz >= f_min_hz)) {
    throw std::invalid_argument("FeedImpedances: the band must satisfy 0 < f_min <= f_max");
  }
  if (f_max_hz == f_min_hz) nodes = 1;
  // Chebyshev points of the first kind and their barycentric weights (Berrut & Trefethen,
  // SIAM Review 2004): w_k = (−1)^k sin((2k+1)π/(2n)); no node sits on the band's ends.
  const double mid = 0.5 * (f_min_hz + f_max_hz), half = 0.5 * (f_max_hz - f_min_hz);
  for (int k = 0; k < nodes; ++k) {
    const double angle = (2.0 * k + 1.0) * std::numbers::pi / (2.0 * nodes);
    nodes_.push_back(mid + half * std::cos(angle));
    weights_.push_back((k % 2 == 0 ? 1.0 : -1.0) * std::sin(angle));
  }

  // MeshPort::line_key → index into z0_: feeds along x and along y are different lines on
  // cells that are not square.
  std::map<geometry::StripKey, int> width_index;
  for (const geometry::MeshPort& port : mesh.ports()) {
    internal_ohm_.push_back(
        port.internal ? mesh.layout().ports[static_cast<std::size_t>(port.port)].impedance_ohm
                      : 0.0);
    if (port.internal) {
      width_of_port_.push_back(-1);
      continue;
    }
    auto [it, added] = width_index.emplace(port.line_key(), static_cast<int>(z0_.size()));
    width_of_port_.push_back(it->second);
    if (!added) continue;
    // The board's losses included: the de-embedding takes the feed's γ from this line.
    LineSpec spec = board_line(mesh.layout(), mesh.layers()[static_cast<std::size_t>(port.layer)],
                               port.width_mm, port.count,
                               port.along_mm == port.across_mm ? 0.0 : port.along_mm);
    // γ and Z0 come from one period of the line (periodic_line.hpp), with the board's losses,
    // and the line, of one length at every frequency, is solved for the load alone.
    spec.periodic = true;
    spec.half_length_mm = load_half_length_mm(spec);
    std::vector<std::complex<double>> z0;
    std::vector<std::complex<double>> loads, gammas;
    std::array<std::vector<std::complex<double>>, 4> launch;
    for (const double f : nodes_) {
      const LineCheck check = checks(spec, f, matched_loads);
      // Complex on a lossy board: the feed's voltage beside its fitted current (deembed.hpp).
      z0.push_back(check.line.z0);
      // γ/f: β ∝ f·√εeff(f) and the dielectric's α ∝ f are smooth in it. The period's α is
      // the losses' alone (to rounding: 0 where there are none; Re γ ≥ 0 for the forward wave).
      const double alpha = spec.lossy() ? check.line.gamma.real() : 0.0;
      gammas.push_back(std::complex<double>(alpha, check.line.gamma.imag()) / f);
      // f·Z_L: the load's reactance is mostly the open end's capacitance cancelled, ∝ 1/f,
      // which a polynomial follows poorly (0.17% off between 4 nodes) and f·Z_L well.
      if (matched_loads) loads.push_back(f * check.load);
      // The launch's voltage row likewise (launch_scale).
      for (std::size_t k = 0; k < 4 && matched_loads; ++k)
        launch[k].push_back(launch_scale(k, f) * check.launch.e[k]);
    }
    for (std::size_t k = 0; k < 4; ++k) launch_[k].push_back(std::move(launch[k]));
    z0_.push_back(std::move(z0));
    loads_.push_back(std::move(loads));
    gamma_.push_back(std::move(gammas));
  }
  // Each lumped element's and internal port's strip: its gap's shunt at the nodes (one check
  // per distinct strip).
  geometry::GapStrips strips = mesh.gap_strips();
  for (const auto& [count, along_mm, across_mm, layer] : strips.keys) {
    LineSpec spec = board_line(mesh.layout(), mesh.layers()[static_cast<std::size_t>(layer)],
                               count * across_mm, count,
                               along_mm == across_mm ? 0.0 : along_mm);
    spec.periodic = true;
    spec.half_length_mm = load_half_length_mm(spec);
    std::vector<std::complex<double>> shunts;
    for (const double f : nodes_) shunts.push_back(gap_checks(spec, f).shunt / f);
    shunt_.push_back(std::move(shunts));
  }
  strip_of_element_ = std::move(strips.of_element);
  strip_of_port_ = std::move(strips.of_port);
}

template <class T>
std::vector<T> FeedImpedances::interpolate(const std::vector<std::vector<T>>& values,
                                           double frequency_hz,
                                           const std::vector<int>& owner) const {
  const double slack = 1e-9 * f_max_;
  if (!(frequency_hz >= f_min_ - slack && frequency_hz <= f_max_ + slack)) {
    throw std::out_of_range("FeedImpedances: " + std::to_string(frequency_hz) +
                            " Hz is outside the band the feed impedances were computed for");
  }
  // Barycentric formula (second form); at a node it returns the node's value.
  std::vector<T> numerator(values.size(), T(0));
  double denominator = 0;
  for (std::size_t k = 0; k < nodes_.size(); ++k) {
    const double d = frequency_hz - nodes_[k];
    if (d == 0) {
      for (std::size_t w = 0; w < values.size(); ++w) numerator[w] = values[w][k];
      denominator = 1;
      break;
    }
    const double c = weights_[k] / d;
    denominator += c;
    for (std::size_t w = 0; w < values.size(); ++w) numerator[w] += c * values[w][k];
  }
  std::vector<T> per_owner;
  for (const int w : owner)
    per_owner.push_back(w < 0 ? T(0) : numerator[static_cast<std::size_t>(w)] / denominator);
  return per_owner;
}

std::vector<std::complex<double>> FeedImpedances::at(double frequency_hz) const {
  std::vector<std::complex<double>> z0 = interpolate(z0_, frequency_hz, width_of_port_);
  for (std::size_t p = 0; p < z0.size(); ++p)
    if (width_of_port_[p] < 0) z0[p] = internal_ohm_[p];
  return z0;
}

std::vector<std::complex<double>> FeedImpedances::propagation_constants(double frequency_hz) const {
  std::vector<std::complex<double>> gamma = interpolate(gamma_, frequency_hz, width_of_port_);
  for (std::complex<double>& g : gamma) g *= frequency_hz;
  return gamma;
}

std::vector<std::complex<double>> FeedImpedances::matched_loads(double frequency_hz) const {
  if (!loads_.empty() && loads_.front().empty())
    throw std::logic_error("FeedImpedances: built without the matched loads");
  std::vector<std::complex<double>> loads = interpolate(loads_, frequency_hz, width_of_port_);
  for (std::size_t p = 0; p < loads.size(); ++p)
    loads[p] = width_of_port_[p] < 0 ? internal_ohm_[p] : loads[p] / frequency_hz;
  return loads;
}

std::vector<PortLaunch> FeedImpedances::launches(double frequency_hz) const {
  if (!loads_.empty() && loads_.front().empty())
    throw std::logic_error("FeedImpedances: built without the matched loads and launches");
  std::vector<PortLaunch> launch(width_of_port_.size());
  for (std::size_t k = 0; k < 4; ++k) {
    const std::vector<std::complex<double>> entry =
        interpolate(launch_[k], frequency_hz, width_of_port_);
    for (std::size_t p = 0; p < launch.size(); ++p)
      launch[p].e[k] = entry[p] / launch_scale(k, frequency_hz);
  }
  const std::vector<std::complex<double>> shunts =
      interpolate(shunt_, frequency_hz, strip_of_port_);
  for (std::size_t p = 0; p < launch.size(); ++p)
    if (width_of_port_[p] < 0)
      launch[p] = internal_port_launch(internal_ohm_[p], frequency_hz * shunts[p]);
  return launch;
}

std::vector<std::complex<double>> FeedImpedances::gap_shunts(double frequency_hz) const {
  std::vector<std::complex<double>> shunts = interpolate(shunt_, frequency_hz, strip_of_element_);
  for (std::complex<double>& y : shunts) y *= frequency_hz;
  return shunts;
}

}  // namespace pmom::mom
