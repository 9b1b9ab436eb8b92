// The spectral-domain Green's functions G̃_A, G̃_V of a layered board (stackup.hpp) for
// horizontal currents with source and observer on the strips' interface or on any two of the
// stack's interfaces, from the stack's transmission-line network (private to the mom module).
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
// Between two interfaces the source's voltages 1/Y travel up the lines to the observer: through
// a layer whose top sees the load Y_L, V_top/V_bottom = sech(ud)/(1 + Y_L/Y_c tanh(ud)), so
//   G̃_A = μ0 T_TE/Y_TE,  G̃_V = (T_TM/Y_TM + k0² T_TE/Y_TE)/(ε0 kρ²),
// T the product over the layers between (Michalski & Zheng's K^Φ of horizontal currents: the
// tangential field needs no other term). Reciprocal: the same for source and observer swapped.
#pragma once

#include <complex>
#include <vector>

#include "planarmom/mom/greens.hpp"
#include "planarmom/mom/stackup.hpp"
#include "spectral.hpp"

namespace pmom::mom {

class LayeredSpectrum {
 public:
  // Validates the stack and the frequency (std::invalid_argument). Source and observer on
  // the strips' interface, or on the interfaces `source` and `observer` (numbered from the
  // ground, Stackup::strips()).
  LayeredSpectrum(const Stackup& stack, double frequency_hz);
  LayeredSpectrum(const Stackup& stack, double frequency_hz, int source, int observer);

  [[nodiscard]] double k0() const { return k0_; }
  // G̃_A, G̃_V at (complex) kρ ≠ 0.
  [[nodiscard]] Pair exact(std::complex<double> kr) const;
  // Their static part (k0 → 0, every u → kρ): frequency-independent, with the same large-kρ
  // behaviour to O(k0²/kρ³) (layered_greens.hpp transforms it on the real axis).
  [[nodiscard]] Pair static_part(std::complex<double> kr) const;
  // exact − static_part, O(k0²/kρ³) for large kρ: what the Sommerfeld path integrates.
  [[nodiscard]] Pair remainder(std::complex<double> kr) const;
  // c in G = c/ρ + smooth(ρ): μ0/(4π) and 1/(2π ε0 (ε_under + ε_over)), the layers touching
  // the interface (air: 1); 0 between two interfaces.
  [[nodiscard]] SingularCoefficients singular() const;
  // The lower interface's own c: the scale of G near the source, where it is c/ρ or smooth.
  [[nodiscard]] SingularCoefficients scale() const;
  [[nodiscard]] PathScale path_scale() const;
  [[nodiscard]] double thinnest() const;      // the thinnest layer's thickness, m
  [[nodiscard]] double height_below() const;  // the lower interface's height over the ground, m
  // Under a cover ground: the parallel-plate guide's TM0 wave, the largest real kρ where the
  // lossless stack's TM admittances at the lower interface cancel (a pole of G̃ on the real
  // axis); 0 under air. A line's mode slower than it meets that pole on its real ky axis: it
  // leaks into the plates.
  [[nodiscard]] double parallel_plate_tm0() const;

 private:
  [[nodiscard]] Pair at(std::complex<double> kr, double k02) const;
  // |kρ| < k0 on one interface, without cancellation (between two the direct form: it loses
  // (k0/|kρ|)² of its digits there).
  [[nodiscard]] Pair near_zero(std::complex<double> kr) const;
  struct Medium {
    std::complex<double> eps;
    double height;
  };
  double k0_;
  std::vector<Medium> media_;  // from the ground up
  int lower_ = 0, upper_ = 0;  // the interfaces: the tops of media_[lower_ − 1], media_[upper_ − 1]
  // The ground's normalised impedances Zs/(jωμ0) and jωε0 Zs (0: perfect).
  std::complex<double> ground_te_ = 0.0, ground_tm_ = 0.0;
  bool cover_ground_ = false;
};

}  // namespace pmom::mom
