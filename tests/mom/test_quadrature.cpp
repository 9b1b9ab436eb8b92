// Adaptive Gauss–Kronrod and the weighted-averages tail on integrals known in closed form.
#include <gtest/gtest.h>

#include <boost/math/special_functions/bessel.hpp>
#include <cmath>
#include <complex>

#include "planarmom/mom/constants.hpp"
#include "planarmom/mom/quadrature.hpp"

namespace {

using pmom::mom::Accuracy;
using pmom::mom::CVec;

TEST(Quadrature, AdaptiveHandlesANearPole) {
  // ∫₀¹ 1/(x − x0) dx with x0 = 0.5 + 1e-3 j: log((1 − x0)/(−x0)).
  const std::complex<double> x0(0.5, 1e-3);
  const auto got = pmom::mom::integrate_adaptive<1>(
      [&](double x) { return CVec<1>{1.0 / (x - x0)}; }, 0.0, 1.0, Accuracy<1>{1e-12, {}, {}});
  const std::complex<double> expected = std::log((1.0 - x0) / (-x0));
  // Requested 1e-12 relative; the K15−G7 estimate is conservative, so the result is inside.
  EXPECT_LT(std::abs(got[0] - expected), 1e-12 * std::abs(expected));
}

// ∫₀^∞ J0(kρ) k (k² + c²)^{−3/2} dk = e^{−cρ}/c and ∫₀^∞ J0(kρ) k (k² + c²)^{−1/2} dk =
// e^{−cρ}/ρ (Gradshteyn & Ryzhik 6.554): envelopes k^{−2.5} and k^{−0.5}, the two cases the
// Green's functions meet (extracted and raw).
class TailTest : public ::testing::TestWithParam<double> {};

TEST_P(TailTest, WeightedAveragesReachKnownSommerfeldIntegrals) {
  const double rho = GetParam();
  const double c = 1.0;
  const double a = 3.0;
  for (const double power : {1.5, 0.5}) {
    auto f = [&](double k) {
      return CVec<1>{boost::math::cyl_bessel_j(0, k * rho) * k * std::pow(k * k + c * c, -power)};
    };
    const Accuracy<1> acc{1e-11, {}, {}};
    const auto head = pmom::mom::integrate_adaptive<1>(f, 0.0, a, acc);
    const auto tail =
        pmom::mom::integrate_tail<1>(f, a, pmom::mom::pi / rho, 2.0 * power - 0.5, acc);
    const double expected = std::exp(-c * rho) / (power == 1.5 ? c : rho);
    // 1e-9: requested 1e-11 per piece, with the extrapolation's own error on top.
    EXPECT_NEAR((head[0] + tail[0]).real(), expected, 1e-9 * expected) << "power " << power;
  }
}

INSTANTIATE_TEST_SUITE_P(Rho, TailTest, ::testing::Values(0.01, 0.3, 1.0, 5.0));

}  // namespace
