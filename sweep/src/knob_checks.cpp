// knob_warnings and reciprocity_warning (knob_checks.hpp). The bars are the measurements in
// docs/VALIDATION.md ("Convergence in every knob"), quoted in the messages so that a user can
// weigh them.
#include "planarmom/sweep/knob_checks.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>
#include <tuple>

#include "planarmom/mom/constants.hpp"
#include "planarmom/mom/deembed.hpp"
#include "planarmom/mom/microstrip_formulas.hpp"
#include "feed_lines.hpp"

namespace pmom::sweep {
namespace {

// λg (mm) of a strip of this width at f, Kirschning-Jansen's εeff (the substrate's εr at the
// strips' height over the ground: an estimate where there are several layers).
double guided_wavelength_mm(const geometry::Substrate& sub, double width_mm, double hz) {
  const double h = sub.height_over_ground_mm();
  const double eps_eff = mom::effective_permittivity_kj(width_mm / h, sub.eps_r, hz * 1e-9, h);
  return mom::c0 / (hz * std::sqrt(eps_eff)) * 1e3;
}

std::string sparsify_warning(const SweepSettings& s) {
  std::ostringstream w;
  w << "sparsify keeps ";
  if (s.reach_heights > 0)
    w << "the interactions within " << s.reach_heights << " substrate heights";
  else
    w << s.density * 100 << "% of Z";
  w << " (rule " << to_string(s.rule) << "): a thresholded Z is not converged on the boards measured "
       "(against every entry kept, |S| moved 0.2-1.5 dB on RO4003 at 5-45% of Z and 0.8-14 dB "
       "on FR-4 at 5-88%; docs/VALIDATION.md). sparsify: {density: 1.0} keeps every entry; "
       "tools/converge.py --knobs dense measures the error of this layout";
  return w.str();
}

}  // namespace

std::vector<std::string> knob_warnings(const geometry::Mesh& mesh, const SweepSettings& s) {
  std::vector<std::string> out;
  if (s.density < 1 || s.reach_heights > 0) out.push_back(sparsify_warning(s));

  const geometry::Substrate& sub = mesh.layout().substrate;
  const double f_min = s.frequencies_hz.front(), f_max = s.frequencies_hz.back();
  // One line per feed width and way of de-embedding (feeds of one width have one window, one
  // launch), naming its ports.
  using Group = std::pair<geometry::StripKey, mom::PortWaves>;
  std::map<Group, std::vector<const geometry::MeshPort*>> by_width;
  const std::vector<mom::PortWaves> waves = port_waves(mesh, s);
  for (const geometry::MeshPort& port : mesh.ports())
    if (!port.internal)  // no feed
      by_width[{port.line_key(), waves[static_cast<std::size_t>(port.port)]}].push_back(&port);
  // "port a" or "ports a, b"; the shortest and longest of their feeds.
  const auto names = [&](const std::vector<const geometry::MeshPort*>& ports, double& shortest,
                         double& longest) {
    std::string text = ports.size() > 1 ? "ports " : "port ";
    shortest = std::numeric_limits<double>::infinity();
    longest = 0;
    for (const geometry::MeshPort* p : ports) {
      const geometry::Port& spec = mesh.layout().ports[static_cast<std::size_t>(p->port)];
      text += (p == ports.front() ? "" : ", ") + spec.name;
      shortest = std::min(shortest, spec.feed_length_mm);
      longest = std::max(longest, spec.feed_length_mm);
    }
    return text;
  };
  for (const auto& [group, ports] : by_width) {
    const geometry::MeshPort& port = *ports.front();
    double shortest = 0, feed_mm = 0;
    std::ostringstream w;
    w.precision(3);
    if (group.second == mom::PortWaves::calibrated) {
      // The circuit's field at a calibrated port's open end, magnified by the gap's voltage
      // (docs/VALIDATION.md, "Calibrated ports").
      const double size = std::max(port.width_mm, sub.height_over_ground_mm());
      w << names(ports, shortest, feed_mm);
      if (shortest >= kCalibratedFeedSizes * size) continue;
      w << ": calibrated on feeds from " << shortest << " mm, " << shortest / size
        << " widths or heights: the circuit's field at a port's open end moves S (on the RO4003 "
           "coupler by 3.0e-3 at 3.3 widths, 1.1e-3 at 6.7); feeds of "
        << kCalibratedFeedSizes * size << " mm keep it near 1e-3";
      out.push_back(w.str());
      continue;
    }
    const double window = mom::fit_window_mm(mesh, port);
    const double quarter = guided_wavelength_mm(sub, port.width_mm, f_min) / 4;
    if (window >= quarter) continue;
    w << names(ports, shortest, feed_mm);
    w << ": the de-embedding fits the feed's waves over " << window << " mm (the feed less the "
      << "near fields of its gap and the circuit), " << window / (4 * quarter) << " λg at "
      << f_min * 1e-9 << " GHz; under λg/4 near fields bias the waves' amplitudes (doubling "
         "the feeds moved |S| by 0.08 dB at 0.13 λg on RO4003, and the -23 dB isolation by "
         "0.6 dB at 0.04 λg on FR-4): feeds of "
      << feed_mm + quarter - window << " mm give λg/4";
    out.push_back(w.str());
  }

  const double cell = std::max(mesh.grid().dx_mm, mesh.grid().dy_mm);
  const double lambda = mom::c0 / (f_max * std::sqrt(sub.max_eps_r())) * 1e3;  // λ in the dielectric
  if (cell > lambda / 20) {
    std::ostringstream w;
    w.precision(3);
    w << "the cell (" << (mesh.grid().square() ? "" : "its longer side, ") << cell
      << " mm) is more than a twentieth of the wavelength in the "
      << "substrate at " << f_max * 1e-9 << " GHz (" << lambda << " mm): the rooftops resolve "
      << "the current's standing waves coarsely; halve the cell and compare "
         "(tools/converge.py --knobs cells)";
    out.push_back(w.str());
  }
  return out;
}

std::optional<std::string> reciprocity_warning(const io::SweepData& data) {
  const std::size_t p = data.info.ports();
  double worst = 0;
  const io::FrequencyRecord* at = nullptr;
  std::size_t wi = 0, wj = 0;
  for (const io::FrequencyRecord& r : data.records)
    for (std::size_t i = 0; i < p; ++i)
      for (std::size_t j = i + 1; j < p; ++j) {
        const double d = std::abs(r.s[i * p + j] - r.s[j * p + i]);
        if (d > worst) {
          worst = d;
          at = &r;
          wi = i;
          wj = j;
        }
      }
  if (!(worst > kReciprocityWarning)) return std::nullopt;
  std::ostringstream w;
  w.precision(2);
  w << "S is reciprocal only to " << worst << " (|S" << wi + 1 << wj + 1 << " - S" << wj + 1
    << wi + 1 << "|, ports " << data.info.port_names[wi] << " and " << data.info.port_names[wj]
    << ", at " << at->frequency_hz * 1e-9 << " GHz; Z is symmetric): the waves fitted on the "
       "feeds, and so S, are defined to about that, " << 20 * std::log10(1 + worst / 0.056)
    << " dB on a -25 dB entry. On thick boards a field along the board reaches the feeds "
       "(docs/VALIDATION.md); tools/converge.py --knobs feeds measures what it moves";
  return w.str();
}

}  // namespace pmom::sweep
