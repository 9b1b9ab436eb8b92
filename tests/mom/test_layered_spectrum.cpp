// LayeredSpectrum (layered_spectrum.hpp): for one layer, the grounded slab's closed forms
// (spectral.hpp); for stacks with covers, two layers under the strips, a cover ground and lossy
// grounds, the fields of a sheet current solved directly from Maxwell's equations layer by
// layer, which shares nothing with the transmission-line recursion but the physics.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cmath>
#include <complex>
#include <stdexcept>
#include <vector>

#include "layered_spectrum.hpp"  // mom/src
#include "planarmom/mom/greens_table.hpp"
#include "planarmom/mom/quadrature.hpp"
#include "planarmom/mom/constants.hpp"
#include "planarmom/mom/greens.hpp"
#include "planarmom/mom/surface_impedance.hpp"
#include "spectral.hpp"

namespace {

using namespace pmom::mom;
using cd = std::complex<double>;
constexpr cd kJ{0.0, 1.0};

// The tangential field on interface `observer` of a sheet current e^{−jkρx} on `source`
// (interfaces numbered from the ground, Stackup::strips()), solved as
// amplitudes of e^{±u z} in every layer (and e^{−u0 z} in the air) under the boundary
// conditions: E_t = Zs ẑ × H on the ground (0 on a perfect one), E_t and H_t continuous across
// the dielectric interfaces, ẑ × (H_above − H_below) = J at the strips. te: J along ŷ (E_y,
// H_x), else J along x̂ (H_y, E_x). Amplitudes per layer i of thickness d_i, local z from its
// bottom: a e^{u(z − d)} + b e^{−uz}, both at most 1 in the layer.
cd interface_field(const Stackup& stack, double f, cd kr, bool te, int source, int observer) {
  std::vector<Layer> layers = stack.below;
  layers.insert(layers.end(), stack.above.begin(), stack.above.end());
  const auto n = static_cast<int>(layers.size());
  const bool air = stack.top == Top::air;
  const cd jw = kJ * 2.0 * pi * f;
  const double k0 = 2.0 * pi * f / c0;
  const cd zs = surface_impedance(stack.ground, f);
  const int unknowns = 2 * n + (air ? 1 : 0);
  Eigen::MatrixXcd m = Eigen::MatrixXcd::Zero(unknowns, unknowns);
  Eigen::VectorXcd rhs = Eigen::VectorXcd::Zero(unknowns);
  std::vector<cd> u(n), eps(n);
  for (int i = 0; i < n; ++i) {
    eps[i] = cd(layers[i].eps_r, -layers[i].eps_r * layers[i].loss_tangent);
    u[i] = std::sqrt(kr * kr - eps[i] * k0 * k0);
  }
  // Row vectors giving the tangential E and H of layer i at its bottom (top = false) or top.
  // te: E = E_y = a e + b e', H = H_x = ∂z E_y/(jωμ0). tm: H = H_y, E = E_x = −∂z H_y/(jωε0ε).
  struct Row {
    cd e_a, e_b, h_a, h_b;
  };
  auto at = [&](int i, bool top) {
    const cd decay = std::exp(-u[i] * layers[i].height_m);
    const cd ea = top ? 1.0 : decay, eb = top ? decay : 1.0;  // e^{u(z−d)}, e^{−uz}
    if (te) return Row{ea, eb, u[i] * ea / (jw * mu0), -u[i] * eb / (jw * mu0)};
    const cd k = -u[i] / (jw * eps0 * eps[i]);
    return Row{k * ea, -k * eb, ea, eb};
  };
  int row = 0;
  // The ground: E = Zs (ẑ × H)_t, i.e. E_y = Zs H_x (te) and E_x = −Zs H_y (tm).
  {
    const Row r = at(0, false);
    const double sign = te ? 1.0 : -1.0;
    m(row, 0) = r.e_a - sign * zs * r.h_a;
    m(row, 1) = r.e_b - sign * zs * r.h_b;
    ++row;
  }
  // J at the source interface: te: H_x(above) − H_x(below) = 1; tm: H_y(below) − H_y(above) = 1.
  const cd jump_sign = te ? 1.0 : -1.0;
  for (int k = 1; k <= n; ++k) {
    const Row lo = at(k - 1, true);
    const bool last = k == n;
    if (last && !air) {  // a cover ground: E_t = 0
      m(row, 2 * (k - 1)) = lo.e_a;
      m(row, 2 * (k - 1) + 1) = lo.e_b;
      ++row;
      continue;
    }
    // Above: layer k, or the air's c e^{−u0 z} (te: H_x = −u0 c/(jωμ0); tm: E_x = u0 c/(jωε0)).
    cd e_hi[3] = {0.0, 0.0, 0.0}, h_hi[3] = {0.0, 0.0, 0.0};
    int cols = 2;
    if (last) {
      const cd u0 = std::sqrt(kr * kr - k0 * k0);
      cols = 1;
      if (te) {
        e_hi[0] = 1.0;
        h_hi[0] = -u0 / (jw * mu0);
      } else {
        e_hi[0] = u0 / (jw * eps0);
        h_hi[0] = 1.0;
      }
    } else {
      const Row hi = at(k, false);
      e_hi[0] = hi.e_a;
      e_hi[1] = hi.e_b;
      h_hi[0] = hi.h_a;
      h_hi[1] = hi.h_b;
    }
    const int lo_col = 2 * (k - 1), hi_col = 2 * k;
    m(row, lo_col) = lo.e_a;
    m(row, lo_col + 1) = lo.e_b;
    for (int c = 0; c < cols; ++c) m(row, hi_col + c) = -e_hi[c];
    ++row;
    m(row, lo_col) = -lo.h_a;
    m(row, lo_col + 1) = -lo.h_b;
    for (int c = 0; c < cols; ++c) m(row, hi_col + c) = h_hi[c];
    if (k == source) rhs(row) = jump_sign;
    ++row;
  }
  const Eigen::VectorXcd x = m.fullPivLu().solve(rhs);
  const Row r = at(observer - 1, true);  // the field there, from the layer under it
  return r.e_a * x(2 * (observer - 1)) + r.e_b * x(2 * (observer - 1) + 1);
}

// Metal on two interfaces (numbered from the ground, Stackup::strips()): e.g. a broadside
// stripline, RO4003 outside a 0.2 mm FR-4 core.
struct Interfaces {
  Stackup stack;
  int source, observer;
};
const Layer kRo4003{3.38, 0.0027, 0.5e-3}, kCore{4.4, 0.02, 0.2e-3}, kMask{3.8, 0.02, 50e-6};
Interfaces broadside_stripline() { return {{{kRo4003}, {kCore, kRo4003}, {}, Top::ground}, 1, 2}; }

// G̃_A and G̃_V from those fields: Ẽ_y = −jω G̃_A (J ⊥ k), Ẽ_x = −jω G̃_A + j kρ² G̃_V/ω (J ∥ k).
// Between two interfaces the same (formulation C: a horizontal current's tangential field).
Pair by_the_fields(const Stackup& stack, double f, cd kr, int source, int observer) {
  const double w = 2.0 * pi * f;
  const cd g_a = interface_field(stack, f, kr, true, source, observer) / (-kJ * w);
  const cd e_x = interface_field(stack, f, kr, false, source, observer);
  return {g_a, (e_x + kJ * w * g_a) * w / (kJ * kr * kr)};
}

TEST(LayeredSpectrum, OneLayerIsTheGroundedSlab) {
  // RO4003 and FR-4, perfect and copper grounds, at kρ below, between and beyond the branch
  // points, on and off the real axis: the slab's closed forms within 1e-12 (the two forms of
  // G̃_V differ in rounding only). Near kρ = 0, where G̃_V's terms cancel: the perfect ground's
  // closed form at 1e-6 k0 within 1e-12 too; the lossy ground's loses digits there (its extra
  // term divides by kρ², 3e-6 off at 1e-6 k0), so the stack's value is held to its own at
  // 1e-4 k0 instead (G̃ is even and analytic in kρ: they differ by O(1e-8)).
  for (const Slab base : {Slab{3.38, 0.0027, 0.508e-3}, Slab{4.4, 0.02, 1.6e-3}})
    for (const double sigma : {0.0, 5.8e7}) {
      Slab slab = base;
      if (sigma > 0) slab.ground = {sigma, 35e-6};
      for (const double f : {1e9, 10e9}) {
        const SlabSpectrum s = slab_spectrum(slab, f);
        const LayeredSpectrum l(one_layer(slab), f);
        const double k1 = std::sqrt(slab.eps_r) * s.k0;
        std::vector<cd> points{cd(0.5 * s.k0, 0.0), cd(1.4 * s.k0, 0.1 * s.k0),
                               cd(1.2 * k1, 0.0), cd(5.0 * k1, 0.3 * k1),
                               cd(2.0 / slab.height_m, 0.0), cd(100.0 / slab.height_m, 0.0)};
        if (sigma == 0) points.emplace_back(1e-6 * s.k0, 1e-6 * s.k0);
        for (const cd kr : points) {
          const Pair want = s.exact(kr), got = l.exact(kr);
          for (int i = 0; i < 2; ++i)
            EXPECT_LT(std::abs(got[i] - want[i]), 1e-12 * std::abs(want[i]))
                << "eps " << slab.eps_r << " sigma " << sigma << " f " << f << " kr " << kr
                << " component " << i;
        }
        const Pair tiny = l.exact(cd(1e-6 * s.k0, 1e-6 * s.k0));
        const Pair small = l.exact(cd(1e-4 * s.k0, 1e-4 * s.k0));
        for (int i = 0; i < 2; ++i)
          EXPECT_LT(std::abs(tiny[i] - small[i]), 1e-7 * std::abs(small[i]));
      }
    }
}

TEST(LayeredSpectrum, StacksSolveMaxwellsEquationsLayerByLayer) {
  // A solder mask over RO4003, a buried line in FR-4 (two layers under it, one over), a
  // stripline (a cover ground) of one εr and of two, each with a perfect and a copper ground, at 1 and 10 GHz: the
  // transmission-line network against the fields solved directly, within 1e-9 (the direct
  // system's conditioning where uh ≤ 6 or so; kρ kept there).
  const Layer ro4003{3.38, 0.0027, 0.508e-3}, mask{3.8, 0.02, 50e-6};
  const Layer fr4_lo{4.4, 0.02, 0.8e-3}, fr4_hi{4.2, 0.015, 0.8e-3};
  const std::vector<Stackup> stacks{{{ro4003}, {mask}, {}, Top::air},
                                    {{fr4_lo, fr4_hi}, {fr4_lo}, {}, Top::air},
                                    {{ro4003}, {ro4003}, {}, Top::ground},
                                    {{fr4_lo}, {ro4003}, {}, Top::ground},
                                    {{ro4003}, {mask, ro4003}, {}, Top::air}};
  for (Stackup stack : stacks)
    for (const double sigma : {0.0, 5.8e7}) {
      stack.ground = sigma > 0 ? Conductor{sigma, 35e-6} : Conductor{};
      for (const double f : {1e9, 10e9}) {
        const LayeredSpectrum l(stack, f);
        const double k0 = l.k0();
        for (const cd kr : {cd(0.5 * k0, 0.0), cd(1.4 * k0, 0.1 * k0), cd(1.9 * k0, 0.0),
                            cd(3.0 * k0, 0.5 * k0), cd(1500.0, 0.0), cd(4000.0, 0.0)}) {
          const Pair want = by_the_fields(stack, f, kr, stack.strips(), stack.strips());
          const Pair got = l.exact(kr);
          for (int i = 0; i < 2; ++i)
            EXPECT_LT(std::abs(got[i] - want[i]), 1e-9 * std::abs(want[i]))
                << "layers " << stack.below.size() << "+" << stack.above.size() << " sigma "
                << sigma << " f " << f << " kr " << kr << " component " << i;
        }
      }
    }
}

TEST(LayeredSpectrum, BetweenTwoInterfacesTheFieldsOfMaxwellsEquationsToo) {
  // Source and observer on different interfaces (and on one that is not the strips'): a
  // broadside stripline (RO4003 outside, an FR-4 core), a microstrip under two covers in air,
  // three layers under the strips; perfect and copper grounds, 1 and 10 GHz, at kρ below,
  // between and beyond the branch points: the network's G̃ against the fields solved directly,
  // with the source on either interface (reciprocity), within 1e-9. The direct fields decay
  // like e^{−kρ Δz} between the interfaces; kρ is kept where that is ≥ 1e-3 of the source's.
  const std::vector<Interfaces> cases{
      broadside_stripline(),
      {{{kRo4003}, {kMask, kCore}, {}, Top::air}, 1, 3},
      {{{kRo4003}, {kMask, kCore}, {}, Top::air}, 2, 3},
      {{{kRo4003, kCore, kMask}, {kRo4003}, {}, Top::ground}, 1, 3},
      {{{kRo4003, kCore, kMask}, {kRo4003}, {}, Top::ground}, 2, 2}};
  for (Interfaces c : cases)
    for (const double sigma : {0.0, 5.8e7}) {
      c.stack.ground = sigma > 0 ? Conductor{sigma, 35e-6} : Conductor{};
      for (const double f : {1e9, 10e9}) {
        const LayeredSpectrum l(c.stack, f, c.source, c.observer);
        const double k0 = l.k0();
        for (const cd kr : {cd(0.5 * k0, 0.0), cd(1.4 * k0, 0.1 * k0), cd(1.9 * k0, 0.0),
                            cd(3.0 * k0, 0.5 * k0), cd(1500.0, 0.0), cd(4000.0, 0.0)}) {
          const Pair got = l.exact(kr);
          for (const auto& [source, observer] :
               {std::pair{c.source, c.observer}, std::pair{c.observer, c.source}}) {
            const Pair want = by_the_fields(c.stack, f, kr, source, observer);
            for (int i = 0; i < 2; ++i)
              EXPECT_LT(std::abs(got[i] - want[i]), 1e-9 * std::abs(want[i]))
                  << "interfaces " << source << " -> " << observer << " sigma " << sigma
                  << " f " << f << " kr " << kr << " component " << i;
          }
        }
      }
    }
}

TEST(LayeredSpectrum, ACoverOfAirOrOfNoThicknessIsNoCover) {
  // εr = 1 over the strips is the air it replaces; a layer 1 nm thick changes G̃ by ~kρ·1 nm.
  const Slab slab{3.38, 0.0027, 0.508e-3};
  const double f = 5e9;
  const LayeredSpectrum bare(one_layer(slab), f);
  Stackup air_cover = one_layer(slab);
  air_cover.above = {{1.0, 0.0, 0.3e-3}};
  Stackup thin_cover = one_layer(slab);
  thin_cover.above = {{4.0, 0.0, 1e-9}};
  const LayeredSpectrum air(air_cover, f), thin(thin_cover, f);
  for (const cd kr : {cd(1.5 * bare.k0(), 0.0), cd(2000.0, 0.0)}) {
    const Pair b = bare.exact(kr), a = air.exact(kr), t = thin.exact(kr);
    for (int i = 0; i < 2; ++i) {
      EXPECT_LT(std::abs(a[i] - b[i]), 1e-13 * std::abs(b[i]));
      EXPECT_LT(std::abs(t[i] - b[i]), 1e-5 * std::abs(b[i]));
      EXPECT_GT(std::abs(t[i] - b[i]), 1e-12 * std::abs(b[i]));
    }
  }
}

TEST(LayeredSpectrum, BadStacksAreErrorsNamingTheLayer) {
  const Layer ok{3.38, 0.0, 0.5e-3};
  const auto message = [](const Stackup& s) {
    try {
      LayeredSpectrum(s, 1e9);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({{}, {ok}, {}, Top::air}).find("at least one layer under"), std::string::npos);
  EXPECT_NE(message({{ok}, {}, {}, Top::ground}).find("cover ground"), std::string::npos);
  EXPECT_NE(message({{ok}, {ok, {0.5, 0.0, 1e-4}}, {}, Top::air}).find("layer 2 over the strips"),
            std::string::npos);
  EXPECT_NE(message({{{3.0, 0.0, -1.0}}, {}, {}, Top::air}).find("thickness"), std::string::npos);
  // Metal on the cover ground, or on no interface.
  try {
    LayeredSpectrum({{ok}, {ok}, {}, Top::ground}, 1e9, 1, 2);
    ADD_FAILURE() << "metal on the cover ground accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("interfaces 1 to 1"), std::string::npos) << e.what();
  }
  EXPECT_THROW(LayeredSpectrum({{ok}, {ok}, {}, Top::air}, 1e9, 0, 1), std::invalid_argument);
}

// The table's G at ρ (the full G, c/ρ added).
GreensValues at(const GreensTable& t, double rho) { return t(rho); }

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

TEST(LayeredTable, ASplitSubstrateOrAnAirCoverIsTheSlab) {
  // The slab's table (closed-form images, greens.hpp) against the stack's route (static part
  // transformed on the real axis, remainder on the path) on the same board written as two
  // layers of the same εr, or with a cover of air: RO4003 and FR-4 at 3 GHz, copper ground
  // too, ρ from 0 to 0.1 m at the slab table's samples and midpoints. Both tables are built to
  // 1e-6; bar 3e-6 of |G|.
  for (const Slab slab : {Slab{3.38, 0.0027, 0.508e-3, {5.8e7, 35e-6}}, Slab{4.4, 0.02, 1.6e-3}}) {
    const double f = 3e9, rho_max = 0.1;
    auto t0 = std::chrono::steady_clock::now();
    const GreensTable reference(slab, f, rho_max);
    const double t_slab = seconds_since(t0);
    Stackup split = one_layer(slab);
    split.below = {{slab.eps_r, slab.loss_tangent, 0.4 * slab.height_m},
                   {slab.eps_r, slab.loss_tangent, 0.6 * slab.height_m}};
    Stackup air = one_layer(slab);
    air.above = {{1.0, 0.0, 0.2e-3}};
    for (const Stackup& stack : {split, air}) {
      t0 = std::chrono::steady_clock::now();
      const GreensTable layered(stack, f, rho_max);
      const double t_stack = seconds_since(t0);
      double worst = 0;
      const std::vector<double>& rho = reference.sample_rho();
      for (std::size_t i = 1; i + 1 < rho.size(); ++i)
        for (const double r : {rho[i], 0.5 * (rho[i] + rho[i + 1])}) {
          const GreensValues a = at(reference, r), b = at(layered, r);
          worst = std::max({worst, std::abs(a.g_a - b.g_a) / std::abs(a.g_a),
                            std::abs(a.g_v - b.g_v) / std::abs(a.g_v)});
        }
      const GreensValues s0 = reference.smooth(0.0), l0 = layered.smooth(0.0);
      const double at_zero = std::max(std::abs(s0.g_a - l0.g_a) / std::abs(s0.g_a),
                                      std::abs(s0.g_v - l0.g_v) / std::abs(s0.g_v));
      std::printf("[layered table] eps %.2f, %s: worst %.2e, smooth(0) %.2e; built in %.2f s "
                  "(the slab's %.2f s, %zu samples)\n",
                  slab.eps_r, stack.above.empty() ? "two layers" : "an air cover", worst,
                  at_zero, t_stack, t_slab, rho.size());
      EXPECT_LT(worst, 3e-6);
      EXPECT_LT(at_zero, 3e-6);
    }
  }
}

// The table of source → observer at f against the spectral functions integrated whole along
// the table's path, nothing extracted (tail from decay 1), at the midpoints of every 7th of its
// sample intervals from min_rho: the worst error relative to |G|, or to 1e-4 of the source
// interface's c/ρ where G falls below that.
struct WholeCheck {
  double worst = 0;
  int points = 0;
  double built = 0;  // the table's seconds
  std::size_t samples = 0;
  double first = 0;  // the first ρ checked
};
WholeCheck against_the_whole_integral(const Stackup& stack, int source, int observer, double f,
                                      double min_rho) {
  const auto t0 = std::chrono::steady_clock::now();
  const GreensTable table(stack, source, observer, f, 0.1);
  WholeCheck w;
  w.built = seconds_since(t0);
  const LayeredSpectrum spectrum(stack, f, source, observer);
  const SingularCoefficients c = spectrum.scale();
  EXPECT_EQ(table.singular().a, source == observer ? c.a : cd(0.0));
  PathOptions p;
  p.rel_tol = 1e-8;
  const std::vector<double>& rho = table.sample_rho();
  w.samples = rho.size();
  for (std::size_t i = 0; i + 1 < rho.size(); i += 7) {
    const double r = 0.5 * (rho[i] + rho[i + 1]);
    if (r < min_rho) continue;
    if (w.points == 0) w.first = r;
    const Accuracy<2> acc{p.rel_tol, {0.0, 0.0},
                          {1e-3 * std::abs(c.a) / r, 1e-3 * std::abs(c.v) / r}};
    const Pair whole = path_integral(spectrum.path_scale(), r, p, acc, 1.0,
                                     [&](cd kr) { return spectrum.exact(kr); });
    const GreensValues g = table(r);
    const auto error = [&](cd got, cd want, cd coefficient) {
      return std::abs(got - want) / std::max(std::abs(want), 1e-4 * std::abs(coefficient) / r);
    };
    w.worst = std::max({w.worst, error(g.g_a, whole[0], c.a), error(g.g_v, whole[1], c.v)});
    ++w.points;
  }
  return w;
}

TEST(LayeredTable, ACoveredBoardsTableIsItsSpectrumIntegratedWholly) {
  // A solder mask over RO4003, FR-4 buried under 0.8 mm, the 50 Ω stripline, at 3 and 15 GHz:
  // the table (static part on the real axis + remainder on the path, interpolated) against the
  // spectral functions integrated whole along the same path, nothing extracted (tail from
  // decay 1), at ρ from 0.2 mm (below that the whole integral converges too slowly to be a
  // reference) to 0.1 m, between the table's samples. Bar 1e-5 of |G|, or 1e-9 of c/ρ where G
  // falls below that (the stripline's G falls like e^{−πρ/b}; both sides are noise there).
  const Layer ro4003{3.38, 0.0027, 0.508e-3}, mask{3.8, 0.02, 50e-6}, fr4{4.4, 0.02, 1.6e-3};
  const std::vector<Stackup> stacks{{{ro4003}, {mask}, {}, Top::air},
                                    {{fr4}, {{4.4, 0.02, 0.8e-3}}, {}, Top::air},
                                    {{ro4003}, {ro4003}, {}, Top::ground}};
  for (const Stackup& stack : stacks)
    for (const double f : {3e9, 15e9}) {
      const WholeCheck w = against_the_whole_integral(stack, stack.strips(), stack.strips(), f, 0.2e-3);
      std::printf("[layered table] %zu+%zu layers, %s on top, %.0f GHz: worst %.2e over %d "
                  "points; built in %.2f s (%zu samples)\n",
                  stack.below.size(), stack.above.size(),
                  stack.top == Top::air ? "air" : "a ground", f * 1e-9, w.worst, w.points,
                  w.built, w.samples);
      EXPECT_LT(w.worst, 1e-5);
    }
}

TEST(LayeredTable, BetweenTwoInterfacesItIsTheSpectrumIntegratedWholly) {
  // Metal on two interfaces: a broadside stripline (RO4003 outside, a 0.2 mm FR-4 core) and a
  // microstrip with metal on its 50 µm mask too; and the mask's top alone (an interface that
  // is not the strips'). At 3 and 15 GHz, as above: between two interfaces at every ρ (G̃ falls
  // like e^{−kρ Δz}, so the whole integral converges at ρ = 0 too), on one from 0.2 mm.
  const std::vector<Interfaces> cases{broadside_stripline(),
                                      {{{kRo4003}, {kMask}, {}, Top::air}, 2, 1},
                                      {{{kRo4003}, {kMask}, {}, Top::air}, 2, 2}};
  for (const Interfaces& c : cases)
    for (const double f : {3e9, 15e9}) {
      const bool between = c.source != c.observer;
      const WholeCheck w =
          against_the_whole_integral(c.stack, c.source, c.observer, f, between ? 0.0 : 0.2e-3);
      std::printf("[layered table] interfaces %d -> %d of %zu+%zu layers, %.0f GHz: worst %.2e "
                  "over %d points (from %.2g mm); built in %.2f s (%zu samples)\n",
                  c.source, c.observer, c.stack.below.size(), c.stack.above.size(), f * 1e-9,
                  w.worst, w.points, w.first * 1e3, w.built, w.samples);
      EXPECT_LT(w.worst, 1e-5);
    }
}

}  // namespace
