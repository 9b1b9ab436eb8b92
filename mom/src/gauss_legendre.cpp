// Gauss–Legendre nodes and weights by Newton iteration on the Legendre recurrence.
#include "planarmom/mom/gauss_legendre.hpp"

#include <cmath>
#include <cstddef>
#include <stdexcept>

#include "planarmom/mom/constants.hpp"

namespace pmom::mom {

GaussRule gauss_legendre(int n) {
  if (n < 1) throw std::invalid_argument("gauss_legendre: n must be >= 1");
  const auto size = static_cast<std::size_t>(n);
  GaussRule rule{std::vector<double>(size), std::vector<double>(size)};
  for (int k = 0; k < n; ++k) {
    // Root k of P_n on [−1, 1], largest first, from the standard asymptotic guess.
    double t = std::cos(pi * (k + 0.75) / (n + 0.5));
    double derivative = 1.0;
    for (int iteration = 0; iteration < 100; ++iteration) {
      double p0 = 1.0, p1 = t;
      for (int order = 2; order <= n; ++order) {
        const double p2 = ((2.0 * order - 1.0) * t * p1 - (order - 1.0) * p0) / order;
        p0 = p1;
        p1 = p2;
      }
      derivative = n * (t * p1 - p0) / (t * t - 1.0);
      const double step = p1 / derivative;
      t -= step;
      if (std::abs(step) < 1e-16) break;
    }
    // Map to [0, 1]: node (1 + t)/2 ascending, weight halved.
    const auto index = static_cast<std::size_t>(k);
    rule.x[index] = 0.5 * (1.0 - t);
    rule.w[index] = 1.0 / ((1.0 - t * t) * derivative * derivative);
  }
  return rule;
}

}  // namespace pmom::mom
