// ViaKernels (via_greens.hpp): the via-via kernel against its closed form where there is one
// (no dielectric: the via and its image, statically), the table against direct integration,
// and the path's independence of its shape (the poles and the branch point avoided, not hit).
#include <gtest/gtest.h>

#include <boost/math/special_functions/bessel.hpp>
#include <cmath>
#include <complex>

#include "planarmom/mom/constants.hpp"
#include "planarmom/mom/via_greens.hpp"

namespace {

using namespace pmom::mom;
using cd = std::complex<double>;

// K_vv in full: the tabulated smooth part plus the logarithmic part taken out.
cd via_via(const ViaKernels& k, double rho) {
  return k.self_smooth(rho) +
         k.log_coefficient() * boost::math::cyl_bessel_k(0, rho / k.log_scale());
}

// ∫₀ʰ dz ∫₋ₕʰ dz' 1/√(ρ² + (z − z')²): a via of height h and its image in the ground, by the
// antiderivative g(s) = s asinh(s/ρ) − √(ρ² + s²) of ∫∫ ds ds.
double via_and_image(double rho, double h) {
  const auto g = [rho](double s) { return s * std::asinh(s / rho) - std::hypot(rho, s); };
  // ∫₀ʰ dz [G(z + h) − G(z − h)] with G' = asinh: ∫∫ = g(2h) − g(h) − g(0) + g(−h).
  return g(2.0 * h) - g(h) - g(0.0) + g(-h);
}

TEST(ViaKernels, WithoutDielectricTheViaViaKernelIsTheViaAndItsImage) {
  // εr = 1: the via's top charge is all of its scalar part (taken out as G_V), so what is left
  // is the vector potential of the via and its image, jω μ0/(4π) ∫∫ e^{−jk0R}/R dz dz'. At
  // 10 MHz e^{−jk0R}/R = 1/R − jk0 + O(k0² R): the static integral and the radiation's constant
  // −jk0·2h², the rest (k0R)²/2 ≤ 3e-7 of the whole out to 3 mm; the bar is the table's
  // accuracy.
  const Slab air{1.0, 0.0, 1.6e-3};
  const double f = 1e7;
  const ViaKernels k(air, f, 0.05);
  const cd jwmu(0.0, 2.0 * pi * f * mu0);
  const double k0 = 2.0 * pi * f / c0, h = air.height_m;
  // Within ρ ≈ 0.1 h the table's cubic meets K_vv's ρ² ln ρ (InterpolationMeets… below): 1e-5.
  for (const double rho : {0.05e-3, 0.2e-3, 0.8e-3, 3e-3}) {
    const cd expected = jwmu / (4.0 * pi) * (via_and_image(rho, h) - cd(0.0, k0 * 2.0 * h * h));
    EXPECT_LT(std::abs(via_via(k, rho) - expected), (rho < 0.1 * h ? 1e-5 : 1e-6) * std::abs(expected))
        << "rho " << rho;
    EXPECT_LT(std::abs(k.coupling(rho)), 1e-12 * std::abs(expected)) << "no dielectric, no K_vh";
  }
}

struct Board {
  Slab slab;
  double f;
};

class ViaTable : public ::testing::TestWithParam<Board> {};

TEST_P(ViaTable, InterpolationMeetsTheTablesAccuracyBetweenSamples) {
  // Midway between samples, where 4-point interpolation errs most, against direct integration;
  // relative to the kernels' size at ρ = 0 (the 1e-6 the Green's table keeps, with a margin for
  // the integration's own 1e-10 per sample). In its first three intervals (ρ ≤ ~0.1 h, far
  // inside any cell) K_vv's ρ² ln ρ term leaves the cubic 2.5e-5 (RO4003): 1e-4 there.
  const Board& b = GetParam();
  const double rho_max = 0.06;
  const ViaKernels k(b.slab, b.f, rho_max);
  const std::vector<double>& rho = k.sample_rho();
  const double scale_vh = std::abs(k.coupling(0.0)), scale_vv = std::abs(k.self_smooth(0.0));
  double worst_vh = 0, worst_vv = 0, first_vv = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    const double mid = 0.5 * (rho[i] + rho[i + 1]);
    first_vv = std::max(first_vv, std::abs(k.self_smooth(mid) -
                                           ViaKernels::self_smooth_direct(b.slab, b.f, mid)) /
                                      scale_vv);
  }
  for (std::size_t i = 3; i + 1 < rho.size(); i += 7) {
    const double mid = 0.5 * (rho[i] + rho[i + 1]);
    worst_vh = std::max(worst_vh, std::abs(k.coupling(mid) -
                                           ViaKernels::coupling_direct(b.slab, b.f, mid)) /
                                      scale_vh);
    worst_vv = std::max(worst_vv, std::abs(k.self_smooth(mid) -
                                           ViaKernels::self_smooth_direct(b.slab, b.f, mid)) /
                                      scale_vv);
  }
  RecordProperty("samples", std::to_string(rho.size()));
  EXPECT_LT(worst_vh, 2e-6);
  EXPECT_LT(worst_vv, 2e-6);
  EXPECT_LT(first_vv, 1e-4);
}

TEST_P(ViaTable, TheIntegralsDoNotDependOnThePathsShape) {
  // Another path shape and height over the poles and the branch point: the same integrals to
  // the integration's tolerance.
  const Board& b = GetParam();
  PathOptions other;
  other.shape = PathShape::semi_ellipse;
  other.height_factor = 0.5;
  for (const double rho : {0.0, 0.3e-3, 4e-3, 40e-3}) {
    const cd vh = ViaKernels::coupling_direct(b.slab, b.f, rho);
    const cd vv = ViaKernels::self_smooth_direct(b.slab, b.f, rho);
    EXPECT_LT(std::abs(ViaKernels::coupling_direct(b.slab, b.f, rho, other) - vh),
              1e-8 * std::abs(vh) + 1e-12) << rho;
    EXPECT_LT(std::abs(ViaKernels::self_smooth_direct(b.slab, b.f, rho, other) - vv),
              1e-8 * std::abs(vv) + 1e-12) << rho;
  }
}

INSTANTIATE_TEST_SUITE_P(Boards, ViaTable,
                         ::testing::Values(Board{{3.38, 0.0027, 0.508e-3}, 3e9},
                                           Board{{4.4, 0.02, 1.6e-3}, 2.4e9},
                                           Board{{10.2, 0.0, 0.635e-3}, 10e9}));

TEST(ViaKernels, ALossyGroundIsRefusedSayingWhy) {
  Slab lossy{3.38, 0.0, 0.508e-3};
  lossy.ground = {5.8e7, 35e-6};
  try {
    (void)ViaKernels(lossy, 1e9, 0.01);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("perfect ground"), std::string::npos) << e.what();
  }
}

}  // namespace
