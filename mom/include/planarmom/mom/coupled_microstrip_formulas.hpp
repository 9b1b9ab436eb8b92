// Closed-form references for a symmetric pair of coupled microstrip lines (width W, gap S, on εr
// and height h, zero thickness): Kirschning and Jansen, "Accurate wide-range design equations for
// the frequency-dependent characteristic of parallel coupled microstrip lines", IEEE Trans. MTT-32
// (1984) 83-90, with their corrections (MTT-33, 1985, 288). What the MoM's coupled-pair check
// (line_characterisation.hpp) is compared with.
#pragma once

namespace pmom::mom {

// Even- and odd-mode effective permittivity and characteristic impedance (ohm, per strip: the
// voltage of one strip to ground over its current).
struct CoupledModes {
  double eps_eff_even = 0, eps_eff_odd = 0;
  double z0_even = 0, z0_odd = 0;
};

// At frequency f_ghz (0: the static values) for u = W/h and g = S/h on a substrate of height
// h_mm. Their stated range: 0.1 ≤ u ≤ 10, 0.1 ≤ g ≤ 10, 1 ≤ εr ≤ 18; accuracy: static
// impedances 0.6%, εeff(f) 1.4% up to f·h = 25 GHz·mm, Z0(f) 2.5% up to f·h = 20 GHz·mm. Far
// apart (g → ∞) both modes become the single line of microstrip_formulas.hpp. Throws
// std::invalid_argument for u or g not > 0, εr < 1, f < 0 or h not > 0.
CoupledModes coupled_microstrip_kj(double u, double g, double eps_r, double f_ghz, double h_mm);

}  // namespace pmom::mom
