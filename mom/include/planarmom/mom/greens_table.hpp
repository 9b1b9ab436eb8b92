// Per-frequency table of the board's Green's functions (the grounded slab's, or a stack's),
// interpolated in ρ.
#pragma once

#include <cmath>
#include <complex>
#include <cstddef>
#include <vector>

#include "planarmom/mom/greens.hpp"
#include "planarmom/mom/hd.hpp"
#include "planarmom/mom/stackup.hpp"

namespace pmom::mom {

struct TableOptions {
  // Target for max |G_table − G_direct| / |G_direct| over 0 < ρ ≤ ρmax (tested at the
  // midpoints between samples); sets the sample spacing.
  double accuracy = 1e-6;
  PathOptions path{};  // must keep Extraction::quasi_static (the table holds smooth(ρ))
};

// Samples the numerically integrated remainder R(ρ) = G(ρ) − G_qs(ρ) (greens.hpp) on a grid
// uniform in ξ = ln(1 + ρ/h) + ρ √εr' k0, i.e. spaced like ρ + h near the source (where the
// remainder varies on the scale h) and at most 1/(√εr' k0) far away (the shortest guided
// wavelength), and interpolates it with 4-point Lagrange (cubic) polynomials in ξ: error
// ≈ 0.023 Δξ⁴ |∂ξ⁴ R|, with Δξ = ½ (accuracy / 0.023)^{1/4}. Lookups add the closed-form
// G_qs: folding it into R would not do, because on a thin slab the images cancel c/ρ to
// O(h/ρ) and would magnify R's interpolation error by ρ/h. G_qs is interpolated too, but from
// its own grid ten times finer in ξ (10⁴ times smaller error, far below 1e-6 even after that
// magnification): evaluated directly it costs one complex exponential per image, tens of them
// on a high-εr slab, and lookups are what the assembly spends its time on. Samples are
// computed in parallel (OpenMP); a table is immutable and safe to read from several threads.
// How much finer the grid of the closed-form quasi-static part is than the remainder's.
inline constexpr int kQuasiStaticRefinement = 10;

// The table's abscissa ξ = ln(1 + ρ/h) + ρ √εr' k0 (scale_rho = h, inv_length = √εr' k0).
PLANARMOM_HD inline double greens_xi(double rho, double scale_rho, double inv_length) {
  return std::log1p(rho / scale_rho) + rho * inv_length;
}

// The intervals of ξ from 0 to ξ(ρmax) that keep 4-point Lagrange interpolation within
// `accuracy` (the class comment's Δξ), at least 3.
std::size_t greens_xi_intervals(double xi_max, double accuracy);
// ρ at ξ = 0, step, …, intervals·step (the last set to rho_max exactly), by Newton.
std::vector<double> greens_rho_at_steps(double scale_rho, double inv_length, std::size_t intervals,
                                        double step, double rho_max);

// 4-point Lagrange interpolation of the (G_A, G_V) pairs sampled at ξ = k·step, at s = ξ/step:
// the stencil around the interval holding s, shifted inwards at the ends; its first sample s0
// and weights w.
PLANARMOM_HD inline long long lagrange4_weights(long long count, double s, double w[4]) {
  const long long last = count - 1;
  const double below = s > 0.0 ? std::floor(s) : 0.0;
  const auto cell = static_cast<long long>(below);
  long long s0 = cell == 0 ? 0 : cell - 1;
  if (s0 > last - 3) s0 = last - 3;
  const double t = s - static_cast<double>(s0);
  w[0] = -(t - 1.0) * (t - 2.0) * (t - 3.0) / 6.0;
  w[1] = t * (t - 2.0) * (t - 3.0) / 2.0;
  w[2] = -t * (t - 1.0) * (t - 3.0) / 2.0;
  w[3] = t * (t - 1.0) * (t - 2.0) / 6.0;
  return s0;
}
// Both of the pair (`pairs` holds 2·count values).
template <class C>
PLANARMOM_HD inline void lagrange4(const C* pairs, long long count, double s, C& g_a, C& g_v) {
  double w[4];
  const long long s0 = lagrange4_weights(count, s, w);
  g_a = C(0.0);
  g_v = C(0.0);
  for (int k = 0; k < 4; ++k) {
    g_a += w[k] * pairs[2 * (s0 + k)];
    g_v += w[k] * pairs[2 * (s0 + k) + 1];
  }
}
// One of the pair: G_V where scalar, G_A otherwise.
template <class C>
PLANARMOM_HD inline C lagrange4_one(const C* pairs, long long count, double s, bool scalar) {
  double w[4];
  const long long s0 = lagrange4_weights(count, s, w);
  const C* p = pairs + (scalar ? 1 : 0);
  C g(0.0);
  for (int k = 0; k < 4; ++k) g += w[k] * p[2 * (s0 + k)];
  return g;
}

// A table's numbers as a plain view (host or device memory) and its lookups, which the host
// class and the CUDA fill share. C is std::complex<double> on the host and
// cuda::std::complex<double> on the device (the same layout); no checks, no exceptions.
template <class C> struct GreensTableView {
  const C* remainder = nullptr;     // (G_A, G_V) of the remainder at ξ = k·step
  const C* quasi_static = nullptr;  // of G_qs at ξ = k·step / kQuasiStaticRefinement
  long long remainder_count = 0, quasi_static_count = 0;
  double scale_rho = 0, inv_length = 0, step = 0;
  C c_a, c_v;  // the singular coefficients

  // G − c/ρ at 0 ≤ ρ ≤ ρmax.
  PLANARMOM_HD void smooth(double rho, C& g_a, C& g_v) const {
    const double s = greens_xi(rho, scale_rho, inv_length) / step;
    C qa, qv;
    lagrange4(quasi_static, quasi_static_count, s * kQuasiStaticRefinement, qa, qv);
    lagrange4(remainder, remainder_count, s, g_a, g_v);
    g_a += qa;
    g_v += qv;
  }
  // One potential's G − c/ρ (G_V where scalar, G_A otherwise): what a table entry reads,
  // at half the interpolation's work.
  PLANARMOM_HD C smooth_one(double rho, bool scalar) const {
    return smooth_one_at(position(rho), scalar);
  }
  // ρ's position in the samples, s = ξ(ρ)/step, and smooth_one there: apart, so that the host
  // can find a row of positions in one vectorised loop (table_plan.hpp).
  PLANARMOM_HD double position(double rho) const {
    return greens_xi(rho, scale_rho, inv_length) / step;
  }
  PLANARMOM_HD C smooth_one_at(double s, bool scalar) const {
    return lagrange4_one(quasi_static, quasi_static_count, s * kQuasiStaticRefinement, scalar) +
           lagrange4_one(remainder, remainder_count, s, scalar);
  }
  // G at 0 < ρ ≤ ρmax.
  PLANARMOM_HD void full(double rho, C& g_a, C& g_v) const {
    smooth(rho, g_a, g_v);
    g_a += c_a / rho;
    g_v += c_v / rho;
  }
};

class GreensTable {
 public:
  GreensTable(const Slab& slab, double frequency_hz, double rho_max_m,
              const TableOptions& options = {});
  // A board's stack: the slab's table where the stack is one layer under air, else its static
  // part transformed on the real axis and its remainder on the path (src/layered_greens.hpp).
  GreensTable(const Stackup& stack, double frequency_hz, double rho_max_m,
              const TableOptions& options = {});
  // Between metal on two of the stack's interfaces (Stackup::strips(); no c/ρ there: singular()
  // is 0), or on one that is not the strips'.
  GreensTable(const Stackup& stack, int source, int observer, double frequency_hz,
              double rho_max_m, const TableOptions& options = {});

  // G_A(ρ), G_V(ρ) = c/ρ + interpolated smooth part; 0 < ρ ≤ rho_max().
  GreensValues operator()(double rho_m) const;
  // smooth(ρ) = G(ρ) − c/ρ; 0 ≤ ρ ≤ rho_max().
  GreensValues smooth(double rho_m) const;
  const SingularCoefficients& singular() const { return singular_; }

  double rho_max() const { return rho_max_; }
  double frequency() const { return frequency_; }
  // The sample abscissae (ρ_0 = 0 < ρ_1 < … = ρmax), e.g. to check between them.
  const std::vector<double>& sample_rho() const { return rho_; }
  // The samples in host memory; also what the CUDA fill uploads.
  [[nodiscard]] GreensTableView<std::complex<double>> view() const;

 private:
  [[nodiscard]] double xi(double rho) const { return greens_xi(rho, scale_rho_, inv_length_); }
  void check(const TableOptions& options) const;
  // The grids and both parts' samples: quasi_static(ρ) → Pair, remainder(ρ, known) → Pair
  // (known: c/ρ + the quasi-static part there, what its accuracy is relative to).
  template <class QuasiStatic, class Remainder>
  void sample(double k0, double scale_rho, double inv_length, double accuracy,
              QuasiStatic&& quasi_static, Remainder&& remainder);

  double frequency_;
  double rho_max_;
  double k0_;
  double scale_rho_;   // the log-like region's scale: h (a stack: its thinnest layer)
  double inv_length_;  // √εr' k0: linear region
  double step_;        // Δξ
  SingularCoefficients singular_;
  std::vector<double> rho_;
  std::vector<GreensValues> remainder_;     // R at rho_
  std::vector<GreensValues> quasi_static_;  // G_qs at ξ = k·step_/kQuasiStaticRefinement
};

// A layout's metal on several interfaces of a stack (ascending, the stack's numbering): the table
// of every pair a ≤ b of them in assembly.hpp's layer_pair order, each pair's own and those
// between (each samples in parallel). The first pair's, the lowest interface's own, is `first`:
// GreensTable(stack, f, ρmax) where the stack's strips lie there, which a sweep has made for the
// frequency already.
std::vector<GreensTable> layer_pair_tables(const Stackup& stack, const std::vector<int>& interfaces,
                                           const GreensTable& first,
                                           const TableOptions& options = {});

}  // namespace pmom::mom
