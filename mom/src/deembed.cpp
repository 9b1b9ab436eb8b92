// Port excitations, wave fitting on the feed lines, S = B A⁻¹ and renormalisation.
#include "planarmom/mom/deembed.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>

#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/line_fit.hpp"

namespace pmom::mom {
namespace {

using cd = std::complex<double>;

// Current into the circuit through one cross-section of a feed, a the cell's side across.
cd section_current(const geometry::MeshPort& port, const geometry::CrossSection& c,
                   std::span<const cd> x, double a) {
  cd sum = 0.0;
  for (const int m : c.basis) sum += x[static_cast<std::size_t>(m)];
  return port.sign * a * sum;
}

// The same through each cross-section of a feed, for one excitation.
std::vector<cd> feed_currents(const geometry::MeshPort& port, std::span<const cd> x, double a) {
  std::vector<cd> current;
  current.reserve(port.samples.size());
  for (const geometry::CrossSection& c : port.samples)
    current.push_back(section_current(port, c, x, a));
  return current;
}

// The fewest samples a fit takes.
constexpr int kFitSamples = 6;

// The fitted window [first, last) of a feed's samples (sample k at k + 1 cells from the edge).
struct Window {
  int first = 0, last = 0;
};

Window window_of(const geometry::Mesh& mesh, const geometry::MeshPort& port,
                 const DeembedOptions& options) {
  const double cell = port.along_mm;
  const double size = std::max(port.width_mm, mesh.layout().substrate.height_over_ground_mm());
  // The slack keeps a whole number of cells whole (3 · 3.2 / 0.4 is 24.000000000000004).
  const int skip = static_cast<int>(std::ceil(options.near_field_sizes * size / cell - 1e-9));
  // Sample 0 is the gap, one cell from the open port edge: skip cells past both.
  return {1 + skip, static_cast<int>(port.samples.size()) - skip};
}

Window fit_window(const geometry::Mesh& mesh, const geometry::MeshPort& port,
                  const DeembedOptions& options) {
  const Window w = window_of(mesh, port, options);
  const double cell = port.along_mm;
  const int skip = w.first - 1;
  if (w.last - w.first < kFitSamples) {
    const auto& p = mesh.layout().ports[static_cast<std::size_t>(port.port)];
    std::ostringstream text;
    text << "de-embedding: the feed line of port '" << p.name << "' (" << p.feed_length_mm
         << " mm) leaves fewer than 6 samples clear of the near fields of its gap, open end and "
            "circuit; make it at least "
         << (2 * skip + 7) * cell << " mm long";
    throw std::invalid_argument(text.str());
  }
  return w;
}

// Least-squares F, B in I(x) = F e^{−γx} + B e^{γx} over the window, x in m from the port edge.
std::pair<cd, cd> fit_amplitudes(std::span<const cd> current, Window w, cd gamma, double a) {
  const int n = w.last - w.first;
  Eigen::MatrixXcd m(n, 2);
  Eigen::VectorXcd y(n);
  for (int k = 0; k < n; ++k) {
    const double x = (w.first + k + 1) * a;
    m(k, 0) = std::exp(-gamma * x);
    m(k, 1) = std::exp(gamma * x);
    y(k) = current[static_cast<std::size_t>(w.first + k)];
  }
  const Eigen::Vector2cd fb = m.colPivHouseholderQr().solve(y);
  return {fb(0), fb(1)};
}

// One feed's fitted samples for every excitation.
struct FeedData {
  Window w;
  double step_m = 0;                     // between samples: the cell's side along the feed
  std::vector<std::vector<cd>> current;  // per excitation, all samples of the feed
};

// The stacked least-squares residuals of I = F e^{−γx} + B e^{γx} (F, B free per curve) on
// every curve of the given feeds, at one γ: the variable-projection residual, whose norm the
// common γ minimises.
Eigen::VectorXcd projection_residual(const std::vector<const FeedData*>& feeds, cd gamma,
                                     double a) {
  Eigen::Index rows = 0;
  for (const FeedData* f : feeds)
    rows += static_cast<Eigen::Index>(f->current.size()) * (f->w.last - f->w.first);
  Eigen::VectorXcd r(rows);
  Eigen::Index at = 0;
  for (const FeedData* f : feeds) {
    const int n = f->w.last - f->w.first;
    Eigen::MatrixXcd m(n, 2);
    for (int k = 0; k < n; ++k) {
      const double x = (f->w.first + k + 1) * a;
      m(k, 0) = std::exp(-gamma * x);
      m(k, 1) = std::exp(gamma * x);
    }
    const Eigen::ColPivHouseholderQR<Eigen::MatrixXcd> qr(m);
    for (const std::vector<cd>& c : f->current) {
      const Eigen::VectorXcd y =
          Eigen::Map<const Eigen::VectorXcd>(c.data() + f->w.first, n);
      r.segment(at, n) = y - m * qr.solve(y);
      at += n;
    }
  }
  return r;
}

// The γ that fits all curves of a set of feeds of one line best (least squares over every
// excitation on every feed, each with its own F and B): Levenberg–Marquardt on (α, β) from
// `start`, derivatives by central differences.
cd common_gamma(const std::vector<const FeedData*>& feeds, cd start, double a) {
  Eigen::Vector2d theta(start.real(), start.imag());
  const auto at = [](const Eigen::Vector2d& t) { return cd(t(0), t(1)); };
  Eigen::VectorXcd r = projection_residual(feeds, at(theta), a);
  double cost = r.squaredNorm();
  double lambda = 1e-3;
  for (int it = 0; it < 100; ++it) {
    const double h = 1e-6 * std::abs(at(theta));
    Eigen::MatrixXcd jac(r.size(), 2);
    for (int i = 0; i < 2; ++i) {
      Eigen::Vector2d up = theta, down = theta;
      up(i) += h;
      down(i) -= h;
      jac.col(i) = (projection_residual(feeds, at(up), a) -
                    projection_residual(feeds, at(down), a)) / (2 * h);
    }
    const Eigen::Matrix2d normal = (jac.adjoint() * jac).real();
    const Eigen::Vector2d gradient = (jac.adjoint() * r).real();
    bool improved = false;
    Eigen::Vector2d step = Eigen::Vector2d::Zero();
    for (int tries = 0; tries < 30 && !improved; ++tries) {
      Eigen::Matrix2d damped = normal;
      damped.diagonal() *= 1 + lambda;
      step = -damped.ldlt().solve(gradient);
      const Eigen::VectorXcd trial = projection_residual(feeds, at(theta + step), a);
      if (trial.squaredNorm() <= cost) {
        theta += step;
        r = trial;
        cost = trial.squaredNorm();
        lambda = std::max(lambda / 10, 1e-12);
        improved = true;
      } else {
        lambda *= 10;
      }
    }
    if (!improved || step.norm() < 1e-12 * theta.norm()) break;
  }
  return at(theta);
}

}  // namespace

std::vector<cd> port_excitations(const geometry::Mesh& mesh) {
  const auto n = static_cast<int>(mesh.unknowns());
  std::vector<cd> v;
  v.reserve(static_cast<std::size_t>(n) * mesh.ports().size());
  for (const geometry::MeshPort& port : mesh.ports()) {
    const std::vector<cd> column =
        delta_gap_excitation(n, port.delta_gap().basis, port.sign, port.across_mm * 1e-3);
    v.insert(v.end(), column.begin(), column.end());
  }
  return v;
}

void check_fit_window(const geometry::Mesh& mesh, const geometry::MeshPort& port,
                      const DeembedOptions& options) {
  (void)fit_window(mesh, port, options);
}

bool has_fit_window(const geometry::Mesh& mesh, const geometry::MeshPort& port,
                    const DeembedOptions& options) {
  const Window w = window_of(mesh, port, options);
  return w.last - w.first >= kFitSamples;
}

double fit_window_mm(const geometry::Mesh& mesh, const geometry::MeshPort& port,
                     const DeembedOptions& options) {
  const Window w = window_of(mesh, port, options);
  return std::max(0, w.last - 1 - w.first) * port.along_mm;
}

namespace {

// Every fitted feed's window and currents, after checking the sizes (`how` empty: every feed
// is fitted; a calibrated feed's data stay empty).
std::vector<FeedData> feed_data(const geometry::Mesh& mesh, std::span<const cd> currents,
                                std::span<const cd> feed_z0_ohm,
                                const DeembedOptions& options,
                                std::span<const PortWaves> how = {}) {
  const auto p = static_cast<int>(mesh.ports().size());
  const auto n = mesh.unknowns();
  if (currents.size() != n * static_cast<std::size_t>(p) ||
      feed_z0_ohm.size() != static_cast<std::size_t>(p)) {
    throw std::invalid_argument("de-embedding: expected " + std::to_string(p) +
                                " solutions of " + std::to_string(n) + " unknowns and " +
                                std::to_string(p) + " feed impedances");
  }
  std::vector<FeedData> feeds(static_cast<std::size_t>(p));
  for (int q = 0; q < p; ++q) {
    if (!how.empty() && how[static_cast<std::size_t>(q)] == PortWaves::calibrated) continue;
    const geometry::MeshPort& port = mesh.ports()[static_cast<std::size_t>(q)];
    FeedData& feed = feeds[static_cast<std::size_t>(q)];
    feed.w = fit_window(mesh, port, options);
    feed.step_m = port.along_mm * 1e-3;
    for (int e = 0; e < p; ++e) {
      feed.current.push_back(feed_currents(
          port, currents.subspan(static_cast<std::size_t>(e) * n, n), port.across_mm * 1e-3));
    }
  }
  return feeds;
}

// γ per port fitted on the feeds themselves.
std::vector<cd> fitted_gammas(const geometry::Mesh& mesh, const std::vector<FeedData>& feeds) {
  const auto p = static_cast<int>(mesh.ports().size());
  // One γ per feed line (feeds as many cells wide, along and across, are the same line),
  // fitted to every excitation on every such feed together. γ from each port's own excitation
  // alone was biased by its driven gap's near field, which reaches further into the window
  // than the waves' own near fields (β 0.3% low on a 22 mm feed), and by a different amount
  // per port; with windows under λg/2 the forward and backward waves are far from orthogonal,
  // so such a γ error turns into amplitude errors that differ per port, and S lost
  // reciprocity at ~2e-3 (tests/mom/test_deembed.cpp, AsymmetricStubIsReciprocalAndPassive).
  std::vector<cd> gamma(static_cast<std::size_t>(p));
  std::vector<bool> done(static_cast<std::size_t>(p), false);
  for (int q = 0; q < p; ++q) {
    if (done[static_cast<std::size_t>(q)]) continue;
    const geometry::MeshPort& line = mesh.ports()[static_cast<std::size_t>(q)];
    const double a = line.along_mm * 1e-3;
    std::vector<int> group;
    std::vector<const FeedData*> group_feeds;
    cd start = 0.0;
    for (int o = q; o < p; ++o) {
      if (mesh.ports()[static_cast<std::size_t>(o)].line_key() != line.line_key()) continue;
      const FeedData& feed = feeds[static_cast<std::size_t>(o)];
      group.push_back(o);
      group_feeds.push_back(&feed);
      // Start from the matrix pencil on the feed's own excitation.
      start += fit_standing_wave(std::span<const cd>(feed.current[static_cast<std::size_t>(o)])
                                     .subspan(static_cast<std::size_t>(feed.w.first),
                                              static_cast<std::size_t>(feed.w.last -
                                                                       feed.w.first)),
                                 a)
                   .gamma;
    }
    // The residual is even in γ (e^{∓γx} span the same curves), so the fit may land on −γ,
    // which swaps the incident and outgoing waves and turns S into S⁻¹ (a through line's
    // phase conjugated: seen on a single-frequency sweep). The forward wave e^{−γx} runs into
    // the circuit when β = Im γ > 0 (e^{+jωt}).
    cd g = common_gamma(group_feeds, start / static_cast<double>(group.size()), a);
    if (g.imag() < 0) g = -g;
    for (const int o : group) {
      gamma[static_cast<std::size_t>(o)] = g;
      done[static_cast<std::size_t>(o)] = true;
    }
  }
  return gamma;
}

// Every port's F and B (rows: ports, columns: excitations), I(x) = F e^{−γx} + B e^{γx}.
struct Waves {
  Eigen::MatrixXcd forward, backward;
};

// The waves fitted on the feeds at the given γ.
Waves fitted_waves(const std::vector<FeedData>& feeds, std::span<const cd> gamma) {
  const auto p = static_cast<Eigen::Index>(feeds.size());
  Waves w{Eigen::MatrixXcd::Zero(p, p), Eigen::MatrixXcd::Zero(p, p)};
  for (Eigen::Index q = 0; q < p; ++q) {
    const FeedData& feed = feeds[static_cast<std::size_t>(q)];
    if (feed.current.empty()) continue;  // a calibrated port's
    for (Eigen::Index e = 0; e < p; ++e)
      std::tie(w.forward(q, e), w.backward(q, e)) =
          fit_amplitudes(feed.current[static_cast<std::size_t>(e)], feed.w,
                         gamma[static_cast<std::size_t>(q)], feed.step_m);
  }
  return w;
}

// S from the feeds' waves at the reference planes: there the current I = F e^{−γx} + B e^{γx}
// and the voltage V = Z0 (F e^{−γx} − B e^{γx}) (Z0 the feed's, complex on a lossy line; an
// internal port's Zr at x = 0), whose power waves at the port's reference impedance Zr are
// a = (V + Zr I) / (2√Zr), b = (V − Zr I) / (2√Zr) (Kurokawa; openEMS's ports likewise).
SParameters scattering(const geometry::Mesh& mesh, const Waves& waves, std::span<const cd> gamma,
                       std::span<const cd> feed_z0_ohm) {
  const auto p = static_cast<int>(mesh.ports().size());
  SParameters out;
  out.ports = p;
  Eigen::MatrixXcd incident(p, p), outgoing(p, p);
  for (int q = 0; q < p; ++q) {
    const geometry::MeshPort& port = mesh.ports()[static_cast<std::size_t>(q)];
    const geometry::Port& spec = mesh.layout().ports[static_cast<std::size_t>(port.port)];
    const cd g = gamma[static_cast<std::size_t>(q)];
    const double x_ref = spec.reference_plane_mm * 1e-3;
    const cd z0 = feed_z0_ohm[static_cast<std::size_t>(q)];
    const double zr = spec.impedance_ohm, root_zr = std::sqrt(zr);
    for (int e = 0; e < p; ++e) {
      const cd forward = waves.forward(q, e) * std::exp(-g * x_ref);
      const cd backward = waves.backward(q, e) * std::exp(g * x_ref);
      const cd v = z0 * (forward - backward), i = forward + backward;
      incident(q, e) = (v + zr * i) / (2.0 * root_zr);
      outgoing(q, e) = (v - zr * i) / (2.0 * root_zr);
    }
    out.gamma.push_back(g);
    out.reference_ohm.push_back(zr);
    out.reference_plane_mm.push_back(spec.reference_plane_mm);
  }
  const Eigen::FullPivLU<Eigen::MatrixXcd> lu(incident);
  if (!lu.isInvertible()) {
    throw std::runtime_error("de-embedding: the port excitations do not determine S (the "
                             "incident-wave matrix is singular)");
  }
  const Eigen::MatrixXcd s = outgoing * lu.inverse();
  out.s.resize(static_cast<std::size_t>(p) * static_cast<std::size_t>(p));
  for (int row = 0; row < p; ++row)
    for (int col = 0; col < p; ++col)
      out.s[static_cast<std::size_t>(row) * static_cast<std::size_t>(p) +
            static_cast<std::size_t>(col)] = s(row, col);
  return out;
}

}  // namespace

SParameters deembed(const geometry::Mesh& mesh, std::span<const cd> currents,
                    std::span<const cd> feed_z0_ohm, const DeembedOptions& options) {
  const std::vector<FeedData> feeds = feed_data(mesh, currents, feed_z0_ohm, options);
  const std::vector<cd> gamma = fitted_gammas(mesh, feeds);
  return scattering(mesh, fitted_waves(feeds, gamma), gamma, feed_z0_ohm);
}

SParameters deembed(const geometry::Mesh& mesh, std::span<const cd> currents,
                    std::span<const cd> feed_z0_ohm, std::span<const cd> feed_gamma,
                    const DeembedOptions& options) {
  const std::vector<FeedData> feeds = feed_data(mesh, currents, feed_z0_ohm, options);
  if (feed_gamma.size() != feeds.size())
    throw std::invalid_argument("de-embedding: expected " + std::to_string(feeds.size()) +
                                " feed propagation constants, got " +
                                std::to_string(feed_gamma.size()));
  return scattering(mesh, fitted_waves(feeds, feed_gamma), feed_gamma, feed_z0_ohm);
}

std::pair<cd, cd> PortLaunch::waves(cd v, cd i) const {
  // (F, B) = E⁻¹ (V, I).
  const cd det = e[0] * e[3] - e[1] * e[2];
  if (!(std::abs(det) > 0) || !std::isfinite(std::abs(det)))
    throw std::runtime_error("de-embedding: a port's calibrated launch is singular");
  return {(e[3] * v - e[1] * i) / det, (e[0] * i - e[2] * v) / det};
}

PortLaunch internal_port_launch(double reference_ohm, cd gap_shunt) {
  const cd yz = gap_shunt * reference_ohm;
  return {{reference_ohm, -reference_ohm, 1.0 + yz, 1.0 - yz}};
}

cd gap_current(const geometry::MeshPort& port, std::span<const cd> x) {
  return section_current(port, port.delta_gap(), x, port.across_mm * 1e-3);
}

std::pair<cd, cd> feed_waves(const geometry::Mesh& mesh, const geometry::MeshPort& port,
                             std::span<const cd> x, cd gamma, const DeembedOptions& options) {
  return fit_amplitudes(feed_currents(port, x, port.across_mm * 1e-3),
                        fit_window(mesh, port, options), gamma, port.along_mm * 1e-3);
}

PortLaunch port_launch(const geometry::Mesh& mesh, const geometry::MeshPort& port,
                       std::array<std::span<const cd>, 2> x, std::array<cd, 2> gap_voltage,
                       cd gamma) {
  // E = [V₁ V₂; I₁ I₂] [F₁ F₂; B₁ B₂]⁻¹ over the two states.
  Eigen::Matrix2cd terminal, waves;
  for (int k = 0; k < 2; ++k) {
    const auto [f, b] = feed_waves(mesh, port, x[static_cast<std::size_t>(k)], gamma);
    waves.col(k) << f, b;
    terminal.col(k) << gap_voltage[static_cast<std::size_t>(k)],
        gap_current(port, x[static_cast<std::size_t>(k)]);
  }
  const Eigen::FullPivLU<Eigen::Matrix2cd> lu(waves);
  if (!lu.isInvertible())
    throw std::runtime_error("port launch: the standard's two states carry the same waves");
  const Eigen::Matrix2cd e = terminal * lu.inverse();
  return {{e(0, 0), e(0, 1), e(1, 0), e(1, 1)}};
}

SParameters deembed(const geometry::Mesh& mesh, std::span<const cd> currents,
                    std::span<const cd> feed_z0_ohm, std::span<const cd> feed_gamma,
                    const PortCalibration& calibration, const DeembedOptions& options) {
  const std::size_t p = mesh.ports().size();
  if (feed_gamma.size() != p || calibration.waves.size() != p || calibration.launch.size() != p ||
      calibration.load_ohm.size() != p)
    throw std::invalid_argument("de-embedding: expected " + std::to_string(p) +
                                " feed propagation constants, launches, loads and choices");
  const std::vector<FeedData> feeds =
      feed_data(mesh, currents, feed_z0_ohm, options, calibration.waves);
  Waves w = fitted_waves(feeds, feed_gamma);
  const std::size_t n = mesh.unknowns();
  for (std::size_t q = 0; q < p; ++q) {
    if (calibration.waves[q] != PortWaves::calibrated) continue;
    const geometry::MeshPort& port = mesh.ports()[q];
    for (std::size_t e = 0; e < p; ++e) {
      const cd i = gap_current(port, currents.subspan(e * n, n));
      // The gap's voltage into the circuit: the source's 1 V where driven, less the load's drop
      // (port_loads.hpp).
      const cd v = (q == e ? 1.0 : 0.0) - calibration.load_ohm[q] * i;
      const auto qi = static_cast<Eigen::Index>(q), ei = static_cast<Eigen::Index>(e);
      std::tie(w.forward(qi, ei), w.backward(qi, ei)) = calibration.launch[q].waves(v, i);
    }
  }
  return scattering(mesh, w, feed_gamma, feed_z0_ohm);
}

}  // namespace pmom::mom
