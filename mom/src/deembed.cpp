// Port excitations, wave fitting on the feed lines, S = B A⁻¹ and renormalisation.
#include "planarmom/mom/deembed.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/line_fit.hpp"

namespace pmom::mom {
namespace {

using cd = std::complex<double>;

// Current into the circuit through each cross-section of a feed, for one excitation.
std::vector<cd> feed_currents(const geometry::MeshPort& port, std::span<const cd> x, double a) {
  std::vector<cd> current;
  current.reserve(port.samples.size());
  for (const geometry::CrossSection& c : port.samples) {
    cd sum = 0.0;
    for (const int m : c.basis) sum += x[static_cast<std::size_t>(m)];
    current.push_back(port.sign * a * sum);
  }
  return current;
}

// The fitted window [first, last) of a feed's samples (sample k at k + 1 cells from the edge).
struct Window {
  int first = 0, last = 0;
};

Window fit_window(const geometry::Mesh& mesh, const geometry::MeshPort& port,
                  const DeembedOptions& options) {
  const double cell = mesh.grid().cell_mm;
  const double size = std::max(port.width_mm, mesh.layout().substrate.height_mm);
  const int skip = static_cast<int>(std::ceil(options.near_field_sizes * size / cell));
  // Sample 0 is the gap, one cell from the open port edge: skip cells past both.
  const Window w{1 + skip, static_cast<int>(port.samples.size()) - skip};
  if (w.last - w.first < 6) {
    const auto& p = mesh.layout().ports[static_cast<std::size_t>(port.port)];
    const double needed = (2 * skip + 7) * cell;
    throw std::invalid_argument(
        "de-embedding: the feed line of port '" + p.name + "' (" +
        std::to_string(p.feed_length_mm) + " mm) leaves fewer than 6 samples clear of the near "
        "fields of its gap, open end and circuit; make it at least " + std::to_string(needed) +
        " mm long");
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

}  // namespace

std::vector<cd> port_excitations(const geometry::Mesh& mesh) {
  const auto n = static_cast<int>(mesh.basis().size());
  const double a = mesh.grid().cell_mm * 1e-3;
  std::vector<cd> v;
  v.reserve(static_cast<std::size_t>(n) * mesh.ports().size());
  for (const geometry::MeshPort& port : mesh.ports()) {
    const std::vector<cd> column = delta_gap_excitation(n, port.delta_gap().basis, port.sign, a);
    v.insert(v.end(), column.begin(), column.end());
  }
  return v;
}

SParameters deembed(const geometry::Mesh& mesh, std::span<const cd> currents,
                    std::span<const double> feed_z0_ohm, const DeembedOptions& options) {
  const auto p = static_cast<int>(mesh.ports().size());
  const auto n = mesh.basis().size();
  if (currents.size() != n * static_cast<std::size_t>(p) ||
      feed_z0_ohm.size() != static_cast<std::size_t>(p)) {
    throw std::invalid_argument("de-embedding: expected " + std::to_string(p) +
                                " solutions of " + std::to_string(n) + " unknowns and " +
                                std::to_string(p) + " feed impedances");
  }
  const double a = mesh.grid().cell_mm * 1e-3;
  SParameters out;
  out.ports = p;
  Eigen::MatrixXcd incident(p, p), outgoing(p, p);
  for (int q = 0; q < p; ++q) {
    const geometry::MeshPort& port = mesh.ports()[static_cast<std::size_t>(q)];
    const geometry::Port& spec = mesh.layout().ports[static_cast<std::size_t>(port.port)];
    const Window w = fit_window(mesh, port, options);
    std::vector<std::vector<cd>> current;
    for (int e = 0; e < p; ++e) {
      current.push_back(
          feed_currents(port, currents.subspan(static_cast<std::size_t>(e) * n, n), a));
    }
    // γ of this feed from its own excitation, where its standing wave is strongest; then the
    // amplitudes of every excitation with that one γ.
    const auto& own = current[static_cast<std::size_t>(q)];
    const cd gamma = fit_standing_wave(std::span<const cd>(own).subspan(
                                           static_cast<std::size_t>(w.first),
                                           static_cast<std::size_t>(w.last - w.first)),
                                       a)
                         .gamma;
    const double x_ref = spec.reference_plane_mm * 1e-3;
    const double root_z0 = std::sqrt(feed_z0_ohm[static_cast<std::size_t>(q)]);
    for (int e = 0; e < p; ++e) {
      const auto [f, b] = fit_amplitudes(current[static_cast<std::size_t>(e)], w, gamma, a);
      // Voltage waves V± = ±Z0 I±, as power waves (÷√Z0), at the reference plane.
      incident(q, e) = root_z0 * f * std::exp(-gamma * x_ref);
      outgoing(q, e) = -root_z0 * b * std::exp(gamma * x_ref);
    }
    out.gamma.push_back(gamma);
    out.reference_ohm.push_back(spec.impedance_ohm);
    out.reference_plane_mm.push_back(spec.reference_plane_mm);
  }
  const Eigen::FullPivLU<Eigen::MatrixXcd> lu(incident);
  if (!lu.isInvertible()) {
    throw std::runtime_error("de-embedding: the port excitations do not determine S (the "
                             "incident-wave matrix is singular)");
  }
  const Eigen::MatrixXcd s_feed = outgoing * lu.inverse();
  // Renormalise the waves from each feed's Z0 to the port's reference impedance Zr: with
  // V = √Z0 (a + b), I = (a − b)/√Z0, the new waves are a' = k (a − r b), b' = k (b − r a),
  // r = (Zr − Z0)/(Zr + Z0), k = (Z0 + Zr)/(2 √(Z0 Zr)), so S' = K (S − R)(1 − R S)⁻¹ K⁻¹.
  Eigen::VectorXcd r(p), k(p);
  for (int q = 0; q < p; ++q) {
    const double z0 = feed_z0_ohm[static_cast<std::size_t>(q)];
    const double zr = out.reference_ohm[static_cast<std::size_t>(q)];
    r(q) = (zr - z0) / (zr + z0);
    k(q) = (z0 + zr) / (2.0 * std::sqrt(z0 * zr));
  }
  const Eigen::MatrixXcd identity = Eigen::MatrixXcd::Identity(p, p);
  const Eigen::MatrixXcd s = k.asDiagonal() * (s_feed - Eigen::MatrixXcd(r.asDiagonal())) *
                             (identity - r.asDiagonal() * s_feed).inverse() *
                             k.cwiseInverse().asDiagonal();
  out.s.resize(static_cast<std::size_t>(p) * static_cast<std::size_t>(p));
  for (int row = 0; row < p; ++row)
    for (int col = 0; col < p; ++col)
      out.s[static_cast<std::size_t>(row) * static_cast<std::size_t>(p) +
            static_cast<std::size_t>(col)] = s(row, col);
  return out;
}

}  // namespace pmom::mom
