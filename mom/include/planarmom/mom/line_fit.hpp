// Fitting sums of complex exponentials to uniformly spaced samples (matrix pencil, Hua & Sarkar,
// IEEE TASSP 1990) and, from it, the forward and backward waves of a current standing wave on
// a feed line: the propagation constant γ (hence εeff) and the wave amplitudes the port
// de-embedding needs.
#pragma once

#include <complex>
#include <span>
#include <vector>

namespace pmom::mom {

using cplx = std::complex<double>;

// y_k ≈ Σ_i a_i z_i^k, k = 0..n-1.
struct Exponentials {
  std::vector<cplx> poles;       // z_i
  std::vector<cplx> amplitudes;  // a_i
};

// Matrix pencil with `modes` exponentials; pencil parameter L in [modes, n - modes], default
// n/3 (the noise-optimal choice between n/3 and n/2). Throws std::invalid_argument when there
// are too few samples (n < 2·modes + 1).
Exponentials matrix_pencil(std::span<const cplx> samples, int modes, int pencil = 0);

// I(x) = forward·e^{-γx} + backward·e^{+γx} at x = k·spacing (x from the first sample, along
// the direction the forward wave travels). γ = α + jβ with β > 0.
struct StandingWave {
  cplx gamma;
  cplx forward;
  cplx backward;
};

// Two-mode matrix pencil; γ from the two poles z = e^{∓γ·spacing} (averaged, so that a
// slightly asymmetric pair still gives one γ). Needs at least 5 samples, and fewer than half
// a guided wavelength per sample (|β·spacing| < π) so the poles are not aliased.
StandingWave fit_standing_wave(std::span<const cplx> samples, double spacing_m);

}  // namespace pmom::mom
