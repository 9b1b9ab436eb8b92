// Spectral-domain Green's functions of the grounded slab, their quasi-static part and the
// Sommerfeld integration (private to the mom module).
#pragma once

#include <complex>

#include "planarmom/mom/greens.hpp"
#include "planarmom/mom/quadrature.hpp"

namespace pmom::mom {

// Components: [0] = A (vector potential), [1] = V (scalar potential).
using Pair = CVec<2>;

struct SlabSpectrum {
  std::complex<double> eps;  // complex εr
  double k0;                 // free-space wavenumber, rad/m
  double h;                  // slab thickness, m
  double eps_real;           // εr', which bounds the surface-wave poles by √εr' k0
  // A lossy ground's a = Zs/(jωμ0) (m) and b = jω ε0 εr Zs (1/m), greens.hpp; 0 for PEC.
  std::complex<double> ground_a = 0.0, ground_b = 0.0;

  // G̃_A, G̃_V at (complex) kρ.
  Pair exact(std::complex<double> kr) const;
  // G̃ − G̃_qs, where G̃_qs is G̃ with u replaced by u0, written so that nothing cancels
  // for large kρ (there the remainder is O(k0²/kρ³) against O(1/kρ) terms).
  Pair remainder(std::complex<double> kr) const;
};

// Validates the slab and the frequency (std::invalid_argument).
SlabSpectrum slab_spectrum(const Slab& slab, double frequency_hz);
void check_path(const PathOptions& p);

// (1/2π) ∫ (G̃ − G̃_qs, or G̃ with Extraction::none) J0(kρ ρ) kρ dkρ, accurate to p.rel_tol of
// |offset + result| (offset: what the caller adds to it); ρ = 0 allowed with extraction.
Pair sommerfeld(const SlabSpectrum& s, double rho, const PathOptions& p, const Pair& offset,
                const SingularCoefficients& c);

// Closed-form transform of G̃_qs minus its 1/ρ singularity c/ρ; finite at ρ = 0.
Pair quasi_static_smooth(const SlabSpectrum& s, double rho);

}  // namespace pmom::mom
