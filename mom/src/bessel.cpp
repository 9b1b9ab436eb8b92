// J0 of complex argument: series, Miller recurrence and Hankel asymptotics by |z|.
#include "planarmom/mom/bessel.hpp"

#include <cmath>

#include "planarmom/mom/constants.hpp"

namespace pmom::mom {
namespace {

using cd = std::complex<double>;

// Σ (−z²/4)^k / (k!)²: terms stay below I0(|z|) ≤ 11.3 for |z| < 4, so the cancellation
// costs at most one digit.
cd series(cd z) {
  const cd w = -0.25 * z * z;
  cd term = 1.0;
  cd sum = 1.0;
  for (int k = 1; k < 60; ++k) {
    term *= w / (static_cast<double>(k) * static_cast<double>(k));
    sum += term;
    if (std::abs(term) < 1e-17 * std::abs(sum)) break;
  }
  return sum;
}

// Miller's algorithm (Abramowitz & Stegun 9.12): J_{n−1} = (2n/z) J_n − J_{n+1} from a start
// order well above |z|, where J_n decays super-exponentially, normalised by
// 1 = J0 + 2 Σ_{k≥1} J_{2k} (valid for all complex z).
cd miller(cd z) {
  const int start = 2 * static_cast<int>((1.2 * std::abs(z) + 30.0) / 2.0);
  const cd inv_z = 1.0 / z;
  cd j_next = 0.0;  // J_{n+1}
  cd j = 1e-30;     // J_n, arbitrary scale
  cd even_sum = 0.0;
  for (int n = start; n >= 1; --n) {
    const cd j_prev = 2.0 * static_cast<double>(n) * inv_z * j - j_next;
    j_next = j;
    j = j_prev;
    if ((n - 1) % 2 == 0 && n - 1 > 0) even_sum += 2.0 * j;
    if (std::abs(j) > 1e250) {  // rescale before overflow; only ratios matter
      j *= 1e-250;
      j_next *= 1e-250;
      even_sum *= 1e-250;
    }
  }
  return j / (j + even_sum);
}

// Hankel's expansion (A&S 9.2.5): J0 = sqrt(2/(πz)) (P cos χ − Q sin χ), χ = z − π/4. For
// |z| ≥ 25 the smallest term is ~e^{−2|z|} < 1e-21, far below double precision.
cd hankel(cd z) {
  const cd inv_z = 1.0 / z;
  cd p = 0.0;
  cd q = 0.0;
  cd term = 1.0;  // a_k / z^k with a_k = Π (2i−1)² / (k! 8^k)
  for (int k = 0; k < 60; ++k) {
    if (k > 0) {
      const double m = 2.0 * k - 1.0;
      term *= m * m / (8.0 * k) * inv_z;
    }
    // a_k(0) carries (−1)^k: P = Σ (−1)^m a_2m z^{−2m} = 1 − 9/(128 z²) + …,
    // Q = Σ (−1)^m a_{2m+1} z^{−2m−1} = −1/(8z) + ….
    const double sign = (k / 2) % 2 == 0 ? 1.0 : -1.0;
    if (k % 2 == 0) p += sign * term;
    else q -= sign * term;
    if (std::abs(term) < 1e-18) break;
  }
  const cd chi = z - 0.25 * pi;
  return std::sqrt(2.0 / (pi * z)) * (p * std::cos(chi) - q * std::sin(chi));
}

}  // namespace

std::complex<double> bessel_j0(std::complex<double> z) {
  if (z.real() < 0.0) z = -z;  // J0 is even; the asymptotic form wants Re z ≥ 0
  const double r = std::abs(z);
  if (r < 4.0) return series(z);
  if (r < 25.0) return miller(z);
  return hankel(z);
}

}  // namespace pmom::mom
