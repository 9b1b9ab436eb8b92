// Public Green's function API: validation, the singular/smooth split, and direct evaluation
// as closed-form quasi-static part plus the numerically integrated remainder.
#include "planarmom/mom/greens.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "planarmom/mom/constants.hpp"
#include "spectral.hpp"

namespace pmom::mom {
namespace {

using cd = std::complex<double>;

void check_rho(double rho, bool zero_allowed) {
  if (!std::isfinite(rho) || rho < 0.0 || (!zero_allowed && rho == 0.0))
    throw std::invalid_argument("greens: rho must be " +
                                std::string(zero_allowed ? "≥ 0" : "> 0") +
                                " and finite (metres), got " + std::to_string(rho));
}

GreensValues evaluate(const Slab& slab, double frequency_hz, double rho, const PathOptions& p,
                      bool smooth_only) {
  const SlabSpectrum s = slab_spectrum(slab, frequency_hz);
  check_path(p);
  const SingularCoefficients c = singular_coefficients(slab);
  const cd sing_a = smooth_only ? 0.0 : c.a / rho;
  const cd sing_v = smooth_only ? 0.0 : c.v / rho;
  if (p.extraction == Extraction::none) {
    const Pair g = sommerfeld(s, rho, p, {}, c);
    if (!smooth_only) return {g[0], g[1]};
    return {g[0] - c.a / rho, g[1] - c.v / rho};
  }
  const Pair qs = quasi_static_smooth(s, rho);
  // Accuracy relative to what is returned: the full G, or the smooth part alone.
  const Pair known{sing_a + qs[0], sing_v + qs[1]};
  const Pair r = sommerfeld(s, rho, p, known, c);
  return {known[0] + r[0], known[1] + r[1]};
}

}  // namespace

SlabSpectrum slab_spectrum(const Slab& slab, double frequency_hz) {
  validate(slab);
  if (!(frequency_hz > 0.0) || !std::isfinite(frequency_hz))
    throw std::invalid_argument("greens: frequency must be positive and finite, got " +
                                std::to_string(frequency_hz) + " Hz");
  SlabSpectrum s{complex_permittivity(slab), 2.0 * pi * frequency_hz / c0, slab.height_m,
                 slab.eps_r};
  if (!slab.ground.perfect()) {
    const std::complex<double> zs = surface_impedance(slab.ground, frequency_hz);
    const std::complex<double> jw(0.0, 2.0 * pi * frequency_hz);
    s.ground_a = zs / (jw * mu0);
    s.ground_b = jw * eps0 * s.eps * zs;
  }
  return s;
}

void check_path(const PathOptions& p) {
  if (!(p.height_factor > 0.0) || !(p.break_margin > 0.0) || !(p.rel_tol > 0.0))
    throw std::invalid_argument(
        "greens: PathOptions height_factor, break_margin and rel_tol must be positive");
}

void validate(const Slab& slab) {
  if (!(slab.eps_r >= 1.0) || !std::isfinite(slab.eps_r))
    throw std::invalid_argument("Slab: eps_r (real relative permittivity) must be ≥ 1, got " +
                                std::to_string(slab.eps_r));
  if (!(slab.loss_tangent >= 0.0) || !std::isfinite(slab.loss_tangent))
    throw std::invalid_argument("Slab: loss_tangent must be ≥ 0, got " +
                                std::to_string(slab.loss_tangent));
  if (!(slab.height_m > 0.0) || !std::isfinite(slab.height_m))
    throw std::invalid_argument("Slab: height_m must be a positive thickness in metres, got " +
                                std::to_string(slab.height_m));
  validate(slab.ground);
}

std::complex<double> complex_permittivity(const Slab& slab) {
  return {slab.eps_r, -slab.eps_r * slab.loss_tangent};
}

SingularCoefficients singular_coefficients(const Slab& slab) {
  validate(slab);
  return {mu0 / (4.0 * pi), 1.0 / (2.0 * pi * eps0 * (1.0 + complex_permittivity(slab)))};
}

GreensValues greens_direct(const Slab& slab, double frequency_hz, double rho_m,
                           const PathOptions& path) {
  check_rho(rho_m, false);
  return evaluate(slab, frequency_hz, rho_m, path, false);
}

GreensValues greens_smooth_direct(const Slab& slab, double frequency_hz, double rho_m,
                                  const PathOptions& path) {
  check_rho(rho_m, path.extraction == Extraction::quasi_static);
  return evaluate(slab, frequency_hz, rho_m, path, true);
}

}  // namespace pmom::mom
