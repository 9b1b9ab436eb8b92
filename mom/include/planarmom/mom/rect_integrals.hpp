// Closed forms of the static 1/R kernel over an axis-aligned rectangle, for the singular
// self/near terms of the MoM assembly (DESIGN §5: "integrate the 1/R part analytically").
//
// With the observer at the origin and the rectangle [X1, X2] × [Y1, Y2] (relative
// coordinates, source minus observer, any units), R = √(X² + Y²):
//   I0 = ∫∫ dX dY / R,      antiderivative F0 = X ln(Y + R) + Y ln(X + R),
//   I1 = ∫∫ X dX dY / R,    antiderivative F1 = (Y R + X² ln(Y + R)) / 2
// (∂Y of F1 is (R + (X² + Y²)/R)/2 = R = ∫ X/R dX), each evaluated at the four corners with
// alternating signs. I1 gives linearly weighted (rooftop) sources. Logs at zero: p ln(q + R)
// → 0 as p → 0 (q + R vanishes only when p = 0 and q ≤ 0), so such terms are set to 0; for
// q < 0, q + R is computed as p²/(R − q) to avoid cancellation.
//
// Plain inline functions, no exceptions or allocation: usable from a GPU assembly kernel.
#pragma once

#include <cmath>

#include "planarmom/mom/hd.hpp"

namespace pmom::mom {

// ln(q + √(p² + q²)) for (p, q) ≠ (0, q ≤ 0).
PLANARMOM_HD inline double log_q_plus_r(double p, double q, double r) {
  return std::log(q >= 0.0 ? q + r : (p * p) / (r - q));
}

// p ln(q + R), continuous extension 0 at p = 0.
PLANARMOM_HD inline double p_log_q_plus_r(double p, double q, double r) {
  return p == 0.0 ? 0.0 : p * log_q_plus_r(p, q, r);
}

PLANARMOM_HD inline double inv_r_antiderivative(double x, double y) {
  const double r = std::sqrt(x * x + y * y);
  return p_log_q_plus_r(x, y, r) + p_log_q_plus_r(y, x, r);
}

PLANARMOM_HD inline double x_over_r_antiderivative(double x, double y) {
  const double r = std::sqrt(x * x + y * y);
  return 0.5 * (y * r + x * p_log_q_plus_r(x, y, r));
}

// I0 over [x1, x2] × [y1, y2].
PLANARMOM_HD inline double rect_inv_r(double x1, double x2, double y1, double y2) {
  return inv_r_antiderivative(x2, y2) - inv_r_antiderivative(x1, y2) -
         inv_r_antiderivative(x2, y1) + inv_r_antiderivative(x1, y1);
}

// I1 over [x1, x2] × [y1, y2].
PLANARMOM_HD inline double rect_x_over_r(double x1, double x2, double y1, double y2) {
  return x_over_r_antiderivative(x2, y2) - x_over_r_antiderivative(x1, y2) -
         x_over_r_antiderivative(x2, y1) + x_over_r_antiderivative(x1, y1);
}

}  // namespace pmom::mom
