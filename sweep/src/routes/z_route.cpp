// make_z_route (z_route.hpp): the one place a route is chosen, and what the routes share.
#include "routes/z_route.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "planarmom/logging/logging.hpp"
#include "planarmom/mom/convolution_operator.hpp"
#include "planarmom/gpusolver/preconditioners/recycled_lu.hpp"
#include "planarmom/sweep/tile_blocks.hpp"
#include "routes/routes.hpp"
#include "solver_setup.hpp"
#include "timing.hpp"

namespace pmom::sweep {

SweepSettings resolved_settings(SweepSettings s, const geometry::Mesh& mesh,
                                const Backend<std::complex<double>>& backend) {
  if (s.preconditioner == PreconditionerChoice::automatic) {
    const bool lu_fits = static_cast<index_t>(mesh.unknowns()) <= largest_lu(backend);
    s.preconditioner = s.rule == Rule::exact && lu_fits ? PreconditionerChoice::lu
                                                        : PreconditionerChoice::block;
  }
  // Vias are in Z with every interaction only.
  if (!mesh.vias().empty() && s.rule != Rule::exact)
    throw std::runtime_error("vias need every interaction: sparsify rule exact (the default), "
                             "without density, format, check_dense or reach_heights");
  // Metal on several layers: Z assembled on the host from each pair of layers' tables, and
  // multiplied as it is (rule exact with Z's LU, on the cpu backend), or thresholded into the
  // solver's sparse matrix on any backend (rule magnitude); no FFT product, mpie pattern or
  // device fill of several layers yet.
  if (mesh.layer_count() > 1) {
    // FftRoute multiplies by Z itself where it makes Z's LU on the host (uses_lu), else by FFTs.
    const bool dense_on_host = s.rule == Rule::exact && uses_lu(s) && !backend.on_device();
    if (!dense_on_host && s.rule != Rule::magnitude)
      throw std::runtime_error(
          "metal on several layers needs every entry of Z from the host: sparsify rule exact with "
          "Z's LU on the cpu backend (" + std::to_string(mesh.unknowns()) + " unknowns here; "
          "preconditioner auto or lu, solver method auto or cocg), or rule magnitude with a density (density: 1.0 keeps every "
          "entry) on any backend");
  }
  // With Z's LU the host multiplies by Z itself, without FFTs.
  if (s.rule == Rule::exact && s.preconditioner != PreconditionerChoice::lu &&
      !backend.on_device() && !mom::ConvolutionOperator::available())
    throw std::runtime_error("sparsify rule exact on the cpu backend needs FFTW: install "
                             "libfftw3-dev (tools/install-deps.sh) and rebuild, or run on a "
                             "CUDA device");
  return s;
}

std::unique_ptr<ZRoute> make_z_route(ZParts& parts, Backend<std::complex<double>>& backend) {
  const SweepSettings& s = parts.settings();
  if (s.rule == Rule::exact) return make_fft_route(parts, backend);
  if (fixed_pattern(s)) return make_pattern_route(parts, backend);
  if (s.rule == Rule::magnitude && !s.check_dense && backend.on_device() &&
      parts.mesh().layer_count() == 1)
    return make_device_magnitude_route(parts, backend);
  return make_host_assembled_route(parts, backend);
}

std::unique_ptr<BlockJacobi> make_tile_preconditioner(const ZParts& parts,
                                                      Backend<std::complex<double>>& backend) {
  const SweepSettings& s = parts.settings();
  if (!uses_blocks(s)) return nullptr;
  const index_t n = parts.unknowns();
  const mom::MpiePattern* mpie = parts.mpie();
  const double per_row = mpie ? static_cast<double>(mpie->nnz()) / n : s.density * n;
  const bool dense = !mpie && s.density >= 1;  // rule exact: density 1
  const int most = static_cast<int>(
      std::clamp(per_row, 32.0, double(dense ? kLargestDenseBlock : kLargestSparseBlock)));
  const int tile = tile_for(parts.mesh(), most);
  auto blocks = std::make_unique<BlockJacobi>(backend, tile_blocks(parts.mesh(), tile), n);
  PMOM_LOG(info) << "preconditioner: block Jacobi on tiles of " << tile << " cells, "
                 << blocks->blocks() << " blocks of up to " << blocks->largest() << " functions";
  return blocks;
}

std::unique_ptr<mom::DeviceFill> make_device_fill(const ZParts& parts, mom::FillPattern pattern,
                                                  const char* what) {
  const auto start = clock::now();
  auto fill = std::make_unique<mom::DeviceFill>(parts.mesh(), parts.plan(), std::move(pattern),
                                                parts.gram());
  PMOM_LOG(info) << "fill on the GPU: " << what << " (set-up " << seconds_since(start) << " s)";
  return fill;
}

}  // namespace pmom::sweep
