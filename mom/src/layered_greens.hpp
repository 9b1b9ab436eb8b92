// The spatial Green's functions of a layered board (layered_spectrum.hpp) as the table needs them
// (private to the mom module): G = c/ρ + static smooth part + retarded remainder.
//
// The grounded slab's quasi-static part has its images in closed form (spectral.hpp); a stack's
// has images at every combination of its layers' depths. Instead its static part (k0 → 0) is
// transformed numerically on the real axis, (1/2π) ∫₀^∞ [G̃_s(k) k − 2πc] J0(kρ) dk, whose
// integrand falls like e^{−2k d} (d the thinnest layer) past the c/ρ taken out; and the
// remainder G̃ − G̃_s, O(k0²/kρ³), is integrated along the path of spectral.hpp above the
// poles and branch points, as the slab's remainder is.
#pragma once

#include "layered_spectrum.hpp"

namespace pmom::mom {

// The static part less c/ρ at ρ ≥ 0, to rel_tol of |c/ρ + it| (of itself at ρ = 0).
Pair layered_static_smooth(const LayeredSpectrum& s, double rho, double rel_tol);

// (1/2π) ∫ (G̃ − G̃_s) J0(kρ ρ) kρ dkρ at ρ ≥ 0, to p.rel_tol of |offset + it|.
Pair layered_remainder(const LayeredSpectrum& s, double rho, const PathOptions& p,
                       const Pair& offset);

}  // namespace pmom::mom
