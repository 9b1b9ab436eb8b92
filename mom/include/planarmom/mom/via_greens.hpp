// The grounded slab's kernels for vias to ground (issue 37): a vertical current, uniform from
// the ground plane (z = 0) up to the strips (z = h) under one cell, carrying its current from
// the strip into the ground. Why uniform: the substrate is a small fraction of a wavelength
// thick (h √εr k0 ≪ 1), as a via's own closed forms assume too.
//
// Derivation (time convention e^{+jωt}, u0, u, D_TE, D_TM as in greens.hpp). In the slab a
// vertical current J_z = p(ρ) has the vector potential A_z alone (Sommerfeld's choice for
// vertical sources), A_z/μ and ∂zA_z/ε continuous at z = h and ∂zA_z = 0 on the ground; solving
// it and forming E = −jωA + ∇∇·A/(jωμε) gives, per unit via current, the reaction with a
// rooftop's charge D_m = ∇·f_m (from E_t at z = h) and with another via (from ∫₀ʰ E_z dz):
//   Z_vh = (1/(jω)) ⟨D_m, G_V p⟩ − ⟨D_m, K_vh p⟩,   Z_vv = (1/(jω)) ⟨p, G_V p⟩ + ⟨p, K_vv p⟩,
// i.e. the via's top acts on the surface as a charge of density p (the current leaving the
// strip), through the strips' own G_V, plus two kernels that the G_V part leaves over:
//   K̃_vh = jωμ0 (εr − 1) tanh(uh) / (u D_TE D_TM),
//   K̃_vv = jωμ0 [h/u² − tanh(uh)/D_TM · ((εr − 1)/(u D_TE) + εr u0/u³)].
// K̃_vh vanishes in a homogeneous medium (εr = 1: the via couples to the strips through its
// charge only); both are finite at u = 0 and fall like kρ⁻³ but for K̃_vv's h/u², the via's
// inductance: its transform is the parallel plate's (ωμ0h/4) H0⁽²⁾(k1ρ), logarithmic at ρ → 0.
// That part is taken out as jωμ0 h/(kρ² + κ²), κ = 1/h, whose transform jωμ0 h K0(κρ)/(2π) the
// cell integrals integrate themselves (via_border.hpp); the rest is smooth and tabulated.
//
// A ground of finite conductivity (greens.hpp): Leontovich's E_t = Zs ẑ × H on it gives
// ∂zA_z = b A_z at z = 0 (b = jωε0εr Zs, as the TM line's end), and the same steps, with the
// lossy G_V in Z_vh and Z_vv, give (th = tanh(uh), sech = 1/cosh(uh), q = u + b th, and uT, uC,
// D_TE, D_TM and the extra term X = u0 (uC·uT − u²)/kρ² of the lossy G̃_V, greens.hpp)
//   K̃_vh = jωμ0 [((εr − 1) uT + εr X)/(u² D_TE D_TM) − u0 b sech/(k0² u D_TM q)],
//   K̃_vv = jωμ0 [h/u² − ((εr − 1) uT + εr X)/(u² D_TE D_TM) − εr u0 uT/(u⁴ D_TM)]
//          + Zs kρ² (εr u0 (1 − 2 sech) + u th)/(q u³ D_TM),
// the perfect ground's for Zs = 0. The last term falls like Zs/kρ² only: the ground's
// scalar potential −Zs A_z/μ0 under the via's foot, the spreading impedance of its current into
// the ground, logarithmic at ρ → 0 as the via's inductance is, so it is taken out with it:
// (jωμ0 h + Zs)/(kρ² + κ²). The via's barrel, of the same metal, adds its own surface
// impedance Zs h/(π d) per ampere² of the via's current (via_border.hpp).
// Both kernels are integrated on the Green's functions' path (spectral.hpp) and sampled on
// GreensTable's grid in ξ, interpolated by the same 4-point Lagrange polynomials.
#pragma once

#include <complex>
#include <vector>

#include "planarmom/mom/greens.hpp"
#include "planarmom/mom/greens_table.hpp"

namespace pmom::mom {

class ViaKernels {
 public:
  // Throws std::invalid_argument as GreensTable does for a bad slab, frequency or ρmax.
  ViaKernels(const Slab& slab, double frequency_hz, double rho_max_m,
             const TableOptions& options = {});

  // K_vh(ρ), 0 ≤ ρ ≤ rho_max() (Ω).
  [[nodiscard]] std::complex<double> coupling(double rho) const;
  // K_vv(ρ) − log_coefficient()·K0(ρ/log_scale()), 0 ≤ ρ ≤ rho_max().
  [[nodiscard]] std::complex<double> self_smooth(double rho) const;
  // (jωμ0 h + Zs)/(2π) and 1/κ = h of the part taken out of K_vv.
  [[nodiscard]] std::complex<double> log_coefficient() const { return log_coefficient_; }
  // Zs of the ground and the vias' barrels (Ω; 0 for a perfect ground).
  [[nodiscard]] std::complex<double> surface_impedance() const { return surface_impedance_; }
  [[nodiscard]] double height() const { return height_; }
  [[nodiscard]] double log_scale() const { return height_; }

  [[nodiscard]] double rho_max() const { return rho_max_; }
  [[nodiscard]] double frequency() const { return frequency_; }
  // The sample abscissae (ρ_0 = 0 < ρ_1 < … = ρmax), e.g. to check between them.
  [[nodiscard]] const std::vector<double>& sample_rho() const { return rho_; }

  // The same by direct integration, without the table (the table's check).
  static std::complex<double> coupling_direct(const Slab& slab, double frequency_hz, double rho,
                                              const PathOptions& path = {});
  static std::complex<double> self_smooth_direct(const Slab& slab, double frequency_hz,
                                                 double rho, const PathOptions& path = {});

 private:
  [[nodiscard]] double position(double rho) const;

  double frequency_, rho_max_, height_;
  double scale_rho_, inv_length_, step_;
  std::complex<double> log_coefficient_, surface_impedance_;
  std::vector<double> rho_;
  std::vector<std::complex<double>> pairs_;  // (K_vh, K_vv smooth) at rho_
};

}  // namespace pmom::mom
