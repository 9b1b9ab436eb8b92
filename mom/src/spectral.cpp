// Grounded-slab spectral functions (Mosig & Gardiol; Michalski & Mosig 1997) and the
// closed-form transform of their quasi-static part.
#include "spectral.hpp"

#include <cmath>

#include "planarmom/mom/constants.hpp"

namespace pmom::mom {
namespace {

using cd = std::complex<double>;

// u coth(uh) = u + cx and u tanh(uh) = u − tx with cx = 2uE/(1 − E), tx = 2uE/(1 + E),
// E = e^{−2uh} (|E| ≤ 1 as Re u ≥ 0). Splitting off u lets differences between u and u0
// versions be formed without cancellation; the Taylor branch avoids 0/0 at u → 0.
struct Hyperbolic {
  cd cx;
  cd tx;
};

Hyperbolic hyperbolic(cd u, double h) {
  const cd x = u * h;
  if (std::abs(x) < 1e-3) {  // next Taylor terms ~|x|⁶ < 1e-18
    const cd x2 = x * x;
    const cd ucoth = (1.0 + x2 / 3.0 - x2 * x2 / 45.0) / h;
    const cd utanh = (x2 - x2 * x2 / 3.0) / h;
    return {ucoth - u, u - utanh};
  }
  const cd e = std::exp(-2.0 * x);
  return {2.0 * u * e / (1.0 - e), 2.0 * u * e / (1.0 + e)};
}

// A lossy ground (greens.hpp): hy's cx and tx become those of u C and u T, and `extra` is
// u0 (uC·uT − u²)/kρ², the term G̃_V's numerator gains. With u²csch² = cx(2u + cx) and
// u²sech² = tx(2u − tx), uC − u coth = −a u²csch²/(1 + a u coth) and uT − u tanh =
// b u²sech²/(u² + b u tanh) are formed without cancellation; both vanish like e^{−2uh}.
cd load_ground(const SlabSpectrum& s, cd kr, cd u0, cd u, Hyperbolic& hy) {
  const cd u_coth = u + hy.cx, u_tanh = u - hy.tx;
  const cd dc = -s.ground_a * hy.cx * (2.0 * u + hy.cx) / (1.0 + s.ground_a * u_coth);
  const cd dt = s.ground_b * hy.tx * (2.0 * u - hy.tx) / (u * u + s.ground_b * u_tanh);
  hy.cx += dc;
  hy.tx -= dt;
  return u0 * (u_tanh * dc + u_coth * dt + dc * dt) / (kr * kr);
}

}  // namespace

SlabLines SlabSpectrum::lines(cd kr) const {
  const cd u0 = std::sqrt(kr * kr - k0 * k0);  // principal root: Re u0 ≥ 0, the proper sheet
  const cd u = std::sqrt(kr * kr - eps * k0 * k0);
  Hyperbolic hy = hyperbolic(u, h);
  const cd extra = ground_a == 0.0 ? 0.0 : load_ground(*this, kr, u0, u, hy);
  return {u0, u, hy.cx, hy.tx, extra};
}

Pair SlabSpectrum::exact(cd kr) const {
  const SlabLines l = lines(kr);
  const cd d_te = l.u0 + l.u + l.cx;
  const cd d_tm = eps * l.u0 + l.u - l.tx;
  const cd num = l.u0 + l.u - l.tx + l.extra;
  return {mu0 / d_te, num / (eps0 * d_te * d_tm)};
}

Pair SlabSpectrum::remainder(cd kr) const {
  const SlabLines l = lines(kr);
  const cd u0 = l.u0, u = l.u, extra = l.extra;
  const Hyperbolic hy{l.cx, l.tx};
  const Hyperbolic hy0 = hyperbolic(u0, h);  // G̃_qs: u0 for u, the ground perfect
  const cd du = (1.0 - eps) * k0 * k0 / (u + u0);  // u − u0 without cancellation
  const cd dc = du + (hy.cx - hy0.cx);            // u coth(uh) − u0 coth(u0h)
  const cd dt = du - (hy.tx - hy0.tx);            // u tanh(uh) − u0 tanh(u0h)
  const cd t0 = u0 - hy0.tx;
  const cd d_te0 = 2.0 * u0 + hy0.cx;
  const cd d_tm0 = eps * u0 + t0;
  const cd num0 = u0 + t0;
  const cd d_te = d_te0 + dc;
  const cd d_tm = d_tm0 + dt;
  // N/(D M) − N0/(D0 M0) over a common denominator; N − N0 = dt + extra, M − M0 = dt,
  // D − D0 = dc.
  const cd num_v = (dt + extra) * d_te0 * d_tm0 - num0 * (dc * d_tm0 + d_te * dt);
  return {-mu0 * dc / (d_te * d_te0), num_v / (eps0 * d_te * d_tm * d_te0 * d_tm0)};
}

Pair quasi_static_smooth(const SlabSpectrum& s, double rho) {
  // (e^{−jk0ρ} − 1)/ρ, written without cancellation; −jk0 at ρ = 0.
  const double x = s.k0 * rho;
  const cd direct = rho == 0.0
                        ? cd(0.0, -s.k0)
                        : cd(-2.0 * std::sin(0.5 * x) * std::sin(0.5 * x), -std::sin(x)) / rho;
  auto image = [&](double depth) {
    const double r = std::sqrt(rho * rho + depth * depth);
    return std::exp(cd(0.0, -s.k0 * r)) / r;
  };
  const cd g_a = mu0 / (4.0 * pi) * (direct - image(2.0 * s.h));
  // Static images of a charge on the interface, K = (1 − εr)/(1 + εr): expanding
  // (1 − E)/(1 − K E), E = e^{−2u0h}, gives 1 + (K − 1) Σ_{n≥1} K^{n−1} E^n.
  const cd k = (1.0 - s.eps) / (1.0 + s.eps);
  cd images = 0.0;
  cd k_power = 1.0;  // K^{n−1}
  for (int n = 1; std::abs(k_power) > 1e-17 * n; ++n) {
    images += k_power * image(2.0 * n * s.h);
    k_power *= k;
  }
  const cd g_v = (direct + (k - 1.0) * images) / (2.0 * pi * eps0 * (1.0 + s.eps));
  return {g_a, g_v};
}

}  // namespace pmom::mom
