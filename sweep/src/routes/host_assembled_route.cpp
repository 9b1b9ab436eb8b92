// Z assembled on the host every frequency into a new sparse matrix: rule magnitude (the dense Z
// thresholded to the density) on the host, or rule mpie where its pattern cannot be kept fixed
// (the dense check, HYB), with the dense LU's check against it where asked.
#include <algorithm>
#include <optional>

#include "planarmom/gpusolver/convert.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/port_loads.hpp"
#include "planarmom/mom/sparse_assembly.hpp"
#include "planarmom/sparsify/dense_check.hpp"
#include "planarmom/sparsify/sparsify.hpp"
#include "routes/routes.hpp"
#include "solver_setup.hpp"
#include "timing.hpp"

namespace pmom::sweep {
namespace {

class HostAssembledRoute final : public ZRoute {
 public:
  HostAssembledRoute(ZParts& parts, Backend<cd>& backend)
      : parts_(parts), backend_(backend), blocks_(make_tile_preconditioner(parts, backend)) {}

  void fill(const mom::GreensTable& greens, std::span<const cd> loads, bool,
            io::FrequencyRecord& r) override {
    assemble(greens, loads, r);
    r.nnz = sparse_.nnz();
  }

  Solver<cd>& solver(const mom::GreensTable&, std::span<const cd>) override {
    const SweepSettings& s = parts_.settings();
    Solver<cd>& solver = solver_.emplace(backend_, sparse_, solver_options(s, format_for(s, sparse_)));
    if (blocks_) {
      blocks_->update([this](index_t i, index_t j) {
        const std::int64_t at = csr_position(sparse_.row_ptr, sparse_.col_idx, i, j);
        return at < 0 ? cd(0.0) : sparse_.values[static_cast<std::size_t>(at)];
      });
      solver.set_preconditioner(blocks_->inverse());
    }
    return solver;
  }

  void solved(const SolveResult&, double, std::span<const cd> rhs,
              io::FrequencyRecord& r) override {
    solver_.reset();
    if (z_) {
      const std::vector<double> errors =
          sparsify::dense_solution_error(z_->values, parts_.unknowns(), sparse_, rhs);
      r.dense_error = *std::max_element(errors.begin(), errors.end());
    }
    z_.reset();
    sparse_ = {};
  }

 private:
  // The sparse Z of one frequency: rule mpie on its pattern, or the dense Z thresholded to the
  // density (rule magnitude); the dense Z kept in z_ for the dense check only.
  void assemble(const mom::GreensTable& greens, std::span<const cd> loads,
                io::FrequencyRecord& r) {
    const SweepSettings& s = parts_.settings();
    const geometry::Mesh& mesh = parts_.mesh();
    const mom::MpiePattern* mpie = parts_.mpie();
    const double hz = greens.frequency();
    auto start = clock::now();
    {
      // The tables live only while the matrices are built.
      const mom::InteractionTables tables = parts_.host_tables(greens);
      if (s.check_dense || !mpie) {
        z_ = mom::assemble_impedance(mesh, tables);
        mom::add_gap_loads(mesh, loads, *z_);
        parts_.add_metal_loss(hz, *z_);
      }
      if (mpie) {
        sparse_ = mom::assemble_sparse_impedance(mesh, tables, *mpie);
        mom::add_gap_loads(mesh, loads, sparse_);
        parts_.add_metal_loss(hz, sparse_);
      }
    }
    r.seconds_fill = seconds_since(start);
    r.seconds_sparsify = 0;
    if (mpie) return;
    start = clock::now();
    sparse_ = sparsify::sparsify(z_->values, parts_.unknowns(),
                                 sparsify::ThresholdPolicy::target_density(s.density))
                  .matrix;
    r.seconds_sparsify = seconds_since(start);
    // Without the check the dense Z is not needed any more: free it before the solve.
    if (!s.check_dense) z_.reset();
  }

  ZParts& parts_;
  Backend<cd>& backend_;
  std::unique_ptr<BlockJacobi> blocks_;
  std::optional<mom::ImpedanceMatrix> z_;  // the dense Z, for the dense check
  Csr<cd> sparse_;
  std::optional<Solver<cd>> solver_;
};

}  // namespace

std::unique_ptr<ZRoute> make_host_assembled_route(ZParts& parts,
                                                  Backend<std::complex<double>>& backend) {
  return std::make_unique<HostAssembledRoute>(parts, backend);
}

}  // namespace pmom::sweep
