// Quadrature for complex vector integrands: globally adaptive Gauss–Kronrod (7/15) on an
// interval, and Sommerfeld tails by partition-extrapolation with Mosig–Michalski weighted
// averages.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/math/quadrature/gauss.hpp>
#include <boost/math/quadrature/gauss_kronrod.hpp>

namespace pmom::mom {

template <std::size_t N> using CVec = std::array<std::complex<double>, N>;

// Requested accuracy, per component c: |error_c| ≤ rel · max(|offset_c + I_c|, floor_c).
// offset is the part of the final result known without this integral (an extracted closed
// form, earlier pieces of the path), so that a small integral added to a large known part is
// not resolved to needless relative precision; floor keeps a result that cancels to ~0 from
// asking for the impossible.
template <std::size_t N> struct Accuracy {
  double rel = 1e-10;
  CVec<N> offset{};
  std::array<double, N> floor{};
};

namespace detail {

template <std::size_t N> struct Segment {
  double lo, hi;
  CVec<N> value;
  std::array<double, N> error;
};

// One Gauss–Kronrod 15 panel; |K15 − G7| as its error estimate (conservative, without
// QUADPACK's empirical rescaling).
template <std::size_t N, class F> Segment<N> gk15(F& f, double lo, double hi) {
  using boost::math::quadrature::gauss;
  using boost::math::quadrature::gauss_kronrod;
  const auto& x = gauss_kronrod<double, 15>::abscissa();
  const auto& wk = gauss_kronrod<double, 15>::weights();
  const auto& wg = gauss<double, 7>::weights();
  const double mid = 0.5 * (lo + hi);
  const double half = 0.5 * (hi - lo);
  const CVec<N> fc = f(mid);
  CVec<N> k{};
  CVec<N> g{};
  for (std::size_t c = 0; c < N; ++c) {
    k[c] = wk[0] * fc[c];
    g[c] = wg[0] * fc[c];
  }
  for (std::size_t i = 1; i < x.size(); ++i) {
    const CVec<N> fp = f(mid + half * x[i]);
    const CVec<N> fm = f(mid - half * x[i]);
    for (std::size_t c = 0; c < N; ++c) {
      const std::complex<double> s = fp[c] + fm[c];
      k[c] += wk[i] * s;
      if (i % 2 == 0) g[c] += wg[i / 2] * s;  // the Gauss nodes are the even Kronrod ones
    }
  }
  Segment<N> seg{lo, hi, {}, {}};
  for (std::size_t c = 0; c < N; ++c) {
    seg.value[c] = half * k[c];
    seg.error[c] = std::abs(half * (k[c] - g[c]));
    if (!std::isfinite(seg.value[c].real()) || !std::isfinite(seg.value[c].imag()))
      throw std::runtime_error("quadrature: integrand is not finite on [" + std::to_string(lo) +
                               ", " + std::to_string(hi) + "]");
  }
  return seg;
}

}  // namespace detail

// ∫_lo^hi f, f: double → CVec<N>. Starts from `pieces` equal panels and bisects the panel with
// the largest error relative to its tolerance until the total error meets `acc`; throws after
// max_panels panels.
template <std::size_t N, class F>
CVec<N> integrate_adaptive(F&& f, double lo, double hi, const Accuracy<N>& acc, int pieces = 1,
                           int max_panels = 4000) {
  std::vector<detail::Segment<N>> segs;
  const double step = (hi - lo) / pieces;
  for (int i = 0; i < pieces; ++i)
    segs.push_back(detail::gk15<N>(f, lo + i * step, i + 1 == pieces ? hi : lo + (i + 1) * step));
  for (;;) {
    CVec<N> total{};
    std::array<double, N> error{};
    for (const auto& s : segs)
      for (std::size_t c = 0; c < N; ++c) {
        total[c] += s.value[c];
        error[c] += s.error[c];
      }
    std::array<double, N> tol{};
    bool done = true;
    for (std::size_t c = 0; c < N; ++c) {
      tol[c] = acc.rel * std::max(std::abs(acc.offset[c] + total[c]), acc.floor[c]);
      if (error[c] > tol[c]) done = false;
    }
    if (done) return total;
    if (static_cast<int>(segs.size()) >= max_panels)
      throw std::runtime_error("quadrature: no convergence on [" + std::to_string(lo) + ", " +
                               std::to_string(hi) + "] after " + std::to_string(max_panels) +
                               " panels; loosen the tolerance or check the integrand");
    auto badness = [&](const detail::Segment<N>& s) {
      double b = 0.0;
      for (std::size_t c = 0; c < N; ++c) b = std::max(b, s.error[c] / std::max(tol[c], 1e-300));
      return b;
    };
    auto worst = std::max_element(segs.begin(), segs.end(), [&](const auto& l, const auto& r) {
      return badness(l) < badness(r);
    });
    const double a = worst->lo;
    const double b = worst->hi;
    const double m = 0.5 * (a + b);
    *worst = detail::gk15<N>(f, a, m);
    segs.push_back(detail::gk15<N>(f, m, b));
  }
}

// ∫_a^∞ f for an integrand oscillating with half-period q and envelope ~ k^{−alpha} (for
// J0(kρ): q = π/ρ). Partition-extrapolation: integrate over [a + nq, a + (n+1)q] and
// accelerate the partial sums with the Mosig–Michalski weighted averages (Michalski & Mosig,
// "Efficient computation of Sommerfeld integral tails – methods and algorithms", JEMWA 30(3),
// 2016; the weighted averages of Mosig & Gardiol), analytic remainder estimates
// ω_n = (−1)^n x_{n+1}^{−alpha}, μ = 2 for alternating partial sums.
template <std::size_t N, class F>
CVec<N> integrate_tail(F&& f, double a, double q, double alpha, const Accuracy<N>& acc,
                       int max_intervals = 200) {
  constexpr double mu = 2.0;
  std::vector<double> x{a};
  std::vector<CVec<N>> r;  // r[i] = transform of level k−i starting at partial sum i
  CVec<N> partial{};
  CVec<N> previous{};
  int settled = 0;
  for (int k = 0; k < max_intervals; ++k) {
    x.push_back(a + (k + 1) * q);
    Accuracy<N> piece = acc;
    for (std::size_t c = 0; c < N; ++c) piece.offset[c] += partial[c];
    piece.rel = 0.1 * acc.rel;  // the intervals' errors add up
    const CVec<N> u = integrate_adaptive<N>(f, x[k], x[k + 1], piece);
    for (std::size_t c = 0; c < N; ++c) partial[c] += u[c];
    r.push_back(partial);
    if (k > 0) {
      const double omega = -std::pow(x[k] / x[k + 1], alpha);  // ω_k / ω_{k−1}
      for (int j = 1; j <= k; ++j) {
        const double eta = omega / (1.0 + mu * (j - 1) * q / x[k - j + 1]);
        for (std::size_t c = 0; c < N; ++c)
          r[k - j][c] = (r[k - j + 1][c] - eta * r[k - j][c]) / (1.0 - eta);
      }
    }
    const CVec<N>& estimate = r[0];
    bool close = k >= 2;
    for (std::size_t c = 0; c < N && close; ++c)
      close = std::abs(estimate[c] - previous[c]) <=
              acc.rel * std::max(std::abs(acc.offset[c] + estimate[c]), acc.floor[c]);
    settled = close ? settled + 1 : 0;
    if (settled == 2) return estimate;  // two consecutive agreeing estimates
    previous = estimate;
  }
  throw std::runtime_error("quadrature: Sommerfeld tail did not converge in " +
                           std::to_string(max_intervals) + " intervals (alpha = " +
                           std::to_string(alpha) + ")");
}

}  // namespace pmom::mom
