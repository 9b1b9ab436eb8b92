// The Kirschning-Jansen coupled-line formulas against the limits they must reach: far apart both
// modes are the single line (Hammerstad-Jensen static, Kirschning-Jansen dispersive); at f = 0
// the static values; the modes' order (the even mode's field more in the substrate, its
// impedance above the single line's, the odd mode's below); and their dispersion rising towards εr.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "planarmom/mom/coupled_microstrip_formulas.hpp"
#include "planarmom/mom/microstrip_formulas.hpp"

namespace pmom::mom {
namespace {

struct Board {
  double eps_r, h_mm, w_mm;
};
// The two boards of the MoM check (docs/VALIDATION.md): RO4003 and FR-4, ~50 Ω strips.
constexpr Board ro4003{3.38, 0.508, 1.2}, fr4{4.4, 1.6, 3.2};

// Far apart both modes become the single line, at every frequency: the difference shrinks as
// the gap grows (g = 2, 10, 100) and at g = 1000 is below 1e-4 in εeff and the static Z0. It
// fades slowly: at g = 10, the edge of their range, εeff of the two modes still differ by ~1.3%
// (the even mode's equivalent width v = u (20 + g²)/(10 + g²) approaches u only as 1/g²), and
// the even mode's impedance dispersion keeps a term (Q19) that fades as g^−0.9: 4e-4 at
// g = 1000 on FR-4 at 5 GHz, so 1e-3 there.
TEST(CoupledMicrostripFormulas, FarApartBothModesAreTheSingleLine) {
  for (const Board& b : {ro4003, fr4})
    for (const double f : {0.0, 1.0, 5.0}) {
      const double u = b.w_mm / b.h_mm;
      const double e = effective_permittivity_kj(u, b.eps_r, f, b.h_mm);
      const double z = impedance_kj(u, b.eps_r, f, b.h_mm);
      const auto eps_off = [&](const CoupledModes& m) {
        return std::max(std::abs(m.eps_eff_even / e - 1), std::abs(m.eps_eff_odd / e - 1));
      };
      const auto z_off = [&](const CoupledModes& m) {
        return std::max(std::abs(m.z0_even / z - 1), std::abs(m.z0_odd / z - 1));
      };
      double last = 1;
      for (const double g : {2.0, 10.0, 100.0}) {
        const CoupledModes m = coupled_microstrip_kj(u, g, b.eps_r, f, b.h_mm);
        EXPECT_LT(std::max(eps_off(m), z_off(m)), last) << "g " << g << ", f " << f << " GHz";
        last = std::max(eps_off(m), z_off(m));
      }
      const CoupledModes far = coupled_microstrip_kj(u, 1000, b.eps_r, f, b.h_mm);
      EXPECT_LT(eps_off(far), 1e-4) << "f " << f << " GHz";
      EXPECT_LT(z_off(far), f == 0 ? 1e-4 : 1e-3) << "f " << f << " GHz";
    }
}

// f → 0 joins the static values continuously: at 1 kHz within 1e-7 of f = 0 (the dispersion's
// leading terms go as (f·h)^1.5).
TEST(CoupledMicrostripFormulas, LowFrequencyIsTheStaticValue) {
  for (const Board& b : {ro4003, fr4}) {
    const double u = b.w_mm / b.h_mm;
    for (const double g : {0.2, 0.5, 1.0, 2.0}) {
      const CoupledModes s = coupled_microstrip_kj(u, g, b.eps_r, 0, b.h_mm);
      const CoupledModes f = coupled_microstrip_kj(u, g, b.eps_r, 1e-6, b.h_mm);
      EXPECT_NEAR(f.eps_eff_even, s.eps_eff_even, 1e-7 * s.eps_eff_even);
      EXPECT_NEAR(f.eps_eff_odd, s.eps_eff_odd, 1e-7 * s.eps_eff_odd);
      EXPECT_NEAR(f.z0_even, s.z0_even, 1e-7 * s.z0_even);
      EXPECT_NEAR(f.z0_odd, s.z0_odd, 1e-7 * s.z0_odd);
    }
  }
}

// Coupling orders the modes: εeff,o < εeff < εeff,e (the odd mode's field crowds into the gap's
// air above the substrate) and Z0o < Z0 < Z0e, the spread growing as the gap closes; with
// frequency both εeff rise monotonically and stay below εr.
TEST(CoupledMicrostripFormulas, ModesOrderAndDisperseUpwards) {
  for (const Board& b : {ro4003, fr4}) {
    const double u = b.w_mm / b.h_mm;
    const double e = effective_permittivity_hj(u, b.eps_r), z = impedance_hj(u, b.eps_r);
    double spread = 1e9;
    for (const double g : {0.2, 0.5, 1.0, 2.0}) {
      const CoupledModes m = coupled_microstrip_kj(u, g, b.eps_r, 0, b.h_mm);
      std::printf("[coupled KJ] eps_r %.2f u %.3f g %.3f: eps_e %.4f eps_o %.4f Z0e %.2f Z0o "
                  "%.2f (single %.4f, %.2f)\n",
                  b.eps_r, u, g, m.eps_eff_even, m.eps_eff_odd, m.z0_even, m.z0_odd, e, z);
      EXPECT_LT(m.eps_eff_odd, e);
      EXPECT_GT(m.eps_eff_even, e);
      EXPECT_LT(m.z0_odd, z);
      EXPECT_GT(m.z0_even, z);
      EXPECT_LT(m.z0_even - m.z0_odd, spread);
      spread = m.z0_even - m.z0_odd;
      double even = m.eps_eff_even, odd = m.eps_eff_odd;
      for (const double f : {1.0, 5.0, 10.0, 20.0}) {
        const CoupledModes d = coupled_microstrip_kj(u, g, b.eps_r, f, b.h_mm);
        EXPECT_GT(d.eps_eff_even, even);
        EXPECT_GT(d.eps_eff_odd, odd);
        EXPECT_LT(d.eps_eff_even, b.eps_r);
        EXPECT_LT(d.eps_eff_odd, b.eps_r);
        even = d.eps_eff_even;
        odd = d.eps_eff_odd;
      }
    }
  }
}

// The single line's impedance dispersion (Jansen-Kirschning), on which the odd mode's rests:
// the static Hammerstad-Jensen value at f = 0; nearly flat at first (its exponent R17 is slightly
// negative at low f·h: −0.01% at 5 GHz on RO4003), then rising as the field draws into the
// substrate (f·h ≥ 10 GHz·mm).
TEST(CoupledMicrostripFormulas, SingleLineImpedanceDispersion) {
  for (const Board& b : {ro4003, fr4}) {
    const double u = b.w_mm / b.h_mm;
    const double z = impedance_hj(u, b.eps_r);
    EXPECT_DOUBLE_EQ(impedance_kj(u, b.eps_r, 0, b.h_mm), z);
    for (const double fn : {1.0, 2.0, 5.0, 10.0, 20.0})
      std::printf("[single KJ] eps_r %.2f u %.3f fh %4.1f GHz mm: Z0 %.3f (static %.3f)\n",
                  b.eps_r, u, fn, impedance_kj(u, b.eps_r, fn / b.h_mm, b.h_mm), z);
    EXPECT_NEAR(impedance_kj(u, b.eps_r, 5 / b.h_mm, b.h_mm), z, 0.005 * z);
    EXPECT_GT(impedance_kj(u, b.eps_r, 20 / b.h_mm, b.h_mm), impedance_kj(u, b.eps_r, 10 / b.h_mm, b.h_mm));
  }
}

TEST(CoupledMicrostripFormulas, RejectsUnusableArguments) {
  EXPECT_THROW(coupled_microstrip_kj(1, 0, 3.38, 1, 0.5), std::invalid_argument);
  EXPECT_THROW(coupled_microstrip_kj(0, 1, 3.38, 1, 0.5), std::invalid_argument);
  EXPECT_THROW(coupled_microstrip_kj(1, 1, 0.5, 1, 0.5), std::invalid_argument);
  EXPECT_THROW(coupled_microstrip_kj(1, 1, 3.38, -1, 0.5), std::invalid_argument);
}

}  // namespace
}  // namespace pmom::mom
