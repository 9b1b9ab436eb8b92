// The surface impedance of a conductor of finite conductivity and thickness: what the strips'
// loss terms (surface_loss.hpp) and a lossy ground (greens.hpp) bring into the MoM for conductor
// loss, skin effect included.
//
// Time convention e^{+jωt}, γ = (1 + j)/δ, δ = 1/√(π f μ0 σ) the skin depth. A conductor of
// conductivity σ and thickness t with the field on one side (the ground's top) has
// Zs = (γ/σ) coth(γt): Zs → 1/(σt) (the sheet's DC resistance) for t ≪ δ and Rs(1 + j),
// Rs = 1/(σδ), for t ≫ δ. A strip has fields on both faces: with total current K through it
// and H_s the sum of the tangential fields on its two faces (what other currents than its own
// put there; H_s = 0 on a lone sheet, ±K under a wide strip's ground-facing side), solving
// the skin-effect equation across the slab gives the power it absorbs per area as
//   ½ Re[Z_sheet] |K|² + ½ Re[Z_image] |H_s|²,
// Z_sheet = (γ/2σ) coth(γt/2), Z_image = (γ/2σ) tanh(γt/2): both Zs/2 for t ≫ δ (then the loss is
// Rs/2 (|K_top|² + |K_bottom|²) of the two faces' currents), and 1/(σt) and 0 for t ≪ δ, where
// the current fills the thickness whatever the outside field.
#pragma once

#include <complex>

#include "planarmom/geometry/layout.hpp"

namespace pmom::mom {

struct Conductor {
  double conductivity_s_per_m = 0;  // 0: a perfect conductor
  double thickness_m = 0;           // > 0 with a conductivity

  [[nodiscard]] bool perfect() const { return conductivity_s_per_m == 0; }
};

// The layout's metal (geometry::Metal: S/m and µm) as a Conductor.
Conductor conductor(const geometry::Metal& metal);
// Throws std::invalid_argument naming the field unless perfect, or σ > 0 and t > 0, finite.
void validate(const Conductor& c);
// δ = 1/√(π f μ0 σ), metres.
double skin_depth_m(double conductivity_s_per_m, double frequency_hz);
// Zs in Ω (0 for a perfect conductor).
std::complex<double> surface_impedance(const Conductor& c, double frequency_hz);

// A strip's two impedances (Ω; both 0 for a perfect conductor).
struct StripImpedance {
  std::complex<double> sheet = 0.0, image = 0.0;
  [[nodiscard]] bool zero() const { return sheet == 0.0 && image == 0.0; }
};
StripImpedance strip_impedance(const Conductor& c, double frequency_hz);

}  // namespace pmom::mom
