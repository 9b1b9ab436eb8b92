// The closed-form references themselves, against limits they must reach exactly and against
// published design values, so that the MoM validation rests on checked formulas.
#include <gtest/gtest.h>

#include <cmath>

#include "planarmom/mom/microstrip_formulas.hpp"

namespace pmom::mom {
namespace {

TEST(MicrostripFormulas, AirLineHasUnitEffectivePermittivity) {
  for (double u : {0.05, 0.5, 1.0, 5.0, 50.0}) {
    EXPECT_NEAR(effective_permittivity_hj(u, 1.0), 1.0, 1e-15);
    EXPECT_DOUBLE_EQ(impedance_hj(u, 1.0), impedance_air_hj(u));
  }
}

// For W ≫ h the strip becomes a parallel-plate line, Z = η0 h / W, corrected by the fringing
// field; Hammerstad's formula tends to that limit (1% at u = 1000 is its own accuracy claim).
TEST(MicrostripFormulas, WideStripTendsToParallelPlate) {
  const double u = 1000;
  EXPECT_NEAR(impedance_air_hj(u) * u / eta0_ohm, 1.0, 0.01);
}

// εeff lies between (εr + 1)/2 (narrow strip: half the field in air) and εr (wide strip).
TEST(MicrostripFormulas, EffectivePermittivityBetweenItsLimits) {
  for (double er : {2.2, 3.38, 4.4, 10.2})
    for (double u : {0.1, 1.0, 10.0, 100.0}) {
      const double e = effective_permittivity_hj(u, er);
      EXPECT_GT(e, (er + 1) / 2);
      EXPECT_LT(e, er);
    }
}

// Design values quoted in the literature for 50 Ω lines, each within 2% (the spread between
// calculators, larger than the formulas' own 0.2–1% accuracy):
//  - FR-4, εr = 4.4, h = 1.6 mm: W ≈ 3.06 mm, εeff ≈ 3.33;
//  - RO4003C, εr = 3.38, h = 0.508 mm: W ≈ 1.17 mm, εeff ≈ 2.67;
//  - alumina, εr = 9.8, h = 0.635 mm: W ≈ 0.61 mm (W/h ≈ 0.96).
TEST(MicrostripFormulas, FiftyOhmSynthesisMatchesPublishedDesigns) {
  EXPECT_NEAR(width_for_impedance_hj(50, 4.4) * 1.6, 3.06, 0.02 * 3.06);
  EXPECT_NEAR(effective_permittivity_hj(width_for_impedance_hj(50, 4.4), 4.4), 3.33, 0.02 * 3.33);
  EXPECT_NEAR(width_for_impedance_hj(50, 3.38) * 0.508, 1.17, 0.02 * 1.17);
  EXPECT_NEAR(effective_permittivity_hj(width_for_impedance_hj(50, 3.38), 3.38), 2.67,
              0.02 * 2.67);
  EXPECT_NEAR(width_for_impedance_hj(50, 9.8), 0.96, 0.02 * 0.96);
}

TEST(MicrostripFormulas, SynthesisInvertsAnalysis) {
  for (double er : {2.2, 3.38, 4.4, 10.2})
    for (double z : {25.0, 35.36, 50.0, 70.7, 100.0}) {
      const double u = width_for_impedance_hj(z, er);
      EXPECT_NEAR(impedance_hj(u, er), z, 1e-9 * z);
    }
  EXPECT_THROW(width_for_impedance_hj(1000, 4.4), std::invalid_argument);
  EXPECT_THROW(effective_permittivity_hj(-1, 4.4), std::invalid_argument);
}

// Kirschning-Jansen: the static value at f = 0, a monotonic rise with frequency, and εr as the
// high-frequency limit (all fields in the dielectric).
TEST(MicrostripFormulas, DispersionRisesFromStaticTowardsSubstrate) {
  const double er = 3.38, h = 0.508, u = width_for_impedance_hj(50, er);
  EXPECT_DOUBLE_EQ(effective_permittivity_kj(u, er, 0, h), effective_permittivity_hj(u, er));
  double last = 0;
  for (double f = 0; f <= 40; f += 2) {
    const double e = effective_permittivity_kj(u, er, f, h);
    EXPECT_GT(e, last);
    EXPECT_LT(e, er);
    last = e;
  }
  EXPECT_NEAR(effective_permittivity_kj(u, er, 2000, h), er, 0.01 * er);
}

// Hammerstad-Jensen's dispersive Z0: the static value at εeff(0), rising with εeff(f); on the
// FR-4 50 Ω line (3.2 mm) with Kirschning-Jansen's εeff, +4.5% at 6 GHz (f·h 9.6 GHz·mm).
TEST(MicrostripFormulas, DispersiveImpedanceRisesFromStatic) {
  const double er = 4.4, h = 1.6, u = 3.2 / h;
  const double z0 = impedance_hj(u, er);
  EXPECT_DOUBLE_EQ(impedance_dispersive_hj(u, er, effective_permittivity_hj(u, er)), z0);
  double last = z0;
  for (double f = 1; f <= 6; f += 1) {
    const double z = impedance_dispersive_hj(u, er, effective_permittivity_kj(u, er, f, h));
    EXPECT_GT(z, last);
    last = z;
  }
  EXPECT_NEAR(last / z0, 1.0451, 1e-3);
  EXPECT_DOUBLE_EQ(impedance_dispersive_hj(u, 1.0, 1.0), impedance_air_hj(u));
}

}  // namespace
}  // namespace pmom::mom
