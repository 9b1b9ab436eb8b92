// Rule exact's operator for one mesh: Z·x by FFT with every interaction (the
// host's mom::ConvolutionOperator, the device's mom::DeviceConvolution) plus a sparse
// correction (the port loads, the strips' loss entries), as a FunctionOperator on the backend,
// with Z's exact entries where its diagonal (Jacobi) and a block preconditioner need them. The
// sweep's `sparsify: {rule: exact}` and the line checks of large lines on a CUDA device use it.
#pragma once

#include <complex>
#include <functional>
#include <optional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/gpusolver/backend.hpp"
#include "planarmom/gpusolver/preconditioners/block_jacobi.hpp"
#include "planarmom/mom/band_tables.hpp"
#include "planarmom/mom/convolution_layout.hpp"
#include "planarmom/mom/device_convolution.hpp"
#include "planarmom/mom/device_fill.hpp"
#include "planarmom/mom/greens_table.hpp"
#include "planarmom/mom/surface_impedance.hpp"
#include "planarmom/mom/surface_loss.hpp"
#include "planarmom/mom/table_plan.hpp"
#include "planarmom/mom/via_greens.hpp"

namespace pmom::sweep {

class ExactOperator {
 public:
  using cd = std::complex<double>;
  using ViaSource = std::function<std::optional<mom::ViaKernels>(double frequency_hz)>;
  // plan: the tables of every offset (make_table_plan without a pattern); gram: the strips'
  // loss entries (empty for perfect metal); blocks: a block preconditioner refreshed from Z's
  // exact entries at every frequency, or null; columns: the right-hand sides solved at once;
  // host_dense: on the host, multiply by Z itself, assembled from the tables every frequency,
  // instead of by FFTs (where Z's LU is made anyway, recycled_inverse.hpp: at those sizes a
  // matrix product is several times faster than the channels' FFTs on a CPU); host_tables:
  // where the host's tables of a frequency come from (empty: evaluate_tables).
  // On a CUDA backend the device fill and product are made here (std::runtime_error where
  // there is no device); on the host the FFT product needs FFTW (at() throws
  // std::runtime_error in a build without it).
  // vias: the vias' kernels at a frequency, for a mesh with vias (which only host_dense takes:
  // std::invalid_argument otherwise, or without them).
  ExactOperator(const geometry::Mesh& mesh, const mom::TablePlan& plan,
                std::vector<mom::GramEntry> gram, Backend<cd>& backend, BlockJacobi* blocks,
                int columns, bool host_dense = false, mom::HostTables host_tables = {},
                ViaSource vias = {});
  ~ExactOperator();
  ExactOperator(const ExactOperator&) = delete;
  ExactOperator& operator=(const ExactOperator&) = delete;

  // The operator at the Green's table's frequency, with each port's load (Ω) on its gap and the
  // strips' impedances on the loss entries; the blocks refreshed. tables_started: the device
  // fill's tables are already being computed for this frequency (device_fill()->start_tables).
  // The operator reads this object's product and correction in place: it is valid while this
  // object lives and until the next at().
  std::shared_ptr<Operator<cd>> at(const mom::GreensTable& greens, std::span<const cd> loads,
                                   const mom::StripImpedance& strip, bool tables_started = false);
  // Z itself, every entry, n x n in backend memory (symmetric, so either order), at the
  // frequency of the last at() and with its loads and strip impedances (greens: that
  // frequency's table): for the preconditioner's LU (recycled_inverse.hpp). On the device
  // from a dense fill made at the first call; on the host from at()'s tables.
  Block<cd> dense(const mom::GreensTable& greens, std::span<const cd> loads,
                  const mom::StripImpedance& strip);
  // The device fill (null on the host): a caller may start the next frequency's tables early.
  [[nodiscard]] mom::DeviceFill* device_fill() const;
  // One line for the log: the grid, channels and kernels, the bytes of the spectra and grids,
  // the correction's entries (and the device's exact entries), the set-up time.
  [[nodiscard]] std::string summary() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pmom::sweep
