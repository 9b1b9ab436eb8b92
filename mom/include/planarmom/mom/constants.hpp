// Physical constants in SI units, shared by the MoM modules.
#pragma once

namespace pmom::mom {

inline constexpr double pi = 3.14159265358979323846;
inline constexpr double c0 = 299792458.0;  // speed of light in vacuum, m/s (exact)
// Vacuum permeability, 2019 SI (CODATA 2018): no longer exactly 4π·1e-7 H/m.
inline constexpr double mu0 = 1.25663706212e-6;
inline constexpr double eps0 = 1.0 / (mu0 * c0 * c0);  // F/m, ≈ 8.8541878128e-12

}  // namespace pmom::mom
