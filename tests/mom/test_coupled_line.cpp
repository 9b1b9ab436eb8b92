// The MoM's symmetric coupled pair (characterise_coupled_pair) against Kirschning-Jansen's
// coupled-line formulas, and the mirror split between its strips against one full LU.
#include <gtest/gtest.h>

#include <boost/math/special_functions/ellint_1.hpp>
#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

#include "mom/full_lu_solver.hpp"
#include "planarmom/mom/constants.hpp"
#include "planarmom/mom/coupled_microstrip_formulas.hpp"
#include "planarmom/mom/line_characterisation.hpp"

namespace pmom::mom {
namespace {

void print(const char* what, const LineSpec& spec, double f_hz, const CoupledLineResult& r,
           const CoupledModes& kj) {
  std::printf("[coupled] %s W %.3f S %.3f mm, %d across, %.1f GHz: even eps_eff %.4f (KJ %.4f, "
              "%+.2f%%) Z0 %.2f (KJ %.2f, %+.2f%%); odd eps_eff %.4f (KJ %.4f, %+.2f%%) Z0 %.2f "
              "(KJ %.2f, %+.2f%%); %d unknowns, %.1f s + %.1f s\n",
              what, spec.width_mm, spec.gap_mm, spec.cells_across, f_hz * 1e-9, r.even.eps_eff,
              kj.eps_eff_even, 100 * (r.even.eps_eff / kj.eps_eff_even - 1), r.even.z0.real(),
              kj.z0_even, 100 * (r.even.z0.real() / kj.z0_even - 1), r.odd.eps_eff,
              kj.eps_eff_odd, 100 * (r.odd.eps_eff / kj.eps_eff_odd - 1), r.odd.z0.real(),
              kj.z0_odd, 100 * (r.odd.z0.real() / kj.z0_odd - 1), r.even.unknowns,
              r.even.seconds_assembly, r.even.seconds_solve);
}

CoupledModes kj_of(const LineSpec& s, double f_hz) {
  return coupled_microstrip_kj(s.width_mm / s.height_mm, s.gap_mm / s.height_mm, s.eps_r,
                               f_hz * 1e-9, s.height_mm);
}

// Issue 35's bar: even- and odd-mode εeff within 1% and Z0 within 2% of Kirschning-Jansen,
// whose own stated accuracy is 0.6% (static Z0), 1.4% (εeff(f) up to f·h = 25 GHz·mm) and 2.5%
// (Z0(f) up to f·h = 20), for 0.1 ≤ W/h ≤ 10, 0.1 ≤ S/h ≤ 10, εr ≤ 18 (all cases here are
// inside). The meshes are the coarse ones of docs/VALIDATION.md's convergence runs (the gap
// one or three cells, oblong cells twice as long along the line; on RO4003 with the 0.2 mm gap
// halving the cell across moves εeff by < 0.05% and Z0 by 0.15%); measured here up to +0.6%
// (the odd mode's Z0), so 1% and 2% leave room for the formulas only.
void expect_pair_matches_kj(const char* board, LineSpec spec, double f_hz) {
  spec.half_length_mm = suggested_half_length_mm(spec, f_hz);
  const CoupledLineResult r = characterise_coupled_pair(spec, f_hz);
  const CoupledModes kj = kj_of(spec, f_hz);
  print(board, spec, f_hz, r, kj);
  EXPECT_NEAR(r.even.eps_eff, kj.eps_eff_even, 0.01 * kj.eps_eff_even) << board;
  EXPECT_NEAR(r.odd.eps_eff, kj.eps_eff_odd, 0.01 * kj.eps_eff_odd) << board;
  EXPECT_NEAR(r.even.z0.real(), kj.z0_even, 0.02 * kj.z0_even) << board;
  EXPECT_NEAR(r.odd.z0.real(), kj.z0_odd, 0.02 * kj.z0_odd) << board;
}

// RO4003 (εr 3.38, h 0.508 mm), W 1.2 mm, gaps 0.2 and 0.6 mm (S/h 0.39, 1.18) at 3 GHz:
// cells 0.2 mm across, 0.4 mm along.
TEST(CoupledLine, Ro4003PairMatchesKirschningJansen) {
  for (const double gap : {0.2, 0.6}) {
    LineSpec spec{3.38, 0.508, 1.2, 6};
    spec.along_mm = 0.4;
    spec.gap_mm = gap;
    expect_pair_matches_kj("RO4003", spec, 3e9);
  }
}

// FR-4 (εr 4.4, h 1.6 mm), W 3.2 mm, gaps 0.4 and 1.2 mm (S/h 0.25, 0.75) at 2.4 GHz: cells
// 0.4 mm across, 0.8 mm along.
TEST(CoupledLine, Fr4PairMatchesKirschningJansen) {
  for (const double gap : {0.4, 1.2}) {
    LineSpec spec{4.4, 1.6, 3.2, 8};
    spec.along_mm = 0.8;
    spec.gap_mm = gap;
    expect_pair_matches_kj("FR-4", spec, 2.4e9);
  }
}

// The split between the strips (four parts of a quarter of the unknowns, line_mirror.hpp)
// against one full LU of the pair's Z: the same equations, so what differs is rounding and the
// edge-shaped tables' ~1e-8 mirror asymmetry (as the single line's split): 1e-7 relative.
// An edge-coupled stripline (issue 39): two 0.6 mm strips centred between grounds 1.025 mm
// apart in εr 3.38 (the 50 Ω stripline's board), gaps 0.2 and 0.6 mm, against Cohn's exact
// zero-thickness modes (IRE Trans. MTT 3(5), 1955): Z0 = η0/(4√εr) K(k′)/K(k), k_e =
// tanh(πW/2b) tanh(π(W+S)/2b), k_o = tanh(πW/2b) coth(π(W+S)/2b), and εeff = εr for both (TEM).
// 6 cells across each strip at 5 GHz: measured Z0 +0.08 to +0.14% (the single stripline's
// +0.09% at 6 across, falling with the cell), εeff 3.3800; bars 0.5% and 1e-4.
TEST(CoupledLine, AStriplinePairIsCohns) {
  const double eps_r = 3.38, half_mm = 0.512529, b = 2 * half_mm, w = 0.6;
  const auto cohn = [&](double k) {
    const double k_prime = std::sqrt(1 - k * k);
    return 376.730313668 / (4 * std::sqrt(eps_r)) * boost::math::ellint_1(k_prime) /
           boost::math::ellint_1(k);
  };
  for (const double gap : {0.2, 0.6}) {
    LineSpec spec{eps_r, half_mm, w, 6};
    spec.gap_mm = gap;
    spec.cover = {{eps_r, 0.0, half_mm * 1e-3}};
    spec.top = Top::ground;
    const double f = 5e9;
    spec.half_length_mm = suggested_half_length_mm(spec, f);
    const CoupledLineResult r = characterise_coupled_pair(spec, f);
    const double t = std::tanh(pi * w / (2 * b)), u = std::tanh(pi * (w + gap) / (2 * b));
    const double even = cohn(t * u), odd = cohn(t / u);
    std::printf("[coupled] stripline W %.2f S %.2f mm: even Z0 %.3f (Cohn %.3f, %+.3f%%) eps_eff "
                "%.5f; odd Z0 %.3f (Cohn %.3f, %+.3f%%) eps_eff %.5f\n",
                w, gap, r.even.z0.real(), even, 100 * (r.even.z0.real() / even - 1),
                r.even.eps_eff, r.odd.z0.real(), odd, 100 * (r.odd.z0.real() / odd - 1),
                r.odd.eps_eff);
    EXPECT_NEAR(r.even.z0.real() / even, 1.0, 5e-3);
    EXPECT_NEAR(r.odd.z0.real() / odd, 1.0, 5e-3);
    EXPECT_NEAR(r.even.eps_eff / eps_r, 1.0, 1e-4);
    EXPECT_NEAR(r.odd.eps_eff / eps_r, 1.0, 1e-4);
  }
}

TEST(CoupledLine, MirrorSplitBetweenTheStripsEqualsOneFullLu) {
  const LineSolver full_lu = test::solve_by_full_lu;
  LineSpec spec{4.4, 1.6, 3.2, 4};
  spec.gap_mm = 0.8;
  spec.half_length_mm = suggested_half_length_mm(spec, 3e9);
  const CoupledLineResult split = characterise_coupled_pair(spec, 3e9);
  const CoupledLineResult full = characterise_coupled_pair(spec, 3e9, full_lu);
  std::printf("[coupled] mirror split: even Z0 %.9f vs %.9f, odd Z0 %.9f vs %.9f\n",
              split.even.z0.real(), full.even.z0.real(), split.odd.z0.real(),
              full.odd.z0.real());
  for (const auto& [a, b] : {std::pair{split.even, full.even}, std::pair{split.odd, full.odd}}) {
    EXPECT_LT(std::abs(a.z0 - b.z0), 1e-7 * std::abs(b.z0));
    EXPECT_LT(std::abs(a.gamma - b.gamma), 1e-7 * std::abs(b.gamma));
  }
}

TEST(CoupledLine, RejectsAGapOffTheCells) {
  LineSpec spec{3.38, 0.508, 1.2, 6, 25};
  spec.gap_mm = 0.3;  // 1.5 cells of 0.2 mm
  EXPECT_THROW(characterise_coupled_pair(spec, 3e9), std::invalid_argument);
  spec.gap_mm = 0;
  EXPECT_THROW(characterise_coupled_pair(spec, 3e9), std::invalid_argument);
  spec.gap_mm = 0.2;
  EXPECT_THROW(characterise_line(spec, 3e9), std::invalid_argument);
}

}  // namespace
}  // namespace pmom::mom
