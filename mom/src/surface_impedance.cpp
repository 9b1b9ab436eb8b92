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

std::complex<double> surface_impedance(const Conductor& c, double frequency_hz) {
  validate(c);
  if (c.perfect()) return 0.0;
  if (!(frequency_hz > 0) || !std::isfinite(frequency_hz))
    throw std::invalid_argument("surface_impedance: frequency must be positive and finite, got " +
                                std::to_string(frequency_hz) + " Hz");
  using cd = std::complex<double>;
  const cd gamma = cd(1.0, 1.0) / skin_depth_m(c.conductivity_s_per_m, frequency_hz);
  const cd x = gamma * c.thickness_m;
  // coth x = (1 + e^{−2x})/(1 − e^{−2x}) (no overflow for thick metal); x coth x by Taylor
  // where 1 − e^{−2x} would cancel.
  const cd x_coth = std::abs(x) < 1e-3 ? 1.0 + x * x / 3.0
                                       : x * (1.0 + std::exp(-2.0 * x)) / (1.0 - std::exp(-2.0 * x));
  return x_coth / (c.conductivity_s_per_m * c.thickness_m);
}

}  // namespace pmom::mom
