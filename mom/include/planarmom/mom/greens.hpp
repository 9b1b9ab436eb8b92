// Mixed-potential Green's functions G_A, G_V of a grounded dielectric slab for horizontal
// currents with source and observer on the air–dielectric interface (DESIGN §5).
//
// Time convention e^{+jωt}. Slab: εr = εr'(1 − j tanδ), thickness h, PEC ground at z = 0 (or
// one of finite conductivity, below), air above. With u0 = √(kρ² − k0²), u = √(kρ² − εr k0²) (Re ≥ 0; u0 = j√(k0² − kρ²) for
// real kρ < k0):
//   D_TE = u0 + u coth(uh),  D_TM = εr u0 + u tanh(uh),
//   G̃_A = μ0 / D_TE,         G̃_V = (u0 + u tanh(uh)) / (ε0 D_TE D_TM),
//   G(ρ) = (1/2π) ∫₀^∞ G̃(kρ) J0(kρ ρ) kρ dkρ.
// The quasi-static part (the spectral functions with u → u0) is extracted and transformed in
// closed form (Sommerfeld identity ∫ e^{−u0 z} J0 kρ/u0 dkρ = e^{−jk0R}/R):
//   G_A,qs = μ0/(4π) [e^{−jk0ρ}/ρ − e^{−jk0R1}/R1],
//   G_V,qs = 1/(2π ε0 (1+εr)) [e^{−jk0ρ}/ρ + (K−1) Σ_{n≥1} K^{n−1} e^{−jk0Rn}/Rn],
//   K = (1−εr)/(1+εr),  Rn = √(ρ² + (2nh)²);
// the remainder decays like kρ^{−3} and is integrated numerically along a path above the
// branch point k0 and the surface-wave poles (Mosig & Gardiol; Michalski & Mosig, IEEE TAP
// 45(3), 1997), its tail by weighted averages (quadrature.hpp).
//
// A ground of finite conductivity (Slab::ground, surface_impedance.hpp): the substrate's TE and
// TM lines end in its surface impedance Zs instead of a short, which turns u coth(uh) and
// u tanh(uh) into
//   u C = (u coth(uh) + a u²)/(1 + a u coth(uh)),  a = Zs/(jωμ0),
//   u T = (u tanh(uh) + b)/(1 + b tanh(uh)/u),     b = jω ε0 εr Zs,
// and, as u C · u T ≠ u² then, G̃_V = (u0 + u T + u0 (uC·uT − u²)/kρ²)/(ε0 D_TE D_TM) (from
// G̃_V = jω (V_TM − V_TE)/kρ², Michalski & Zheng's formulation C, which the PEC form is the case
// uC·uT = u² of; at kρ = 0 both lines see the same Zs and the extra term is finite). The
// changes fall like e^{−2uh} for large kρ, where the fields do not reach the ground, so the
// quasi-static part (PEC images) and its closed form stay as they are.
//
// Singular/smooth split for the assembly: G(ρ) = c/ρ + smooth(ρ), with c_A = μ0/(4π) and
// c_V = 1/(2π ε0 (1+εr)); smooth(ρ) is finite and continuous at ρ = 0, so the 1/R part can be
// integrated analytically over cells. SI units throughout (metres, Hz); G_A in H/m, G_V in
// 1/F·m⁻¹ (volts per coulomb).
#pragma once

#include <complex>

#include "planarmom/mom/surface_impedance.hpp"

namespace pmom::mom {

struct Slab {
  double eps_r = 1.0;         // real part εr' ≥ 1
  double loss_tangent = 0.0;  // tanδ ≥ 0
  double height_m = 1e-3;     // h > 0
  Conductor ground{};         // perfect by default
};

// Throws std::invalid_argument naming the offending field.
void validate(const Slab& slab);
// εr'(1 − j tanδ).
std::complex<double> complex_permittivity(const Slab& slab);

struct GreensValues {
  std::complex<double> g_a;  // vector potential, H/m
  std::complex<double> g_v;  // scalar potential, m/F
};

// Deformed part of the path, from 0 to a = (√εr' + break_margin) k0, above the real axis
// with height d = height_factor · min(k0, 1/ρ) (bounds J0's growth e^{dρ} by e):
// half_sine: kρ = t + j d sin(πt/a); semi_ellipse: kρ = a(1 − cos t)/2 + j d sin t.
// Beyond a the path is the real axis.
enum class PathShape { half_sine, semi_ellipse };
// quasi_static: integrate only the remainder after the closed-form extraction (default);
// none: integrate the full spectral functions (a check of the extraction; needs ρ > 0).
enum class Extraction { quasi_static, none };

struct PathOptions {
  PathShape shape = PathShape::half_sine;
  double height_factor = 1.0;
  double break_margin = 1.0;
  double rel_tol = 1e-10;  // relative to |G| (per component)
  Extraction extraction = Extraction::quasi_static;
};

// c in G = c/ρ + smooth(ρ).
struct SingularCoefficients {
  std::complex<double> a;  // μ0/(4π)
  std::complex<double> v;  // 1/(2π ε0 (1+εr))
};
SingularCoefficients singular_coefficients(const Slab& slab);

// G_A(ρ), G_V(ρ) by direct Sommerfeld integration; ρ > 0.
GreensValues greens_direct(const Slab& slab, double frequency_hz, double rho_m,
                           const PathOptions& path = {});
// G(ρ) − c/ρ; ρ ≥ 0.
GreensValues greens_smooth_direct(const Slab& slab, double frequency_hz, double rho_m,
                                  const PathOptions& path = {});

}  // namespace pmom::mom
