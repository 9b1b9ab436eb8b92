// Per-frequency table of the grounded-slab Green's functions, interpolated in ρ.
#pragma once

#include <complex>
#include <cstddef>
#include <vector>

#include "planarmom/mom/greens.hpp"

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
class GreensTable {
 public:
  GreensTable(const Slab& slab, double frequency_hz, double rho_max_m,
              const TableOptions& options = {});

  // G_A(ρ), G_V(ρ) = c/ρ + interpolated smooth part; 0 < ρ ≤ rho_max().
  GreensValues operator()(double rho_m) const;
  // smooth(ρ) = G(ρ) − c/ρ; 0 ≤ ρ ≤ rho_max().
  GreensValues smooth(double rho_m) const;
  const SingularCoefficients& singular() const { return singular_; }

  double rho_max() const { return rho_max_; }
  double frequency() const { return frequency_; }
  // The sample abscissae (ρ_0 = 0 < ρ_1 < … = ρmax), e.g. to check between them.
  const std::vector<double>& sample_rho() const { return rho_; }

 private:
  double xi(double rho) const;
  // ρ at ξ = 0, step, …, intervals·step (the last set to rho_max exactly).
  std::vector<double> rho_at_steps(std::size_t intervals, double step) const;

  double frequency_;
  double rho_max_;
  double k0_;
  double scale_rho_;   // h: log-like region
  double inv_length_;  // √εr' k0: linear region
  double step_;        // Δξ
  SingularCoefficients singular_;
  std::vector<double> rho_;
  std::vector<GreensValues> remainder_;     // R at rho_
  std::vector<GreensValues> quasi_static_;  // G_qs at ξ = k·step_/kQuasiStaticRefinement
};

}  // namespace pmom::mom
