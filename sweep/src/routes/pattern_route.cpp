// Rule mpie on its fixed pattern: one operator and one solver for the whole sweep, Z rewritten
// in their CSR values every frequency (by the GPU fill on a device, so that Z never passes
// through the host there).
#include "planarmom/gpusolver/convert.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/port_loads.hpp"
#include "planarmom/mom/sparse_assembly.hpp"
#include "routes/routes.hpp"
#include "solver_setup.hpp"
#include "timing.hpp"

namespace pmom::sweep {
namespace {

class PatternRoute final : public ZRoute {
 public:
  PatternRoute(ZParts& parts, Backend<cd>& backend) : parts_(parts), backend_(backend) {
    const mom::MpiePattern& pattern = *parts.mpie();
    Csr<cd> zeros;
    zeros.rows = zeros.cols = pattern.n;
    zeros.row_ptr = pattern.row_ptr;
    zeros.col_idx = pattern.col_idx;
    zeros.values.assign(zeros.col_idx.size(), cd(0.0));
    SolverOptions o = solver_options(parts.settings(), Format::csr);
    // The values are rewritten in place, so Aᴴ (BiCG) must come from A, not a stored copy.
    o.adjoint = AdjointMode::transposed_kernel;
    op_ = backend.make_operator(zeros, operator_options(o, o.method == Method::bicg));
    solver_ = std::make_unique<Solver<cd>>(backend, op_, o, kSymmetric);
    if (backend.on_device())
      device_fill_ = make_device_fill(
          parts, mom::FillPattern{pattern.n, pattern.row_ptr, pattern.col_idx,
                                  mom::charge_reach2(pattern.sparsity)},
          "tables and Z written into the solver's CSR on the device");
    blocks_ = make_tile_preconditioner(parts, backend);
    if (blocks_) {
      solver_->set_preconditioner(blocks_->inverse());
      // Entries outside the pattern are 0.
      blocks_->set_positions([&pattern](index_t i, index_t j) {
        return csr_position(pattern.row_ptr, pattern.col_idx, i, j);
      });
    }
  }

  void fill(const mom::GreensTable& greens, std::span<const cd> loads, bool tables_started,
            io::FrequencyRecord& r) override {
    const auto start = clock::now();
    cd* values = backend_.csr_values(*op_);
    const double hz = greens.frequency();
    if (device_fill_) {
      if (!tables_started) device_fill_->start_tables(greens);
      device_fill_->assemble(loads, values, parts_.strip(hz));
    } else {
      Csr<cd> z =
          mom::assemble_sparse_impedance(parts_.mesh(), parts_.host_tables(greens), *parts_.mpie());
      mom::add_gap_loads(parts_.mesh(), loads, z);
      parts_.add_metal_loss(hz, z);
      backend_.copy_bytes(values, z.values.data(), z.values.size() * sizeof(cd),
                          CopyKind::to_backend);
    }
    solver_->refresh();
    if (blocks_) blocks_->update_on_backend(values);
    r.seconds_fill = seconds_since(start);
    r.seconds_sparsify = 0;
    r.nnz = static_cast<long long>(parts_.mpie()->nnz());
  }

  Solver<cd>& solver(const mom::GreensTable&, std::span<const cd>) override { return *solver_; }

  mom::DeviceFill* device_fill() override { return device_fill_.get(); }

 private:
  ZParts& parts_;
  Backend<cd>& backend_;
  std::shared_ptr<Operator<cd>> op_;
  std::unique_ptr<Solver<cd>> solver_;
  std::unique_ptr<mom::DeviceFill> device_fill_;
  std::unique_ptr<BlockJacobi> blocks_;
};

}  // namespace

std::unique_ptr<ZRoute> make_pattern_route(ZParts& parts, Backend<std::complex<double>>& backend) {
  return std::make_unique<PatternRoute>(parts, backend);
}

}  // namespace pmom::sweep
