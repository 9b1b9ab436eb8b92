// Matrix pencil and standing-wave fits on synthetic data with known answers.
#include <gtest/gtest.h>

#include <random>

#include "planarmom/mom/constants.hpp"
#include "planarmom/mom/line_fit.hpp"

namespace pmom::mom {
namespace {

std::vector<cplx> standing_wave(cplx gamma, cplx f, cplx b, double dx, int n, double noise,
                                unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> g(0, noise);
  std::vector<cplx> s;
  for (int k = 0; k < n; ++k) {
    const double x = k * dx;
    s.push_back(f * std::exp(-gamma * x) + b * std::exp(gamma * x) + cplx(g(rng), g(rng)));
  }
  return s;
}

// A 50 Ω line on εr 3.38: εeff ≈ 2.68 at 3 GHz, small loss; 20 samples of 0.118 mm (the
// MoM's cell) cover about a fifth of a guided wavelength, as a short feed does.
TEST(LineFit, RecoversPropagationConstantAndWavesWithoutNoise) {
  const double f = 3e9, eeff = 2.68, dx = 0.118e-3;
  const cplx gamma(0.5, 2 * pi * f * std::sqrt(eeff) / c0);
  const cplx fw(1.0, 0.2), bw(-0.3, 0.4);
  const StandingWave w = fit_standing_wave(standing_wave(gamma, fw, bw, dx, 20, 0, 1), dx);
  EXPECT_NEAR(std::abs(w.gamma - gamma) / std::abs(gamma), 0, 1e-9);
  EXPECT_NEAR(std::abs(w.forward - fw), 0, 1e-9);
  EXPECT_NEAR(std::abs(w.backward - bw), 0, 1e-9);
  EXPECT_NEAR(std::pow(w.gamma.imag() * c0 / (2 * pi * f), 2), eeff, 1e-8);
}

// With noise at 1e-5 of the signal, γ stays within 0.1% over a longer feed (60 samples): the
// accuracy the εeff check (2%) needs with margin.
TEST(LineFit, ToleratesNoise) {
  const double f = 6e9, eeff = 3.3, dx = 0.2e-3;
  const cplx gamma(1.0, 2 * pi * f * std::sqrt(eeff) / c0);
  const StandingWave w =
      fit_standing_wave(standing_wave(gamma, {1, 0}, {0.5, -0.5}, dx, 60, 1e-5, 7), dx);
  EXPECT_LT(std::abs(w.gamma.imag() - gamma.imag()) / gamma.imag(), 1e-3);
}

TEST(LineFit, MatrixPencilFindsThreeModes) {
  const std::vector<cplx> z{{0.9, 0.1}, {0.5, -0.6}, {-0.2, 0.95}};
  const std::vector<cplx> a{{1, 0}, {0.3, 0.3}, {-0.5, 0.1}};
  std::vector<cplx> s(30);
  for (int k = 0; k < 30; ++k)
    for (int i = 0; i < 3; ++i) s[k] += a[i] * std::pow(z[i], k);
  const Exponentials e = matrix_pencil(s, 3);
  for (const cplx& zi : z) {
    const auto it = std::min_element(e.poles.begin(), e.poles.end(), [&](cplx p, cplx q) {
      return std::abs(p - zi) < std::abs(q - zi);
    });
    EXPECT_LT(std::abs(*it - zi), 1e-9);
  }
  EXPECT_THROW(matrix_pencil(std::span<const cplx>(s).first(4), 2), std::invalid_argument);
}

}  // namespace
}  // namespace pmom::mom
