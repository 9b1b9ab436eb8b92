// Hammerstad-Jensen and Kirschning-Jansen microstrip formulas.
#include "planarmom/mom/microstrip_formulas.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace pmom::mom {

double effective_permittivity_hj(double u, double eps_r) {
  if (!(u > 0) || !(eps_r >= 1))
    throw std::invalid_argument("microstrip formula: need W/h > 0 and eps_r >= 1, got W/h = " +
                                std::to_string(u) + ", eps_r = " + std::to_string(eps_r));
  const double u4 = u * u * u * u;
  const double a = 1 + std::log((u4 + std::pow(u / 52, 2)) / (u4 + 0.432)) / 49 +
                   std::log(1 + std::pow(u / 18.1, 3)) / 18.7;
  const double b = 0.564 * std::pow((eps_r - 0.9) / (eps_r + 3), 0.053);
  return (eps_r + 1) / 2 + (eps_r - 1) / 2 * std::pow(1 + 10 / u, -a * b);
}

double impedance_air_hj(double u) {
  if (!(u > 0)) throw std::invalid_argument("microstrip formula: need W/h > 0");
  const double f = 6 + (2 * pi - 6) * std::exp(-std::pow(30.666 / u, 0.7528));
  return eta0_ohm / (2 * pi) * std::log(f / u + std::sqrt(1 + 4 / (u * u)));
}

double impedance_hj(double u, double eps_r) {
  return impedance_air_hj(u) / std::sqrt(effective_permittivity_hj(u, eps_r));
}

double width_for_impedance_hj(double z0_ohm, double eps_r) {
  double lo = 0.01, hi = 100;  // Z0 falls monotonically with u
  if (!(z0_ohm <= impedance_hj(lo, eps_r) && z0_ohm >= impedance_hj(hi, eps_r)))
    throw std::invalid_argument("microstrip synthesis: " + std::to_string(z0_ohm) +
                                " ohm is outside what 0.01 <= W/h <= 100 gives on eps_r = " +
                                std::to_string(eps_r));
  while (hi - lo > 1e-12 * hi) {
    const double mid = std::sqrt(lo * hi);  // bisection in log u: u spans four decades
    (impedance_hj(mid, eps_r) > z0_ohm ? lo : hi) = mid;
  }
  return std::sqrt(lo * hi);
}

double attenuation_dielectric(double eps_r, double eps_eff, double loss_tangent, double f_hz) {
  if (eps_r == 1) return 0;
  const double k0 = 2 * pi * f_hz / c0;
  return k0 * eps_r * (eps_eff - 1) * loss_tangent / (2 * std::sqrt(eps_eff) * (eps_r - 1));
}

double impedance_air_thick_hj(double u, double t_over_h) {
  if (t_over_h <= 0) return impedance_air_hj(u);
  const double coth = 1 / std::tanh(std::sqrt(6.517 * u));
  return impedance_air_hj(
      u + t_over_h / pi * std::log(1 + 4 * std::exp(1.0) / (t_over_h * coth * coth)));
}

double attenuation_conductor_hj(double w_mm, double z0_ohm, double rs_ohm) {
  return rs_ohm / (z0_ohm * w_mm * 1e-3) * std::exp(-1.2 * std::pow(z0_ohm / eta0_ohm, 0.7));
}

double attenuation_conductor_wheeler(double w_mm, double h_mm, double t_mm, double z0_ohm,
                                     double rs_ohm) {
  if (!(w_mm > 0) || !(h_mm > 0) || !(t_mm > 0))
    throw std::invalid_argument("conductor attenuation: need W, h and t > 0 mm");
  const auto z0a = [&](double n) {
    return impedance_air_thick_hj((w_mm - 2 * n) / (h_mm + 2 * n), (t_mm - 2 * n) / (h_mm + 2 * n));
  };
  const double dn = 1e-4 * t_mm;  // mm; central difference, error O(dn²)
  const double dz_dn = (z0a(dn) - z0a(-dn)) / (2 * dn * 1e-3);  // ohm per metre
  return rs_ohm / eta0_ohm * dz_dn / (2 * z0_ohm);
}

KjDispersionTerms kj_dispersion_terms(double u, double eps_r, double fn) {
  return {0.27488 + (0.6315 + 0.525 / std::pow(1 + 0.0157 * fn, 20)) * u -
              0.065683 * std::exp(-8.7513 * u),
          0.33622 * (1 - std::exp(-0.03442 * eps_r)),
          0.0363 * std::exp(-4.6 * u) * (1 - std::exp(-std::pow(fn / 38.7, 4.97))),
          1 + 2.751 * (1 - std::exp(-std::pow(eps_r / 15.916, 8)))};
}

double effective_permittivity_kj(double u, double eps_r, double f_ghz, double h_mm) {
  if (f_ghz < 0 || !(h_mm > 0))
    throw std::invalid_argument("microstrip dispersion: need f >= 0 and h > 0");
  const double fn = f_ghz * h_mm;  // normalised frequency, GHz·mm
  const KjDispersionTerms t = kj_dispersion_terms(u, eps_r, fn);
  const double p = t.p1 * t.p2 * std::pow((0.1844 + t.p3 * t.p4) * fn, 1.5763);
  const double e0 = effective_permittivity_hj(u, eps_r);
  return eps_r - (eps_r - e0) / (1 + p);
}

double impedance_dispersion_exponent_kj(double u, double eps_r, double fn) {
  // R1, R2 and R6 capped at 20, as Jansen and Kirschning advise against overflow.
  const double r1 = std::min(0.03891 * std::pow(eps_r, 1.4), 20.0);
  const double r2 = std::min(0.267 * std::pow(u, 7.0), 20.0);
  const double r7 = 1.206 - 0.3144 * std::exp(-r1) * (1 - std::exp(-r2));
  const double r10 = 0.00044 * std::pow(eps_r, 2.136) + 0.0184;
  const double x = std::pow(fn / 19.47, 6);
  const double r11 = x / (1 + 0.0962 * x);
  const double r12 = 1 / (1 + 0.00245 * u * u);
  const double r15 = 0.707 * r10 * std::pow(fn / 12.3, 1.097);
  const double r16 = 1 + 0.0503 * eps_r * eps_r * r11 * (1 - std::exp(-std::pow(u / 15, 6)));
  return r7 * (1 - 1.1241 * r12 / r16 * std::exp(-0.026 * std::pow(fn, 1.15656) - r15));
}

double impedance_kj(double u, double eps_r, double f_ghz, double h_mm) {
  const double fn = f_ghz * h_mm;
  const double e0 = effective_permittivity_hj(u, eps_r);
  const double ef = effective_permittivity_kj(u, eps_r, f_ghz, h_mm);
  const double r3 = 4.766 * std::exp(-3.228 * std::pow(u, 0.641));
  const double r4 = 0.016 + std::pow(0.0514 * eps_r, 4.524);
  const double r5 = std::pow(fn / 28.843, 12);
  const double r6 = std::min(22.2 * std::pow(u, 1.92), 20.0);
  const double r8 =
      1 + 1.275 * (1 - std::exp(-0.004625 * r3 * std::pow(eps_r, 1.674) *
                                std::pow(fn / 18.365, 2.745)));
  const double r9 = 5.086 * r4 * r5 / (0.3838 + 0.386 * r4) * std::exp(-r6) /
                    (1 + 1.2992 * r5) * std::pow(eps_r - 1, 6) /
                    (1 + 10 * std::pow(eps_r - 1, 6));
  const double r13 = 0.9408 * std::pow(ef, r8) - 0.9603;
  const double r14 = (0.9408 - r9) * std::pow(e0, r8) - 0.9603;
  return impedance_hj(u, eps_r) *
         std::pow(r13 / r14, impedance_dispersion_exponent_kj(u, eps_r, fn));
}

double impedance_dispersive_hj(double u, double eps_r, double eps_eff_f) {
  const double e0 = effective_permittivity_hj(u, eps_r);
  if (eps_r == 1) return impedance_hj(u, eps_r);
  return impedance_hj(u, eps_r) * std::sqrt(e0 / eps_eff_f) * (eps_eff_f - 1) / (e0 - 1);
}

}  // namespace pmom::mom
