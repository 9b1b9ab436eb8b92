// Gauss–Legendre rules on [0, 1], for the fixed product rules of the MoM assembly.
#pragma once

#include <vector>

namespace pmom::mom {

struct GaussRule {
  std::vector<double> x;  // nodes in (0, 1), increasing
  std::vector<double> w;  // weights, summing to 1
};

// The n-point rule (n ≥ 1), exact for polynomials of degree ≤ 2n − 1. Nodes by Newton's
// method on P_n from the Chebyshev-like initial guesses; accurate to round-off for n ≤ 100.
GaussRule gauss_legendre(int n);

}  // namespace pmom::mom
