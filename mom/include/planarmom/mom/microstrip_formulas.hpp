// Closed-form microstrip line formulas: the independent references the MoM results are checked
// against. Hammerstad & Jensen (IEEE MTT-S Digest 1980) for the static effective permittivity
// and characteristic impedance of a zero-thickness strip, Kirschning & Jansen (Electronics
// Letters 18(6), 1982) for the dispersion of the effective permittivity.
#pragma once

#include "planarmom/mom/constants.hpp"

namespace pmom::mom {

// Free-space wave impedance μ0·c0, ohm.
inline constexpr double eta0_ohm = mu0 * c0;

// Static effective permittivity for width/height u = W/h and substrate permittivity eps_r.
// Hammerstad-Jensen's stated accuracy: 0.2% for 0.01 ≤ u ≤ 100 and 1 ≤ εr ≤ 128.
double effective_permittivity_hj(double u, double eps_r);

// Characteristic impedance of the strip in air (εr = 1), ohm; 0.01% for u ≤ 1000.
double impedance_air_hj(double u);

// Characteristic impedance on the substrate, ohm: Z01(u) / sqrt(εeff(u, εr)).
double impedance_hj(double u, double eps_r);

// Width-to-height ratio giving the impedance `z0_ohm` (inverts impedance_hj by bisection
// over 0.01 ≤ u ≤ 100, to 1e-12 relative in u). Throws std::invalid_argument outside the
// impedances that range covers.
double width_for_impedance_hj(double z0_ohm, double eps_r);

// Effective permittivity at frequency f_ghz on a substrate of height h_mm, from its static
// value, per Kirschning-Jansen: accurate to 0.6% for 0.1 ≤ u ≤ 100, 1 ≤ εr ≤ 20 and
// f·h ≤ 25 GHz·mm.
double effective_permittivity_kj(double u, double eps_r, double f_ghz, double h_mm);
// Its terms P1..P4 at the normalised frequency fn = f·h (GHz·mm), which the coupled lines'
// dispersion shares (coupled_microstrip_formulas.hpp): P(f) = P1 P2 ((0.1844 + P3 P4) fn)^1.5763.
struct KjDispersionTerms {
  double p1, p2, p3, p4;
};
KjDispersionTerms kj_dispersion_terms(double u, double eps_r, double fn);

// Characteristic impedance at frequency f_ghz, per Jansen and Kirschning (AEÜ 37, 1983, the
// power-current impedance): Z0(0)·(R13/R14)^R17 from the static Hammerstad-Jensen values and
// KJ's εeff(f); for 0.1 ≤ u ≤ 10, 1 ≤ εr ≤ 18 and h/λ0 ≤ 0.1.
double impedance_kj(double u, double eps_r, double f_ghz, double h_mm);
// Its exponent R17 at fn = f·h (GHz·mm), which the coupled lines' even mode shares (their Q0).
double impedance_dispersion_exponent_kj(double u, double eps_r, double fn);

// Characteristic impedance at a frequency where the line's effective permittivity is
// eps_eff_f, per Hammerstad and Jensen (1980): Z0(0)·√(εeff(0)/εeff(f))·(εeff(f) − 1)/(εeff(0) − 1),
// with Z0(0) and εeff(0) their static values; it rises with frequency as the fields draw into
// the substrate. εr = 1 (no dispersion): the static impedance.
double impedance_dispersive_hj(double u, double eps_r, double eps_eff_f);

// Losses, in Np/m (× 20/ln 10 = 8.686 for dB/m).
// Dielectric (Pozar, Microwave Engineering, eq. 3.198): the filling factor of the substrate,
// α_d = k0 εr (εeff − 1) tanδ / (2 √εeff (εr − 1)); εeff at the frequency (εr = 1: 0).
double attenuation_dielectric(double eps_r, double eps_eff, double loss_tangent, double f_hz);
// Air impedance of a strip of thickness t (Hammerstad-Jensen's correction): Z01(u + Δu),
// Δu = (t/π) ln(1 + 4e / (t coth²√(6.517 u))), t normalised to h (t = 0: impedance_air_hj).
double impedance_air_thick_hj(double u, double t_over_h);
// Conductor (strip and ground), Hammerstad and Jensen's formula (as circuit simulators use
// it): α_c = Rs/(Z0 W) · exp(−1.2 (Z0/η0)^0.7), the exponential their current-distribution
// factor; Rs = 1/(σδ) the surface resistance, z0_ohm the line's impedance; for t > 3δ.
double attenuation_conductor_hj(double w_mm, double z0_ohm, double rs_ohm);
// The same by Wheeler's incremental-inductance rule on impedance_air_thick_hj:
// R = (Rs/η0) dZ0a/dn with every conductor face receding by n (W − 2n, t − 2n, h + 2n), and
// α_c = R / (2 Z0): the route Pucel et al. (1968) took to their closed forms.
double attenuation_conductor_wheeler(double w_mm, double h_mm, double t_mm, double z0_ohm,
                                     double rs_ohm);

}  // namespace pmom::mom
