// The whole MoM chain on straight lines against Hammerstad-Jensen (Z0) and Kirschning-Jansen
// (εeff): Green's functions, assembly, dense solve, standing-wave fit.
#include <gtest/gtest.h>

#include <cstdio>

#include "planarmom/mom/line_characterisation.hpp"
#include "planarmom/mom/microstrip_formulas.hpp"

namespace pmom::mom {
namespace {

struct Board {
  double eps_r, height_mm, z0;
};

// Tolerances are the issue's: εeff within 2% of Kirschning-Jansen, Z0 within 3% of
// Hammerstad-Jensen (the formulas' own accuracy is 0.6% and 0.2%; the rest is the mesh: six
// cells across resolve the edge singularity of the current only so far, and Z0 converges
// from above as the mesh is refined, see docs/VALIDATION.md).
void expect_matches_references(const Board& b, double f_hz, double half_length_mm) {
  const double u = width_for_impedance_hj(b.z0, b.eps_r);
  LineSpec spec{b.eps_r, b.height_mm, u * b.height_mm, 6, half_length_mm};
  const LineResult r = characterise_line(spec, f_hz);
  const double kj = effective_permittivity_kj(u, b.eps_r, f_hz * 1e-9, b.height_mm);
  const double hj = impedance_hj(u, b.eps_r);
  std::printf("[line] eps_r %.2f h %.3f mm W %.4f mm f %.1f GHz: eps_eff %.4f (KJ %.4f, %+.2f%%), "
              "Z0 %.2f (HJ %.2f, %+.2f%%), %d unknowns, assembly %.2f s, LU %.2f s\n",
              b.eps_r, b.height_mm, spec.width_mm, f_hz * 1e-9, r.eps_eff, kj,
              100 * (r.eps_eff / kj - 1), r.z0.real(), hj, 100 * (r.z0.real() / hj - 1),
              r.unknowns, r.seconds_assembly, r.seconds_solve);
  EXPECT_NEAR(r.eps_eff, kj, 0.02 * kj);
  EXPECT_NEAR(r.z0.real(), hj, 0.03 * hj);
  EXPECT_LT(std::abs(r.z0.imag()), 0.01 * hj);  // a lossless line has a real Z0
}

TEST(LineCharacterisation, FiftyOhmOnRo4003AtThreeGigahertz) {
  expect_matches_references({3.38, 0.508, 50}, 3e9, 25);
}

TEST(LineCharacterisation, FiftyOhmOnFr4AtThreeGigahertz) {
  expect_matches_references({4.4, 1.6, 50}, 3e9, 25);
}

TEST(LineCharacterisation, RejectsUnusableSpecs) {
  EXPECT_THROW(characterise_line({3.38, 0.508, 1.17, 1, 25}, 3e9), std::invalid_argument);
  EXPECT_THROW(characterise_line({3.38, 0.508, 1.17, 6, 2}, 3e9), std::invalid_argument);
}

}  // namespace
}  // namespace pmom::mom
