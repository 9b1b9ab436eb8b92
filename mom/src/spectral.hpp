// Spectral-domain Green's functions of the grounded slab, their quasi-static part and the
// Sommerfeld integration (private to the mom module).
#pragma once

#include <boost/math/special_functions/bessel.hpp>
#include <cmath>
#include <complex>

#include "planarmom/mom/bessel.hpp"
#include "planarmom/mom/constants.hpp"
#include "planarmom/mom/greens.hpp"
#include "planarmom/mom/quadrature.hpp"

namespace pmom::mom {

// Components: [0] = A (vector potential), [1] = V (scalar potential).
using Pair = CVec<2>;

// The slab's TE and TM lines at one kρ, seen from the interface down to the ground (greens.hpp):
// u C = u + cx and u T = u − tx (u coth(uh) and u tanh(uh) on a perfect ground) and the lossy
// ground's extra term u0 (uC·uT − u²)/kρ² of G̃_V's numerator (0 on a perfect ground).
struct SlabLines {
  std::complex<double> u0, u, cx, tx, extra;
  [[nodiscard]] std::complex<double> u_c() const { return u + cx; }
  [[nodiscard]] std::complex<double> u_t() const { return u - tx; }
};

// What places the path: the free-space wavenumber and the largest εr' of the board, under whose
// √εr' k0 lie all its surface-wave poles and branch points.
struct PathScale {
  double k0;
  double eps_real;
};

struct SlabSpectrum {
  std::complex<double> eps;  // complex εr
  double k0;                 // free-space wavenumber, rad/m
  double h;                  // slab thickness, m
  double eps_real;           // εr', which bounds the surface-wave poles by √εr' k0
  // A lossy ground's a = Zs/(jωμ0) (m) and b = jω ε0 εr Zs (1/m), greens.hpp; 0 for PEC.
  std::complex<double> ground_a = 0.0, ground_b = 0.0;

  // u0, u, uC, uT and the extra term at (complex) kρ ≠ 0.
  SlabLines lines(std::complex<double> kr) const;
  [[nodiscard]] PathScale path_scale() const { return {k0, eps_real}; }
  // G̃_A, G̃_V at (complex) kρ.
  Pair exact(std::complex<double> kr) const;
  // G̃ − G̃_qs, where G̃_qs is G̃ with u replaced by u0, written so that nothing cancels
  // for large kρ (there the remainder is O(k0²/kρ³) against O(1/kρ) terms).
  Pair remainder(std::complex<double> kr) const;
};

// Validates the slab and the frequency (std::invalid_argument).
SlabSpectrum slab_spectrum(const Slab& slab, double frequency_hz);
void check_path(const PathOptions& p);

// (1/2π) ∫ (G̃ − G̃_qs, or G̃ with Extraction::none) J0(kρ ρ) kρ dkρ, accurate to p.rel_tol of
// |offset + result| (offset: what the caller adds to it); ρ = 0 allowed with extraction.
Pair sommerfeld(const SlabSpectrum& s, double rho, const PathOptions& p, const Pair& offset,
                const SingularCoefficients& c);

// (1/2π) ∫₀^∞ F(kρ) J0(kρ ρ) kρ dkρ of a pair of spectral functions F (cd → Pair) with the
// board's poles and branch points (all below √εr' k0): the deformed path of p.shape above them,
// then the real axis. decay: F ~ kρ^{−decay} for large kρ (at ρ = 0 the tail needs decay ≥ 3);
// acc: the accuracy asked of each component. What sommerfeld and the vias' kernels
// (via_greens.hpp) integrate.
template <class F>
Pair path_integral(const PathScale& s, double rho, const PathOptions& p, const Accuracy<2>& acc,
                   double decay, F&& spectral);

// The vias' spectral kernels at kρ ≠ 0: K̃_vh and K̃_vv − (jωμ0 h + Zs)/(kρ² + κ²), κ = 1/h
// (via_greens.hpp), what ViaKernels integrates.
Pair via_spectrum(const SlabSpectrum& s, std::complex<double> kr);

// Closed-form transform of G̃_qs minus its 1/ρ singularity c/ρ; finite at ρ = 0.
Pair quasi_static_smooth(const SlabSpectrum& s, double rho);

template <class F>
Pair path_integral(const PathScale& s, double rho, const PathOptions& p, const Accuracy<2>& acc,
                   double decay, F&& spectral) {
  using cd = std::complex<double>;
  // Double precision throughout: Boost would otherwise evaluate J0 in long double.
  using NoPromotion =
      boost::math::policies::policy<boost::math::policies::promote_double<false>>;
  // Beyond the last surface-wave pole (all lie below √εr' k0) and the branch point k0.
  const double a = (std::sqrt(s.eps_real) + p.break_margin) * s.k0;
  const double d = p.height_factor * (rho > 0.0 ? std::min(s.k0, 1.0 / rho) : s.k0);
  const bool half_sine = p.shape == PathShape::half_sine;
  auto on_path = [&](double t) -> Pair {
    cd kr, dk;
    if (half_sine) {
      kr = cd(t, d * std::sin(pi * t / a));
      dk = cd(1.0, d * pi / a * std::cos(pi * t / a));
    } else {
      kr = cd(0.5 * a * (1.0 - std::cos(t)), d * std::sin(t));
      dk = cd(0.5 * a * std::sin(t), d * std::cos(t));
    }
    const cd w = bessel_j0(kr * rho) * kr * dk / (2.0 * pi);
    const Pair g = spectral(kr);
    return {g[0] * w, g[1] * w};
  };
  // Eight starting panels so that the adaptive refinement sees the pole/branch region.
  const Pair path = integrate_adaptive<2>(on_path, 0.0, half_sine ? a : pi, acc, 8);

  Accuracy<2> tail_acc = acc;
  for (int i = 0; i < 2; ++i) tail_acc.offset[i] += path[i];
  auto on_axis = [&](double k) -> Pair {
    const double w = boost::math::cyl_bessel_j(0, k * rho, NoPromotion()) * k / (2.0 * pi);
    const Pair g = spectral(cd(k, 0.0));
    return {g[0] * w, g[1] * w};
  };
  Pair tail;
  if (rho == 0.0) {
    // No oscillation; k = a/σ maps [a, ∞) onto (0, 1], and F·k·a/σ² = O(σ^{decay − 3}) stays
    // finite as σ → 0.
    auto mapped = [&](double sigma) -> Pair {
      const Pair g = on_axis(a / sigma);
      const double jac = a / (sigma * sigma);
      return {g[0] * jac, g[1] * jac};
    };
    tail = integrate_adaptive<2>(mapped, 0.0, 1.0, tail_acc, 4);
  } else {
    // Envelope of the integrand: kρ^{−decay} times kρ·kρ^{−1/2}.
    tail = integrate_tail<2>(on_axis, a, pi / rho, decay - 0.5, tail_acc);
  }
  return {path[0] + tail[0], path[1] + tail[1]};
}

}  // namespace pmom::mom
