// Bessel function J0 of complex argument, for Sommerfeld integrals on deformed paths.
#pragma once

#include <complex>

namespace pmom::mom {

// J0(z) for complex z with |Im z| small to moderate (the Sommerfeld paths keep |Im z| ≲ 1).
// Power series for |z| < 4, Miller's backward recurrence normalised by
// 1 = J0 + 2 Σ J_2k up to |z| < 25, Hankel's asymptotic expansion beyond.
// Absolute error about 1e-15 on the real axis.
std::complex<double> bessel_j0(std::complex<double> z);

}  // namespace pmom::mom
