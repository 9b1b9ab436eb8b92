// ViaKernels: the vias' spectral kernels (via_greens.hpp), integrated on the Green's functions'
// path and sampled on their table's grid.
#include "planarmom/mom/via_greens.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <stdexcept>
#include <string>

#include "spectral.hpp"

namespace pmom::mom {

using cd = std::complex<double>;

// K̃_vh and K̃_vv − (jωμ0 h + Zs)/(kρ² + κ²) at kρ, κ = 1/h (via_greens.hpp), with
// th = tanh(uh), sech = 1/cosh(uh), q = u + b th, uT, uC, the extra term and D_TE, D_TM of the
// slab's lines (spectral.hpp), each written so that nothing cancels for large kρ.
Pair via_spectrum(const SlabSpectrum& s, cd kr) {
  const SlabLines l = s.lines(kr);
  const cd u0 = l.u0, u = l.u, eps = s.eps, b = s.ground_b;
  const cd u2 = u * u, kr2 = kr * kr, k1_2 = eps * s.k0 * s.k0;
  const cd d_te = u0 + l.u_c();
  const cd d_tm = eps * u0 + l.u_t();
  const cd jwmu = cd(0.0, s.k0 * c0 * mu0);
  const double kappa2 = 1.0 / (s.h * s.h);
  // h/u² − h/(kρ² + κ²) without cancellation.
  const cd log_rest = s.h * (kappa2 + k1_2) / ((kr2 - k1_2) * (kr2 + kappa2));
  const cd te = ((eps - 1.0) * l.u_t() + eps * l.extra) / (u2 * d_te * d_tm);
  const cd self_ground = eps * u0 * l.u_t() / (u2 * u2 * d_tm);
  if (b == 0.0) return {jwmu * te, jwmu * (log_rest - te - self_ground)};
  const cd e = std::exp(-u * s.h);  // |e| ≤ 1
  const cd th = (1.0 - e * e) / (1.0 + e * e), sech = 2.0 * e / (1.0 + e * e);
  const cd q = u + b * th;
  const cd coupling = jwmu * (te - u0 * b * sech / (s.k0 * s.k0 * u * d_tm * q));
  // The lossy ground's own term Zs N/(q u³ D_TM (kρ² + κ²)), N = kρ²(εr u0 (1 − 2 sech) +
  // u th)(kρ² + κ²) − q u³ D_TM with kρ⁴ − u⁴ = εr k0² (kρ² + u²) taken out.
  const cd zs = b / (cd(0.0, s.k0 * c0) * eps0 * eps);
  const cd n = (eps * u0 + u * th) * (k1_2 * (kr2 + u2) + kappa2 * kr2 - b * th * u2 * u) -
               2.0 * eps * u0 * sech * kr2 * (kr2 + kappa2) - b * u2 * u2 * sech * sech;
  const cd ground = zs * n / (q * u2 * u * d_tm * (kr2 + kappa2));
  return {coupling, jwmu * (log_rest - te - self_ground) + ground};
}

namespace {

Pair integrate(const SlabSpectrum& s, double rho, const PathOptions& path, const Pair& floor) {
  const Accuracy<2> acc{path.rel_tol, {0.0, 0.0}, {std::abs(floor[0]), std::abs(floor[1])}};
  return path_integral(s.path_scale(), rho, path, acc, 3.0, [&](cd kr) { return via_spectrum(s, kr); });
}

// What the accuracy is relative to: a small part of the kernels' size at ρ = 0.
Pair scale(const SlabSpectrum& s) {
  const double k1 = std::sqrt(s.eps_real) * s.k0;
  const double size = s.k0 * c0 * mu0 * s.h * std::max(1.0, (s.eps_real - 1.0)) /
                      (1.0 + k1 * s.h);
  return {1e-6 * size, 1e-6 * size};
}

}  // namespace

ViaKernels::ViaKernels(const Slab& slab, double frequency_hz, double rho_max_m,
                       const TableOptions& options)
    : frequency_(frequency_hz), rho_max_(rho_max_m), height_(slab.height_m) {
  const SlabSpectrum s = slab_spectrum(slab, frequency_hz);
  check_path(options.path);
  if (!(rho_max_m > 0.0) || !std::isfinite(rho_max_m))
    throw std::invalid_argument("ViaKernels: rho_max must be a positive distance in metres, got " +
                                std::to_string(rho_max_m));
  surface_impedance_ = mom::surface_impedance(slab.ground, frequency_hz);
  log_coefficient_ = (cd(0.0, s.k0 * c0 * mu0 * s.h) + surface_impedance_) / (2.0 * pi);
  scale_rho_ = slab.height_m;
  inv_length_ = std::sqrt(slab.eps_r) * s.k0;
  const double xi_max = greens_xi(rho_max_m, scale_rho_, inv_length_);
  const std::size_t intervals = greens_xi_intervals(xi_max, options.accuracy);
  step_ = xi_max / static_cast<double>(intervals);
  rho_ = greens_rho_at_steps(scale_rho_, inv_length_, intervals, step_, rho_max_m);
  const Pair floor = scale(s);
  pairs_.resize(2 * rho_.size());
  std::exception_ptr failure;
#pragma omp parallel for schedule(dynamic)
  for (std::size_t i = 0; i < rho_.size(); ++i) {
    try {
      const Pair k = integrate(s, rho_[i], options.path, floor);
      pairs_[2 * i] = k[0];
      pairs_[2 * i + 1] = k[1];
    } catch (...) {
#pragma omp critical
      failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

double ViaKernels::position(double rho) const {
  if (!(rho >= 0.0) || !(rho <= rho_max_ * (1.0 + 1e-12)))
    throw std::out_of_range("ViaKernels: rho = " + std::to_string(rho) +
                            " m lies outside the table's [0, " + std::to_string(rho_max_) + "] m");
  return greens_xi(rho, scale_rho_, inv_length_) / step_;
}

// The pairs hold (K_vh, K_vv smooth): lagrange4_one's second of a pair where `scalar`.
cd ViaKernels::coupling(double rho) const {
  return lagrange4_one(pairs_.data(), static_cast<long long>(rho_.size()), position(rho), false);
}

cd ViaKernels::self_smooth(double rho) const {
  return lagrange4_one(pairs_.data(), static_cast<long long>(rho_.size()), position(rho), true);
}

cd ViaKernels::coupling_direct(const Slab& slab, double frequency_hz, double rho,
                               const PathOptions& path) {
  const SlabSpectrum s = slab_spectrum(slab, frequency_hz);
  return integrate(s, rho, path, scale(s))[0];
}

cd ViaKernels::self_smooth_direct(const Slab& slab, double frequency_hz, double rho,
                                  const PathOptions& path) {
  const SlabSpectrum s = slab_spectrum(slab, frequency_hz);
  return integrate(s, rho, path, scale(s))[1];
}

}  // namespace pmom::mom
