// J0 of complex argument against Boost on the real axis and against Bessel's integral off it.
#include <gtest/gtest.h>

#include <boost/math/special_functions/bessel.hpp>
#include <cmath>
#include <complex>

#include "planarmom/mom/bessel.hpp"
#include "planarmom/mom/constants.hpp"

namespace {

using cd = std::complex<double>;
using pmom::mom::bessel_j0;

// Bessel's integral J0(z) = (1/π) ∫₀^π cos(z sin θ) dθ by the trapezoidal rule, which converges
// geometrically for this periodic analytic integrand (error ~ |J_2M(z)|, negligible for
// M = 400 ≫ |z| ≤ 60).
cd bessel_integral(cd z) {
  constexpr int m = 400;
  cd sum = 0.5 * (1.0 + 1.0);  // cos(0) at both ends
  for (int i = 1; i < m; ++i) sum += std::cos(z * std::sin(pmom::mom::pi * i / m));
  return sum / static_cast<double>(m);
}

TEST(BesselJ0, MatchesBoostOnTheRealAxis) {
  // 1e-14 absolute (|J0| ≤ 1): the brief's target; a few ulps of the O(1) terms that the
  // Miller normalisation sums, well inside it.
  for (double x = 0.0; x <= 80.0; x += 0.01)
    ASSERT_NEAR(bessel_j0(cd(x, 0.0)).real(), boost::math::cyl_bessel_j(0, x), 1e-14) << x;
}

TEST(BesselJ0, IsImaginaryAxisI0) {
  // J0(jy) = I0(y); 1e-14 relative, I0 has no zeros to spoil relative accuracy.
  for (double y = 0.0; y <= 6.0; y += 0.05) {
    const double i0 = boost::math::cyl_bessel_i(0, y);
    EXPECT_NEAR(bessel_j0(cd(0.0, y)).real(), i0, 1e-14 * i0) << y;
    EXPECT_NEAR(bessel_j0(cd(0.0, y)).imag(), 0.0, 1e-14 * i0) << y;
  }
}

TEST(BesselJ0, MatchesBesselIntegralOffTheAxis) {
  // The Sommerfeld paths keep |Im z| ≤ 1 (height ≤ 1/ρ); 1e-13 absolute allows for the
  // integrand's own size cosh(Im z) and the rounding of M = 400 terms.
  for (double y : {0.05, 0.3, 1.0, 2.0})
    for (double x = 0.0; x <= 60.0; x += 0.07) {
      const cd z(x, y);
      const cd expected = bessel_integral(z);
      EXPECT_LT(std::abs(bessel_j0(z) - expected), 1e-13 * std::max(1.0, std::abs(expected)))
          << z;
    }
}

}  // namespace
