// ViaKernels (via_greens.hpp): the via-via kernel against its closed form where there is one
// (no dielectric: the via and its image, statically), their spectra against the slab's fields
// solved directly (a lossy ground too), the table against direct integration, and the path's
// independence of its shape (the poles and the branch point avoided, not hit).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <boost/math/special_functions/bessel.hpp>
#include <cmath>
#include <complex>
#include <cstdio>

#include "planarmom/mom/constants.hpp"
#include "planarmom/mom/via_greens.hpp"
#include "spectral.hpp"  // mom/src: the kernels' spectra against the fields they come from

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

// The via's fields by the slab's boundary-value problem itself, at one kρ: A_z = P + C1 cosh(uz)
// + C2 sinh(uz) in the slab (P = μ0/u², the particular solution of a unit upward J̃_z),
// B e^{−u0(z−h)} above; ∂zA_z = b A_z on the ground (Leontovich), A_z and ∂zA_z/εr continuous at
// h: three equations solved as they stand. Returns what the via's kernels must equal by their
// definition (via_greens.hpp): K̃_vh = G̃_V/(jω) + ψ̃ with ψ̃ = ∂zA_z(h)/(jωμ0ε0εr), and
// K̃_vv = −∫₀ʰ Ẽ_z dz − G̃_V/(jω) less the part taken out, (jωμ0h + Zs)/(kρ² + κ²).
Pair via_kernels_by_the_fields(const SlabSpectrum& s, cd kr) {
  const cd u0 = std::sqrt(kr * kr - s.k0 * s.k0), u = std::sqrt(kr * kr - s.eps * s.k0 * s.k0);
  const double h = s.h, w = s.k0 * c0;
  const cd jw(0.0, w), b = s.ground_b, p = mu0 / (u * u);
  const cd ch = std::cosh(u * h), sh = std::sinh(u * h);
  Eigen::Matrix3cd m;
  Eigen::Vector3cd rhs;
  m << -b, u, 0.0, ch, sh, -1.0, u * sh / s.eps, u * ch / s.eps, u0;
  rhs << b * p, -p, 0.0;
  const Eigen::Vector3cd c = m.partialPivLu().solve(rhs);
  const cd d_top = u * (c(0) * sh + c(1) * ch), d_bottom = u * c(1);
  const cd integral_a = p * h + c(0) * sh / u + c(1) * (ch - 1.0) / u;
  const cd eps1 = eps0 * s.eps;
  const cd integral_ez = -jw * integral_a + (d_top - d_bottom) / (jw * mu0 * eps1);
  const cd g_v = s.exact(kr)[1];
  const cd zs = b / (jw * eps1);
  const cd taken_out = (jw * mu0 * h + zs) / (kr * kr + 1.0 / (h * h));
  return {g_v / jw + d_top / (jw * mu0 * eps1), -integral_ez - g_v / jw - taken_out};
}

TEST(ViaKernels, TheirSpectraSolveTheSlabsBoundaryValueProblem) {
  // On a perfect and on a lossy ground (copper, and a resistive one of 1e4 S/m to make the
  // ground's terms large), at kρ below, between and beyond the branch points, on and off the real
  // axis: the kernels' closed forms against the fields solved directly. Where uh ≤ 6 the 3 × 3
  // system loses no more than a few digits: 1e-9 of the kernels; and the lossy ground's change
  // (lossy less perfect) to 1e-6 of itself, so that a slip in an O(Zs) term shows, where the
  // direct solution resolves it (at kρ = 10/h the copper ground's change to K̃_vh is e^{−20}
  // of it, below the direct solution's 1e-9).
  for (const double sigma : {0.0, 5.8e7, 1e4}) {
    Slab slab{3.38, 0.0027, 0.508e-3};
    if (sigma > 0) slab.ground = {sigma, 1e-3};
    Slab perfect = slab;
    perfect.ground = {};
    for (const double f : {1e9, 10e9}) {
      const SlabSpectrum s = slab_spectrum(slab, f), s_pec = slab_spectrum(perfect, f);
      const double k1 = std::sqrt(slab.eps_r) * s.k0;
      for (const cd kr : {cd(0.5 * s.k0, 0.0), cd(1.4 * s.k0, 0.1 * s.k0), cd(1.2 * k1, 0.0),
                          cd(5.0 * k1, 0.3 * k1), cd(2.0 / slab.height_m, 0.0),
                          cd(10.0 / slab.height_m, 0.0)}) {
        const Pair code = via_spectrum(s, kr), fields = via_kernels_by_the_fields(s, kr);
        for (int i = 0; i < 2; ++i)
          EXPECT_LT(std::abs(code[i] - fields[i]), 1e-9 * std::abs(fields[i]))
              << "sigma " << sigma << " f " << f << " kr " << kr << " kernel " << i;
        if (sigma == 0) continue;
        const Pair code_pec = via_spectrum(s_pec, kr);
        const Pair fields_pec = via_kernels_by_the_fields(s_pec, kr);
        for (int i = 0; i < 2; ++i) {
          const cd change = fields[i] - fields_pec[i];
          EXPECT_LT(std::abs(code[i] - code_pec[i] - change),
                    1e-6 * std::abs(change) + 1e-9 * std::abs(fields[i]))
              << "sigma " << sigma << " f " << f << " kr " << kr << " kernel " << i;
        }
      }
    }
  }
}

TEST(ViaKernels, ALossyGroundsKernelsTendToThePerfectGroundsAsItsZsFalls) {
  // The tabulated kernels at ρ = 0 and 2 mm (RO4003, 3 GHz) with grounds of rising conductivity:
  // their distance from the perfect ground's falls like Zs ∝ σ^{−1/2} (×10 per ×100 in σ, bar
  // 8–12), and the logarithm's coefficient gains Zs/(2π) exactly.
  const Slab perfect{3.38, 0.0027, 0.508e-3};
  const double f = 3e9;
  const ViaKernels k_pec(perfect, f, 0.01);
  double last_vh = 0, last_vv = 0;
  for (const double sigma : {5.8e5, 5.8e7, 5.8e9}) {
    Slab lossy = perfect;
    lossy.ground = {sigma, 1e-3};
    const ViaKernels k(lossy, f, 0.01);
    const cd zs = surface_impedance(lossy.ground, f);
    EXPECT_LT(std::abs(k.log_coefficient() - k_pec.log_coefficient() - zs / (2.0 * pi)),
              1e-12 * std::abs(k_pec.log_coefficient()));
    EXPECT_EQ(k.surface_impedance(), zs);
    double vh = 0, vv = 0;
    for (const double rho : {0.0, 2e-3}) {
      vh = std::max(vh, std::abs(k.coupling(rho) - k_pec.coupling(rho)));
      vv = std::max(vv, std::abs(k.self_smooth(rho) - k_pec.self_smooth(rho)));
    }
    std::printf("[via kernels] sigma %.1e S/m: |Zs| %.3e ohm, change of K_vh %.3e, of K_vv %.3e\n",
                sigma, std::abs(zs), vh, vv);
    if (last_vh > 0) {
      EXPECT_GT(last_vh / vh, 8.0);
      EXPECT_LT(last_vh / vh, 12.0);
      EXPECT_GT(last_vv / vv, 8.0);
      EXPECT_LT(last_vv / vv, 12.0);
    }
    last_vh = vh;
    last_vv = vv;
  }
}

}  // namespace
