// Closed-form references for the Green's function tests: the exact image solution of air over
// ground and the electrostatic image series of a charge on a grounded slab.
#pragma once

#include <cmath>
#include <complex>

#include "planarmom/mom/constants.hpp"

namespace pmom::mom::test {

// εr = 1: G_A/μ0 = ε0 G_V = (e^{−jk0R}/R − e^{−jk0R'}/R')/(4π), R = ρ, R' = √(ρ² + 4h²).
inline std::complex<double> air_over_ground(double k0, double h, double rho) {
  const double r2 = std::sqrt(rho * rho + 4.0 * h * h);
  const std::complex<double> j(0.0, 1.0);
  return (std::exp(-j * k0 * rho) / rho - std::exp(-j * k0 * r2) / r2) / (4.0 * pi);
}

// Static G_V of a unit charge on the interface. The static spectral function
// tanh(kh)/(ε0 k (εr + tanh kh)) = (1 − E)/(ε0 k (1+εr)(1 − K E)), E = e^{−2kh},
// K = (1 − εr)/(1 + εr), expands as [1 + (K − 1) Σ_{n≥1} K^{n−1} E^n]/(ε0 (1+εr) k), and
// (1/2π)∫ e^{−kz} J0(kρ) dk = 1/(2π √(ρ² + z²)) term by term.
inline double static_scalar_potential(double eps_r, double h, double rho) {
  const double k = (1.0 - eps_r) / (1.0 + eps_r);
  double sum = 0.0;
  double k_power = 1.0;
  for (int n = 1; std::abs(k_power) > 1e-18; ++n) {
    sum += k_power / std::sqrt(rho * rho + 4.0 * n * n * h * h);
    k_power *= k;
  }
  return (1.0 / rho + (k - 1.0) * sum) / (2.0 * pi * eps0 * (1.0 + eps_r));
}

inline double relative_error(std::complex<double> got, std::complex<double> expected) {
  return std::abs(got - expected) / std::abs(expected);
}

}  // namespace pmom::mom::test
