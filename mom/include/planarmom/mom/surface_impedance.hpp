// The surface impedance of a conductor of finite conductivity and thickness: what the strips'
// Gram term (surface_loss.hpp) and a lossy ground (greens.hpp) bring into the MoM for conductor
// loss, skin effect included.
//
// Time convention e^{+jωt}. A conductor of conductivity σ and thickness t with the field on one
// side (the ground's top; the strip's underside, which carries nearly all of a microstrip's
// current) has Zs = (γ/σ) coth(γt), γ = (1 + j)/δ, δ = 1/√(π f μ0 σ) the skin depth:
// Zs → 1/(σt) (the sheet's DC resistance) for t ≪ δ and Rs(1 + j), Rs = 1/(σδ), for t ≫ δ.
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

}  // namespace pmom::mom
