// The propagation constant and characteristic impedance of an infinitely long straight
// microstrip line on the sweep's cells, from one period of it (one cell along): the Floquet
// impedance matrix Ẑ(β) of the period's rooftops (the mesh's edge-shaped ones) from the
// spectral-domain Green's functions of the board's stack (layered_spectrum.hpp: the substrate
// and any cover over the strip, LineSpec::cover), the mode's root det Ẑ(β) = 0, and from
// the residue of Ẑ⁻¹ there the wave a delta gap launches, hence Z0 as the long line checks
// define it (line_characterisation.hpp: the gap voltage over twice the wave's current). Costs
// the same at every frequency, where a long line check grows with the wavelength. Lossy metal
// too: its terms are the long line's (surface_loss.hpp), summed over the period's images.
#pragma once

#include "planarmom/mom/line_characterisation.hpp"

namespace pmom::mom {

struct PeriodicLineOptions {
  // The transverse wavenumbers integrated, |ky| up to this many per cell across (the rest of
  // the integral falls like its square: 300 leaves εeff and Z0 within 1e-5 of 1000's,
  // docs/VALIDATION.md).
  double ky_max_per_cell = 300;
  // Floquet harmonics β + 2πp/Δx, |p| up to this (their terms fall like p⁻⁵; past the first,
  // under 1e-6).
  int harmonics = 1;
};

// γ (the bound quasi-TEM mode's, Re γ ≥ 0) and Z0 of spec's line at f, with the board's losses
// (the substrate's tanδ, the metal's: the ground's surface impedance and the strips' loss terms
// of surface_loss.hpp); spec.half_length_mm and gap_mm are not read. std::invalid_argument for
// fewer than 2 cells across; std::runtime_error where the root search does not converge.
LineResult periodic_line(const LineSpec& spec, double frequency_hz,
                         const PeriodicLineOptions& options = {});

// A broadside-coupled pair (LineSpec::broadside: the second strip over the first, in a stack
// symmetric about their midplane, check_broadside): one period of each mode, the partner's
// currents equal (even) or opposite (odd), so each mode's Floquet matrix is the single strip's
// with G̃ + G̃_between or G̃ − G̃_between (layered_spectrum.hpp). Z0 per strip, as a coupled
// pair's. Throws as periodic_line and check_broadside; std::runtime_error for a mode slower
// than the parallel-plate wave between the grounds, which leaks (the odd mode of a core of
// lower εr than the sheets outside it; the even mode does not couple to that wave).
enum class BroadsideMode { even, odd };
LineResult periodic_broadside_mode(const LineSpec& spec, double frequency_hz, BroadsideMode mode,
                                   const PeriodicLineOptions& options = {});
CoupledLineResult periodic_broadside_pair(const LineSpec& spec, double frequency_hz,
                                          const PeriodicLineOptions& options = {});

}  // namespace pmom::mom
