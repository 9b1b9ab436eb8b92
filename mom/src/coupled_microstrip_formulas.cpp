// Kirschning-Jansen coupled microstrip: static even/odd values and their dispersion, written
// from the published equations (their symbols kept: v, a_e, ..., P1..P15, Q0..Q29).
#include "planarmom/mom/coupled_microstrip_formulas.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "planarmom/mom/microstrip_formulas.hpp"

namespace pmom::mom {

namespace {

using std::exp;
using std::log;
using std::pow;

// The static impedance of either mode from the single line's Z0 and εeff: Z0 √(εeff/εeff,mode)
// / (1 − Z0 √εeff Q / 377 Ω), Q = Q4 (even) or Q10 (odd).
double static_impedance(double z0, double e0, double e_mode, double q) {
  return std::sqrt(e0 / e_mode) * z0 / (1 - z0 / 377.0 * std::sqrt(e0) * q);
}

struct Static {
  double eps_even, eps_odd, z_even, z_odd;
};

Static static_modes(double u, double g, double er) {
  const double e0 = effective_permittivity_hj(u, er);
  const double z0 = impedance_hj(u, er);
  // Even εeff: the single line's formula at the equivalent width v.
  const double v = u * (20 + g * g) / (10 + g * g) + g * exp(-g);
  const double eps_even = effective_permittivity_hj(v, er);
  const double ao = 0.7287 * (e0 - (er + 1) / 2) * (1 - exp(-0.179 * u));
  const double bo = 0.747 * er / (0.15 + er);
  const double co = bo - (bo - 0.207) * exp(-0.414 * u);
  const double d_o = 0.593 + 0.694 * exp(-0.562 * u);
  const double eps_odd = ((er + 1) / 2 + ao - e0) * exp(-co * pow(g, d_o)) + e0;

  const double q1 = 0.8695 * pow(u, 0.194);
  const double q2 = 1 + 0.7519 * g + 0.189 * pow(g, 2.31);
  const double q3 = 0.1975 + pow(16.6 + pow(8.4 / g, 6), -0.387) +
                    log(pow(g, 10) / (1 + pow(g / 3.4, 10))) / 241;
  const double q4 = q1 / q2 * 2 / (exp(-g) * pow(u, q3) + (2 - exp(-g)) * pow(u, -q3));
  const double q5 = 1.794 + 1.14 * log(1 + 0.638 / (g + 0.517 * pow(g, 2.43)));
  const double q6 = 0.2305 + log(pow(g, 10) / (1 + pow(g / 5.8, 10))) / 281.3 +
                    log(1 + 0.598 * pow(g, 1.154)) / 5.1;
  const double q7 = (10 + 190 * g * g) / (1 + 82.3 * g * g * g);
  const double q8 = exp(-6.5 - 0.95 * log(g) - pow(g / 0.15, 5));
  const double q9 = log(q7) * (q8 + 1 / 16.5);
  const double q10 = q4 - q5 / q2 * pow(u, q6 * pow(u, -q9));
  return {eps_even, eps_odd, static_impedance(z0, e0, eps_even, q4),
          static_impedance(z0, e0, eps_odd, q10)};
}

// εeff(f) = εr − (εr − εeff(0)) / (1 + F).
double dispersed(double er, double e_static, double f) { return er - (er - e_static) / (1 + f); }

}  // namespace

CoupledModes coupled_microstrip_kj(double u, double g, double er, double f_ghz, double h_mm) {
  if (!(u > 0) || !(g > 0) || !(er >= 1) || !(f_ghz >= 0) || !(h_mm > 0))
    throw std::invalid_argument("coupled microstrip formula: need W/h > 0, S/h > 0, eps_r >= 1, "
                                "f >= 0 and h > 0, got W/h = " + std::to_string(u) +
                                ", S/h = " + std::to_string(g) + ", eps_r = " +
                                std::to_string(er) + ", f = " + std::to_string(f_ghz) +
                                " GHz, h = " + std::to_string(h_mm) + " mm");
  const Static s = static_modes(u, g, er);
  const double fn = f_ghz * h_mm;  // GHz·mm
  const KjDispersionTerms t = kj_dispersion_terms(u, er, fn);

  // εeff dispersion: even mode.
  const double p5 = 0.334 * exp(-3.3 * pow(er / 15, 3)) + 0.746;
  const double p6 = p5 * exp(-pow(fn / 18, 0.368));
  const double p7 = 1 + 4.069 * p6 * pow(g, 0.479) * exp(-1.347 * pow(g, 0.595) - 0.17 * pow(g, 2.5));
  const double fe = t.p1 * t.p2 * pow((t.p3 * t.p4 + 0.1844 * p7) * fn, 1.5763);
  // Odd mode.
  const double p8 = 0.7168 * (1 + 1.076 / (1 + 0.0576 * (er - 1)));
  const double p9 = p8 - 0.7913 * (1 - exp(-pow(fn / 20, 1.424))) *
                             std::atan(2.481 * pow(er / 8, 0.946));
  const double p10 = 0.242 * pow(er - 1, 0.55);
  const double p11 = 0.6366 * (exp(-0.3401 * fn) - 1) * std::atan(1.263 * pow(u / 3, 1.629));
  const double p12 = p9 + (1 - p9) / (1 + 1.183 * pow(u, 1.376));
  const double p13 = 1.695 * p10 / (0.414 + 1.605 * p10);
  const double p14 = 0.8928 + 0.1072 * (1 - exp(-0.42 * pow(fn / 20, 3.215)));
  const double p15 = std::abs(1 - 0.8928 * (1 + p11) * exp(-p13 * pow(g, 1.092)) * p12 / p14);
  const double fo = t.p1 * t.p2 * pow((t.p3 * t.p4 + 0.1844) * fn * p15, 1.5763);

  CoupledModes m;
  m.eps_eff_even = dispersed(er, s.eps_even, fe);
  m.eps_eff_odd = dispersed(er, s.eps_odd, fo);

  // Impedance dispersion: even mode, from the single line's εeff(f) and its exponent R17 (Q0).
  const double e0 = effective_permittivity_hj(u, er);
  const double ef = effective_permittivity_kj(u, er, f_ghz, h_mm);
  const double q0 = impedance_dispersion_exponent_kj(u, er, fn);
  const double q11 = 0.893 * (1 - 0.3 / (1 + 0.7 * (er - 1)));
  const double x20 = pow(fn / 20, 4.91);
  const double q12 = 2.121 * x20 / (1 + q11 * x20) * exp(-2.87 * g) * pow(g, 0.902);
  const double q13 = 1 + 0.038 * pow(er / 8, 5.1);
  const double e15 = pow(er / 15, 4);
  const double q14 = 1 + 1.203 * e15 / (1 + e15);
  const double q15 = 1.887 * exp(-1.5 * pow(g, 0.84)) * pow(g, q14) /
                     (1 + 0.41 * pow(fn / 15, 3) * pow(u, 2 / q13) / (0.125 + pow(u, 1.626 / q13)));
  const double q16 = q15 * (1 + 9 / (1 + 0.403 * pow(er - 1, 2)));
  const double q17 = 0.394 * (1 - exp(-1.47 * pow(u / 7, 0.672))) *
                     (1 - exp(-4.25 * pow(fn / 20, 1.87)));
  const double q18 = 0.61 * (1 - exp(-2.13 * pow(u / 8, 1.593))) / (1 + 6.544 * pow(g, 4.17));
  const double q19 = 0.21 * pow(g, 4) /
                     ((1 + 0.18 * pow(g, 4.9)) * (1 + 0.1 * u * u) * (1 + pow(fn / 24, 3)));
  const double q20 = q19 * (0.09 + 1 / (1 + 0.1 * pow(er - 1, 2.7)));
  const double q21 = std::abs(1 - 42.54 * pow(g, 0.133) * exp(-0.812 * g) * pow(u, 2.5) /
                                      (1 + 0.033 * pow(u, 2.5)));
  const double pe = 4.766 * exp(-3.228 * pow(u, 0.641));
  const double qe = 0.016 + pow(0.0514 * er * q21, 4.524);
  const double re = pow(fn / 28.843, 12);
  const double de = 5.086 * qe * re / (0.3838 + 0.386 * qe) * exp(-22.2 * pow(u, 1.92)) /
                    (1 + 1.2992 * re) * pow(er - 1, 6) / (1 + 10 * pow(er - 1, 6));
  const double ce = 1 +
                    1.275 * (1 - exp(-0.004625 * pe * pow(er, 1.674) * pow(fn / 18.365, 2.745))) -
                    q12 + q16 - q17 + q18 + q20;
  m.z0_even = s.z_even * pow((0.9408 * pow(ef, ce) - 0.9603) /
                                 ((0.9408 - de) * pow(e0, ce) - 0.9603), q0);

  // Odd mode, from the single line's Z0(f).
  const double zl = impedance_kj(u, er, f_ghz, h_mm);
  const double q29 = 15.16 / (1 + 0.196 * pow(er - 1, 2));
  const double e13 = pow((er - 1) / 13, 12);
  const double q26 = 30 - 22.2 * e13 / (1 + 3 * e13) - q29;
  const double q22 = 0.925 * pow(fn / q26, 1.536) / (1 + 0.3 * pow(fn / 30, 1.536));
  const double q27 = 0.4 * pow(g, 0.84) *
                     (1 + 2.5 * pow(er - 1, 1.5) / (5 + pow(er - 1, 1.5)));
  const double q23 = 1 + 0.005 * fn * q27 /
                             ((1 + 0.812 * pow(fn / 15, 1.9)) * (1 + 0.025 * u * u));
  const double q28 = 0.149 * pow(er - 1, 3) / (94.5 + 0.038 * pow(er - 1, 3));
  const double q24 = 2.506 * q28 * pow(u, 0.894) / (3.575 + pow(u, 0.894)) *
                     pow((1 + 1.3 * u) * fn / 99.25, 4.29);
  const double q25 = 0.3 * fn * fn / (10 + fn * fn) *
                     (1 + 2.333 * pow(er - 1, 2) / (5 + pow(er - 1, 2)));
  m.z0_odd = zl + (s.z_odd * pow(m.eps_eff_odd / s.eps_odd, q22) - zl * q23) /
                      (1 + q24 + pow(0.46 * g, 2.2) * q25);
  return m;
}

}  // namespace pmom::mom
