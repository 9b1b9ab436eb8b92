// Rule magnitude on a device: the dense Z filled there (the GPU fill) and thresholded there to
// the density into a new CSR operator every frequency.
#include <optional>

#include "planarmom/sparsify/device_threshold.hpp"
#include "routes/routes.hpp"
#include "solver_setup.hpp"
#include "timing.hpp"

namespace pmom::sweep {
namespace {

class DeviceMagnitudeRoute final : public ZRoute {
 public:
  DeviceMagnitudeRoute(ZParts& parts, Backend<cd>& backend)
      : parts_(parts), backend_(backend), n_(parts.unknowns()) {
    dense_z_ = backend.allocate<cd>(n_, n_);
    device_fill_ = make_device_fill(
        parts, mom::FillPattern::all(n_),
        "tables and the dense Z on the device, thresholded there to the density");
    blocks_ = make_tile_preconditioner(parts, backend);
    const auto n = static_cast<std::int64_t>(n_);
    if (blocks_) blocks_->set_positions([n](index_t i, index_t j) { return i * n + j; });
  }

  void fill(const mom::GreensTable& greens, std::span<const cd> loads, bool tables_started,
            io::FrequencyRecord& r) override {
    const auto start = clock::now();
    if (!tables_started) device_fill_->start_tables(greens);
    device_fill_->assemble(loads, dense_z_.data(), parts_.strip(greens.frequency()));
    r.seconds_fill = seconds_since(start);
    op_ = threshold(r);
  }

  Solver<cd>& solver(const mom::GreensTable&, std::span<const cd>) override {
    Solver<cd>& solver = solver_.emplace(
        backend_, op_, solver_options(parts_.settings(), Format::csr), kSymmetric);
    if (blocks_) {
      blocks_->update_on_backend(dense_z_.data());
      solver.set_preconditioner(blocks_->inverse());
    }
    return solver;
  }

  void solved(const SolveResult&, double, std::span<const cd>, io::FrequencyRecord&) override {
    solver_.reset();
    op_.reset();
  }

  mom::DeviceFill* device_fill() override { return device_fill_.get(); }

 private:
  // The dense Z thresholded on the device into a new CSR operator.
  std::shared_ptr<Operator<cd>> threshold(io::FrequencyRecord& r) {
    const auto start = clock::now();
    const sparsify::DeviceThreshold threshold(dense_z_.data(), n_, parts_.settings().density);
    Block<index_t> row_ptr = backend_.allocate<index_t>(n_ + 1, 1);
    Block<index_t> col_idx = backend_.allocate<index_t>(threshold.nnz(), 1);
    Block<cd> values = backend_.allocate<cd>(threshold.nnz(), 1);
    backend_.synchronize();  // their zeroing is queued on the backend's stream
    threshold.write(row_ptr.data(), col_idx.data(), values.data());
    r.nnz = threshold.nnz();
    SolverOptions o = solver_options(parts_.settings(), Format::csr);
    o.adjoint = AdjointMode::transposed_kernel;
    auto op = backend_.make_csr_operator(n_, std::move(row_ptr), std::move(col_idx),
                                         std::move(values),
                                         operator_options(o, o.method == Method::bicg));
    r.seconds_sparsify = seconds_since(start);
    return op;
  }

  ZParts& parts_;
  Backend<cd>& backend_;
  index_t n_;
  Block<cd> dense_z_;
  std::unique_ptr<mom::DeviceFill> device_fill_;
  std::unique_ptr<BlockJacobi> blocks_;
  std::shared_ptr<Operator<cd>> op_;  // the last fill's
  std::optional<Solver<cd>> solver_;
};

}  // namespace

std::unique_ptr<ZRoute> make_device_magnitude_route(ZParts& parts,
                                                    Backend<std::complex<double>>& backend) {
  return std::make_unique<DeviceMagnitudeRoute>(parts, backend);
}

}  // namespace pmom::sweep
