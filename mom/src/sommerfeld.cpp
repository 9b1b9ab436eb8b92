// Sommerfeld integration of the grounded-slab spectral functions: a deformed path above the
// branch point and the surface-wave poles, then the real axis with a weighted-averages tail
// (Michalski & Mosig 1997; Mosig & Gardiol).
#include "spectral.hpp"

namespace pmom::mom {

Pair sommerfeld(const SlabSpectrum& s, double rho, const PathOptions& p, const Pair& offset,
                const SingularCoefficients& c) {
  const bool extract = p.extraction == Extraction::quasi_static;
  // Without extraction G cancels to O(h²/ρ²) of its parts when h ≪ ρ, so ask less there.
  const double floor_factor = extract ? 1e-6 : 1e-3;
  const Accuracy<2> acc{p.rel_tol, offset,
                        {floor_factor * std::abs(c.a) / (rho + s.h),
                         floor_factor * std::abs(c.v) / (rho + s.h)}};
  // The remainder decays like kρ⁻³, the full spectral functions like kρ⁻¹.
  return path_integral(s.path_scale(), rho, p, acc, extract ? 3.0 : 1.0, [&](std::complex<double> kr) {
    return extract ? s.remainder(kr) : s.exact(kr);
  });
}

}  // namespace pmom::mom
