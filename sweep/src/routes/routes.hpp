// The routes of z_route.hpp, each made by its own factory (one file a route), and what several
// of them share: the block preconditioner on tiles sized for the route's Z.
#pragma once

#include <complex>
#include <memory>

#include "planarmom/gpusolver/backend.hpp"
#include "planarmom/gpusolver/preconditioners/block_jacobi.hpp"
#include "routes/z_parts.hpp"
#include "routes/z_route.hpp"

namespace pmom::sweep {

[[nodiscard]] std::unique_ptr<ZRoute> make_fft_route(ZParts& parts, Backend<std::complex<double>>& backend);
[[nodiscard]] std::unique_ptr<ZRoute> make_pattern_route(ZParts& parts, Backend<std::complex<double>>& backend);
[[nodiscard]] std::unique_ptr<ZRoute> make_device_magnitude_route(ZParts& parts, Backend<std::complex<double>>& backend);
[[nodiscard]] std::unique_ptr<ZRoute> make_host_assembled_route(ZParts& parts, Backend<std::complex<double>>& backend);

// Block Jacobi on tiles (tile_blocks.hpp) where the settings ask for it (solver_setup.hpp's
// uses_blocks), else null: blocks at most as large as a row of the route's Z is long, so that
// their product costs no more than Z's (a sparse Z keeps them small), within that header's
// limits. Logged.
[[nodiscard]] std::unique_ptr<BlockJacobi> make_tile_preconditioner(const ZParts& parts, Backend<std::complex<double>>& backend);

// Times the GPU fill's set-up for the log line "fill on the GPU: WHAT".
[[nodiscard]] std::unique_ptr<mom::DeviceFill> make_device_fill(const ZParts& parts, mom::FillPattern pattern, const char* what);

}  // namespace pmom::sweep
