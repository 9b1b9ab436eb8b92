// A stack's static part by real-axis transforms and its remainder along the deformed path
// (layered_greens.hpp).
#include "layered_greens.hpp"

#include <boost/math/special_functions/bessel.hpp>
#include <cmath>

#include "planarmom/mom/constants.hpp"
#include "planarmom/mom/quadrature.hpp"

namespace pmom::mom {
namespace {

using cd = std::complex<double>;
using NoPromotion =
    boost::math::policies::policy<boost::math::policies::promote_double<false>>;

// The accuracy asked of a piece of G: rel_tol of |offset + it|, with a floor of 1e-2 of the
// singular term at ρ + h. Far from a thin board G cancels to ~0, between two grounds it falls
// exponentially, and the static part's partial sums round at 1e-16 of c/ρ: an error of
// rel_tol·1e-2 c/ρ is that far below the entries of the cells near ρ.
Accuracy<2> accuracy(const LayeredSpectrum& s, double rho, double rel_tol, const Pair& offset) {
  const SingularCoefficients c = s.scale();
  const double reach = rho + s.height_below();
  return {rel_tol, offset, {1e-2 * std::abs(c.a) / reach, 1e-2 * std::abs(c.v) / reach}};
}

}  // namespace

Pair layered_static_smooth(const LayeredSpectrum& s, double rho, double rel_tol) {
  const SingularCoefficients c = s.singular();
  // (1/2π)(G̃_s k − 2πc) J0(kρ): c/ρ is (1/2π) ∫ 2πc J0(kρ) dk.
  auto integrand = [&](double k) -> Pair {
    const Pair g = s.static_part(cd(k, 0.0));
    const double j0 = rho == 0.0 ? 1.0 : boost::math::cyl_bessel_j(0, k * rho, NoPromotion());
    return {(g[0] * k / (2.0 * pi) - c.a) * j0, (g[1] * k / (2.0 * pi) - c.v) * j0};
  };
  // Past 25/d the excess is below e^{−50} of its start.
  const double end = 25.0 / s.thinnest();
  const Pair offset = rho > 0.0 ? Pair{c.a / rho, c.v / rho} : Pair{0.0, 0.0};
  const Accuracy<2> acc = accuracy(s, rho, rel_tol, offset);
  // Ten periods of J0 or fewer: one adaptive interval; else half-periods of J0, their partial
  // sums accelerated (quadrature.hpp).
  if (end * rho < 20.0 * pi) return integrate_adaptive<2>(integrand, 0.0, end, acc, 8);
  return integrate_tail<2>(integrand, 0.0, pi / rho, 0.5, acc, 2000);
}

Pair layered_remainder(const LayeredSpectrum& s, double rho, const PathOptions& p,
                       const Pair& offset) {
  return path_integral(s.path_scale(), rho, p, accuracy(s, rho, p.rel_tol, offset), 3.0,
                       [&](cd kr) { return s.remainder(kr); });
}

}  // namespace pmom::mom
