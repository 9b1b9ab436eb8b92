// The adaptive sweep's fit (rational_fit.hpp) and sampling (adaptive_sampler.hpp) on functions
// whose poles and residues are known: AAA recovers a rational function to rounding, and the
// sampler reaches its tolerance on a two-resonator response with far fewer solves than points.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <iostream>
#include <vector>

#include "planarmom/sweep/adaptive_sampler.hpp"
#include "planarmom/sweep/rational_fit.hpp"
#include "support/solve_noise.hpp"

namespace pmom::sweep {
namespace {

using cd = std::complex<double>;

// constant + Σ_p residue_p / (f − pole_p) per component; f in Hz.
struct Rational {
  std::vector<cd> poles_hz;
  std::vector<std::vector<cd>> residues;  // [pole][component]
  std::vector<cd> constant;
  [[nodiscard]] std::vector<cd> operator()(double f) const {
    std::vector<cd> v = constant;
    for (std::size_t p = 0; p < poles_hz.size(); ++p)
      for (std::size_t k = 0; k < v.size(); ++k) v[k] += residues[p][k] / (f - poles_hz[p]);
    return v;
  }
};

// Two coupled resonators near 5 GHz (Q about 50) seen as S11, S21 = S12, S22: poles below the
// real axis by half their bandwidth, residues of a few hundred MHz.
Rational two_resonators() {
  Rational r;
  r.poles_hz = {cd(4.9e9, -0.05e9), cd(5.1e9, -0.05e9), cd(7.5e9, -2e9)};
  r.residues = {{cd(0.02e9, 0.04e9), cd(-0.05e9, 0.01e9), cd(-0.05e9, 0.01e9), cd(0.03e9, 0.0)},
                {cd(-0.03e9, 0.05e9), cd(0.05e9, -0.02e9), cd(0.05e9, -0.02e9), cd(0.01e9, 0.04e9)},
                {cd(0.2e9, 0.1e9), cd(0.1e9, 0.0), cd(0.1e9, 0.0), cd(-0.3e9, 0.2e9)}};
  r.constant = {cd(-0.1, 0.2), cd(0.0, 0.05), cd(0.0, 0.05), cd(0.3, -0.1)};
  return r;
}

std::vector<double> grid(double start, double stop, std::size_t points) {
  std::vector<double> f(points);
  for (std::size_t i = 0; i < points; ++i)
    f[i] = start + (stop - start) * static_cast<double>(i) / static_cast<double>(points - 1);
  return f;
}

double largest_difference(const std::vector<cd>& a, const std::vector<cd>& b) {
  double d = 0;
  for (std::size_t k = 0; k < a.size(); ++k) d = std::max(d, std::abs(a[k] - b[k]));
  return d;
}

// r at every frequency of f, one row of entries each.
std::vector<cd> sampled(const Rational& r, const std::vector<double>& f) {
  std::vector<cd> samples;
  for (const double hz : f) {
    const std::vector<cd> v = r(hz);
    samples.insert(samples.end(), v.begin(), v.end());
  }
  return samples;
}

TEST(RationalFit, RecoversARationalFunctionItsPolesAndResidues) {
  const Rational r = two_resonators();
  const std::vector<double> f = grid(4e9, 6e9, 40);
  const std::vector<cd> samples = sampled(r, f);
  const RationalModel model = aaa_fit(f, samples, 1e-13);
  // Three poles: four support points. Off the samples it is the function, to rounding.
  EXPECT_EQ(model.support_hz().size(), 4u);
  for (const double hz : grid(4e9, 6e9, 333))
    EXPECT_LT(largest_difference(model(hz), r(hz)), 1e-11) << hz;
  const RationalModel::PoleResidue pr = model.pole_residue();
  ASSERT_EQ(pr.poles_hz.size(), 3u);
  for (std::size_t p = 0; p < 3; ++p) {
    const auto found = std::min_element(pr.poles_hz.begin(), pr.poles_hz.end(), [&](cd a, cd b) {
      return std::abs(a - r.poles_hz[p]) < std::abs(b - r.poles_hz[p]);
    });
    EXPECT_LT(std::abs(*found - r.poles_hz[p]), 1e-6 * std::abs(r.poles_hz[p])) << p;
    const auto q = static_cast<std::size_t>(found - pr.poles_hz.begin());
    for (std::size_t k = 0; k < 4; ++k)
      EXPECT_LT(std::abs(pr.residues[q * 4 + k] - r.residues[p][k]), 1e-6 * 1e9) << p << k;
  }
  for (std::size_t k = 0; k < 4; ++k)
    EXPECT_LT(std::abs(pr.constant[k] - r.constant[k]), 1e-8) << k;
}

TEST(RationalFit, ReciprocalSamplesGiveAReciprocalModelExactly) {
  const Rational r = two_resonators();  // components 1 and 2 are S21 and S12
  const std::vector<double> f = grid(4e9, 6e9, 23);
  const std::vector<cd> samples = sampled(r, f);
  const RationalModel model = aaa_fit(f, samples, 1e-6);
  for (const double hz : grid(4.01e9, 5.99e9, 57)) {
    const std::vector<cd> v = model(hz);
    EXPECT_EQ(v[1], v[2]) << hz;
  }
}

TEST(RationalFit, AConstantNeedsOneSupportPointAndBadInputIsRefused) {
  const std::vector<cd> samples(5 * 2, cd(0.5, -0.25));
  const RationalModel model = aaa_fit(grid(1e9, 2e9, 5), samples, 1e-12);
  EXPECT_EQ(model.support_hz().size(), 1u);
  EXPECT_EQ(model(1.234e9)[1], cd(0.5, -0.25));
  EXPECT_THROW((void)aaa_fit({1e9, 1e9}, {cd(1), cd(2)}, 1e-3), std::invalid_argument);
  EXPECT_THROW((void)aaa_fit({1e9, 2e9}, {cd(1), cd(2), cd(3)}, 1e-3), std::invalid_argument);
  EXPECT_THROW((void)aaa_fit({}, {}, 1e-3), std::invalid_argument);
}

// The sampler driven as the sweep drives it, on the response r (S entries at a frequency in Hz)
// over f: the solves it asks for.
template <class Response>
std::size_t drive(AdaptiveSampler& sampler, const Response& r, const std::vector<double>& f) {
  for (const std::size_t i : sampler.initial()) sampler.add(i, r(f[i]));
  while (const auto i = sampler.next()) sampler.add(*i, r(f[*i]));
  return sampler.solves();
}

TEST(AdaptiveSampler, TwoResonatorsWithinTheToleranceFromAFewSolves) {
  const Rational r = two_resonators();
  const std::vector<double> f = grid(4e9, 6e9, 401);
  AdaptiveSampler sampler(f, 4, 1e-3);
  const std::size_t solves = drive(sampler, r, f);
  EXPECT_LE(solves, 25u);
  std::cout << "solves: " << solves << ", estimate " << sampler.estimate() << "\n";
  EXPECT_LE(sampler.estimate(), 1e-3);
  const AdaptiveFit fit = sampler.fit();
  double worst = 0;
  for (std::size_t i = 0; i < f.size(); ++i) {
    const std::vector<cd> v(fit.s.begin() + static_cast<std::ptrdiff_t>(4 * i),
                            fit.s.begin() + static_cast<std::ptrdiff_t>(4 * i + 4));
    worst = std::max(worst, largest_difference(v, r(f[i])));
    if (fit.solved[i]) {
      EXPECT_EQ(v, r(f[i])) << "a solved frequency keeps its solved S";
    }
  }
  EXPECT_LT(worst, 1e-3);
  EXPECT_EQ(static_cast<std::size_t>(std::count(fit.solved.begin(), fit.solved.end(), true)),
            solves);
  // Both resonances are in the model, where they are.
  const RationalModel::PoleResidue pr = fit.model.pole_residue();
  for (const cd p : {r.poles_hz[0], r.poles_hz[1]})
    EXPECT_TRUE(std::any_of(pr.poles_hz.begin(), pr.poles_hz.end(),
                            [p](cd q) { return std::abs(q - p) < 1e-3 * std::abs(p); }))
        << p;
}

// Not rational: the resonators behind a line of 1 ns (two turns of phase over the band), as
// a circuit between long feeds is. The sampler must still meet its tolerance everywhere.
TEST(AdaptiveSampler, ResonatorsBehindALineWithinTheTolerance) {
  const Rational r = two_resonators();
  const std::vector<double> f = grid(4e9, 6e9, 1001);
  const auto delayed = [&r](double hz) {
    std::vector<cd> v = r(hz);
    for (cd& x : v) x *= std::polar(1.0, -2 * M_PI * hz * 1e-9);
    return v;
  };
  AdaptiveSampler sampler(f, 4, 1e-3);
  drive(sampler, delayed, f);
  const AdaptiveFit fit = sampler.fit();
  double worst = 0;
  for (std::size_t i = 0; i < f.size(); ++i) {
    const std::vector<cd> v(fit.s.begin() + static_cast<std::ptrdiff_t>(4 * i),
                            fit.s.begin() + static_cast<std::ptrdiff_t>(4 * i + 4));
    worst = std::max(worst, largest_difference(v, delayed(f[i])));
  }
  std::cout << "solves: " << sampler.solves() << ", estimate " << sampler.estimate()
            << ", error " << worst << "\n";
  EXPECT_LT(worst, 1e-3);
  EXPECT_LE(sampler.solves(), 30u);
}

// A resonance of Q 300 half-way between two of the first solves, on a smooth background: its
// tail shows at them (about 2% of its peak), and the sampler must resolve it, not smooth it over.
TEST(AdaptiveSampler, AResonanceBetweenTheFirstSolvesIsFound) {
  const std::vector<double> f = grid(2e9, 4e9, 401);
  const double at = 2.5e9, half_bandwidth = at / 600;  // between 2.333 and 2.667 GHz
  Rational r;
  r.poles_hz = {cd(at, -half_bandwidth), cd(3.5e9, -1.5e9)};
  r.residues = {{cd(0.0, -0.9 * half_bandwidth)}, {cd(0.3e9, 0.1e9)}};
  r.constant = {cd(0.1, 0.0)};
  AdaptiveSampler sampler(f, 1, 1e-3);
  ASSERT_EQ(sampler.initial(), (std::vector<std::size_t>{0, 67, 133, 200, 267, 333, 400}));
  const std::size_t solves = drive(sampler, r, f);
  EXPECT_FALSE(sampler.stalled());
  const AdaptiveFit fit = sampler.fit();
  double worst = 0;
  for (std::size_t i = 0; i < f.size(); ++i)
    worst = std::max(worst, std::abs(fit.s[i] - r(f[i])[0]));
  std::cout << "solves: " << solves << ", error " << worst << "\n";
  EXPECT_LT(worst, 1e-3);
  const RationalModel::PoleResidue pr = fit.model.pole_residue();
  EXPECT_TRUE(std::any_of(pr.poles_hz.begin(), pr.poles_hz.end(), [&](cd q) {
    return std::abs(q - r.poles_hz[0]) < 0.1 * half_bandwidth;
  }));
}

// Solves with noise above the tolerance (1e-4 against 1e-6): the models never agree, and the
// sampler gives up within kStallSteps solves of its best instead of solving every frequency.
TEST(AdaptiveSampler, AToleranceBelowTheSolvesNoiseStalls) {
  const Rational r = two_resonators();
  const std::vector<double> f = grid(4e9, 6e9, 201);
  AdaptiveSampler sampler(f, 4, 1e-6);
  pmom::test::SolveNoise noise(1e-4, 12345);
  const auto noisy = [&](double hz) {
    std::vector<cd> v = r(hz);
    noise.add_to(v);
    return v;
  };
  drive(sampler, noisy, f);
  std::cout << "solves: " << sampler.solves() << ", best estimate " << sampler.best_estimate()
            << "\n";
  EXPECT_TRUE(sampler.stalled());
  EXPECT_GT(sampler.best_estimate(), 1e-6);
  EXPECT_LT(sampler.solves(), 100u) << "gave up long before solving every frequency";
}

TEST(AdaptiveSampler, AShortGridIsSolvedWhole) {
  const Rational r = two_resonators();
  const std::vector<double> f = grid(4e9, 6e9, 5);
  AdaptiveSampler sampler(f, 4, 1e-3);
  EXPECT_EQ(sampler.initial().size(), 5u);
  EXPECT_EQ(drive(sampler, r, f), 5u);
  EXPECT_THROW(sampler.add(2, r(f[2])), std::invalid_argument);
}

}  // namespace
}  // namespace pmom::sweep
