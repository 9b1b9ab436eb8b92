// The spectral-domain Green's functions G̃_A, G̃_V of a layered board (stackup.hpp) for
// horizontal currents with source and observer on the strips' interface, from the stack's
// transmission-line network (private to the mom module).
//
// Michalski & Mosig's formulation C (IEEE TAP 45(3), 1997): a horizontal current of 1 A at the
// interface drives the TE and TM lines of the stack; seen from the interface they are two
// admittances in parallel, the stack's below and above. Normalised (TE: jωμ0 Y, TM: Y/(jωε0);
// 1/m and m), a layer of εi and thickness d has the characteristic admittances ui and εi/ui,
// ui = √(kρ² − εi k0²), and turns a load Y_L into Y_c (Y_L + Y_c t)/(Y_c + Y_L t), t = tanh(ui d);
// air above loads u0 and 1/u0, a perfect ground shorts the line, a ground of surface impedance
// Zs loads the normalised impedances Zs/(jωμ0) (TE) and jωε0 Zs (TM). Then
//   G̃_A = μ0/Y_TE,  G̃_V = (1/Y_TM + k0²/Y_TE)/(ε0 kρ²),  Y = Y_below + Y_above,
// which for one layer under air is greens.hpp's slab (u0 + u coth(uh) and εr/(u tanh(uh)) + 1/u0).
// Each layer enters through tanh(u d)/u, even in u, so only u0's branch matters (Re u0 ≥ 0).
#pragma once

#include <complex>
#include <vector>

#include "planarmom/mom/greens.hpp"
#include "planarmom/mom/stackup.hpp"
#include "spectral.hpp"

namespace pmom::mom {

class LayeredSpectrum {
 public:
  // Validates the stack and the frequency (std::invalid_argument).
  LayeredSpectrum(const Stackup& stack, double frequency_hz);

  [[nodiscard]] double k0() const { return k0_; }
  // G̃_A, G̃_V at (complex) kρ ≠ 0.
  [[nodiscard]] Pair exact(std::complex<double> kr) const;
  // Their static part (k0 → 0, every u → kρ): frequency-independent, with the same large-kρ
  // behaviour to O(k0²/kρ³) (layered_greens.hpp transforms it on the real axis).
  [[nodiscard]] Pair static_part(std::complex<double> kr) const;
  // exact − static_part, O(k0²/kρ³) for large kρ: what the Sommerfeld path integrates.
  [[nodiscard]] Pair remainder(std::complex<double> kr) const;
  // c in G = c/ρ + smooth(ρ): μ0/(4π) and 1/(2π ε0 (ε_under + ε_over)), the layers touching
  // the strips (air: 1).
  [[nodiscard]] SingularCoefficients singular() const;
  [[nodiscard]] PathScale path_scale() const;
  [[nodiscard]] double thinnest() const;      // the thinnest layer's thickness, m
  [[nodiscard]] double height_below() const;  // the strips' height over the ground, m

 private:
  [[nodiscard]] Pair at(std::complex<double> kr, double k02) const;
  [[nodiscard]] Pair near_zero(std::complex<double> kr) const;  // |kρ| < k0, without cancellation
  struct Medium {
    std::complex<double> eps;
    double height;
  };
  double k0_;
  std::vector<Medium> below_;  // from the ground up
  std::vector<Medium> above_;  // from the top down
  // The ground's normalised impedances Zs/(jωμ0) and jωε0 Zs (0: perfect).
  std::complex<double> ground_te_ = 0.0, ground_tm_ = 0.0;
  bool cover_ground_ = false;
};

}  // namespace pmom::mom
