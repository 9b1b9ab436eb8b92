// surface_impedance.hpp.
#include "planarmom/mom/surface_impedance.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "planarmom/mom/constants.hpp"

namespace pmom::mom {

Conductor conductor(const geometry::Metal& metal) {
  if (metal.pec) return {};
  return {metal.conductivity_s_per_m, metal.thickness_um * 1e-6};
}

void validate(const Conductor& c) {
  if (c.perfect()) return;
  if (!(c.conductivity_s_per_m > 0) || !std::isfinite(c.conductivity_s_per_m))
    throw std::invalid_argument("Conductor: conductivity must be > 0 S/m and finite, got " +
                                std::to_string(c.conductivity_s_per_m));
  if (!(c.thickness_m > 0) || !std::isfinite(c.thickness_m))
    throw std::invalid_argument("Conductor: thickness must be > 0 m and finite, got " +
                                std::to_string(c.thickness_m));
}

double skin_depth_m(double conductivity_s_per_m, double frequency_hz) {
  return 1.0 / std::sqrt(pi * frequency_hz * mu0 * conductivity_s_per_m);
}

namespace {

using cd = std::complex<double>;

// γ t of the conductor at f, after checking both.
cd skin_argument(const Conductor& c, double frequency_hz, const char* what) {
  if (!(frequency_hz > 0) || !std::isfinite(frequency_hz))
    throw std::invalid_argument(std::string(what) + ": frequency must be positive and finite, got " +
                                std::to_string(frequency_hz) + " Hz");
  return cd(1.0, 1.0) / skin_depth_m(c.conductivity_s_per_m, frequency_hz) * c.thickness_m;
}

// x coth x: coth x = (1 + e^{−2x})/(1 − e^{−2x}) (no overflow for thick metal), by Taylor
// where 1 − e^{−2x} would cancel.
cd x_coth(cd x) {
  return std::abs(x) < 1e-3 ? 1.0 + x * x / 3.0
                            : x * (1.0 + std::exp(-2.0 * x)) / (1.0 - std::exp(-2.0 * x));
}

}  // namespace

std::complex<double> surface_impedance(const Conductor& c, double frequency_hz) {
  validate(c);
  if (c.perfect()) return 0.0;
  const cd x = skin_argument(c, frequency_hz, "surface_impedance");
  return x_coth(x) / (c.conductivity_s_per_m * c.thickness_m);
}

StripImpedance strip_impedance(const Conductor& c, double frequency_hz) {
  validate(c);
  if (c.perfect()) return {};
  const cd half = skin_argument(c, frequency_hz, "strip_impedance") / 2.0;
  // (γ/2σ) coth(γt/2) = (x coth x)/(σt) and (γ/2σ) tanh(γt/2) = x²/(σt · x coth x), x = γt/2.
  const double sigma_t = c.conductivity_s_per_m * c.thickness_m;
  const cd xc = x_coth(half);
  return {xc / sigma_t, half * half / (sigma_t * xc)};
}

}  // namespace pmom::mom
