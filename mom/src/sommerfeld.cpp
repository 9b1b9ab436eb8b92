// Sommerfeld integration of the grounded-slab spectral functions: a deformed path above the
// branch point and the surface-wave poles, then the real axis with a weighted-averages tail
// (Michalski & Mosig 1997; Mosig & Gardiol).
#include <boost/math/special_functions/bessel.hpp>
#include <cmath>

#include "planarmom/mom/bessel.hpp"
#include "planarmom/mom/constants.hpp"
#include "spectral.hpp"

namespace pmom::mom {
namespace {

using cd = std::complex<double>;
// Double precision throughout: Boost would otherwise evaluate J0 in long double.
using NoPromotion = boost::math::policies::policy<boost::math::policies::promote_double<false>>;

}  // namespace

Pair sommerfeld(const SlabSpectrum& s, double rho, const PathOptions& p, const Pair& offset,
                const SingularCoefficients& c) {
  const bool extract = p.extraction == Extraction::quasi_static;
  auto spectral = [&](cd kr) { return extract ? s.remainder(kr) : s.exact(kr); };
  // Beyond the last surface-wave pole (all lie below √εr' k0) and the branch point k0.
  const double a = (std::sqrt(s.eps_real) + p.break_margin) * s.k0;
  const double d = p.height_factor * (rho > 0.0 ? std::min(s.k0, 1.0 / rho) : s.k0);
  // Without extraction G cancels to O(h²/ρ²) of its parts when h ≪ ρ, so ask less there.
  const double floor_factor = extract ? 1e-6 : 1e-3;
  Accuracy<2> acc{p.rel_tol, offset,
                  {floor_factor * std::abs(c.a) / (rho + s.h),
                   floor_factor * std::abs(c.v) / (rho + s.h)}};

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
    // No oscillation; k = a/σ maps [a, ∞) onto (0, 1], and the remainder (G̃ − G̃_qs = O(k⁻³))
    // times k·a/σ² tends to a constant as σ → 0.
    auto mapped = [&](double sigma) -> Pair {
      const Pair g = on_axis(a / sigma);
      const double jac = a / (sigma * sigma);
      return {g[0] * jac, g[1] * jac};
    };
    tail = integrate_adaptive<2>(mapped, 0.0, 1.0, tail_acc, 4);
  } else {
    // Envelope of the integrand: G̃ ~ kρ⁻¹ (none) or kρ⁻³ (extracted), times kρ·kρ^{−1/2}.
    const double alpha = extract ? 2.5 : 0.5;
    tail = integrate_tail<2>(on_axis, a, pi / rho, alpha, tail_acc);
  }
  return {path[0] + tail[0], path[1] + tail[1]};
}

}  // namespace pmom::mom
