// solve_line_on_backend (line_checks.hpp): the line's Z as a CSR holding every entry, filled
// where the backend is, or on a CUDA device above a size the exact operator (Z·x by FFT),
// solved by COCG there with the tiles' block Jacobi.
#include <chrono>
#include <cmath>

#include "planarmom/gpusolver/solver.hpp"
#include "planarmom/io/logging.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/device_fill.hpp"
#include "planarmom/mom/surface_loss.hpp"
#include "planarmom/sweep/block_jacobi.hpp"
#include "planarmom/sweep/exact_operator.hpp"
#include "planarmom/sweep/line_checks.hpp"

namespace pmom::sweep {

mom::LineSolution solve_line_on_backend(const mom::LineSystem& s, Backend<std::complex<double>>& backend,
                                        double tolerance, index_t exact_above) {
  using cd = std::complex<double>;
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  const auto n = static_cast<index_t>(s.mesh.basis().size());
  SolverOptions o;
  o.method = Method::cocg;
  o.preconditioner = Preconditioner::none;  // the tiles' blocks below
  o.tolerance = tolerance;
  o.max_iterations = 20000;
  o.format = Format::csr;
  o.record_history = false;
  const std::vector<mom::GramEntry> gram =
      !s.strip.zero() ? mom::strip_loss_entries(s.mesh, s.plan.edge_profiles)
                      : std::vector<mom::GramEntry>{};
  // Block Jacobi on tiles of the line (block_jacobi.hpp), read from Z's entries on the backend.
  BlockJacobi blocks(backend, tile_blocks(s.mesh, tile_for(s.mesh, kLargestDenseBlock)), n);
  const bool on_device = backend.name().rfind("cuda", 0) == 0;
  std::shared_ptr<Operator<cd>> op;
  std::unique_ptr<ExactOperator> exact;  // outlives the solve: the operator's product is in it
  if (on_device && n > exact_above) {
    o.format = Format::function;
    exact = std::make_unique<ExactOperator>(s.mesh, s.plan, gram, backend, &blocks, s.columns);
    op = exact->at(s.greens, std::vector<cd>(s.mesh.ports().size(), cd(0.0)), s.strip);
  } else {
    Csr<cd> dense;
    dense.rows = dense.cols = n;
    dense.row_ptr.resize(static_cast<std::size_t>(n) + 1);
    dense.col_idx.resize(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
    for (index_t i = 0; i <= n; ++i) dense.row_ptr[static_cast<std::size_t>(i)] = i * n;
    for (std::size_t k = 0; k < dense.col_idx.size(); ++k)
      dense.col_idx[k] = static_cast<index_t>(k % static_cast<std::size_t>(n));
    dense.values.assign(dense.col_idx.size(), cd(0.0));
    op = backend.make_operator(dense, operator_options(o, false));
    backend.synchronize();  // the upload is done before the fill writes the values
    if (on_device) {
      mom::DeviceFill fill(s.mesh, s.plan, mom::FillPattern::all(n), gram);
      const std::vector<cd> no_loads(s.mesh.ports().size(), cd(0.0));
      fill.fill(s.greens, no_loads, backend.csr_values(*op), s.strip);
    } else {
      mom::ImpedanceMatrix z =
          mom::assemble_impedance(s.mesh, mom::evaluate_tables(s.plan, s.greens));
      mom::add_surface_impedance(gram, s.strip, z);
      backend.copy_bytes(backend.csr_values(*op), z.values.data(), z.values.size() * sizeof(cd),
                         CopyKind::to_backend);
    }
    const auto columns = static_cast<std::int64_t>(n);
    blocks.set_positions([columns](index_t i, index_t j) { return i * columns + j; });
    blocks.update_on_backend(backend.csr_values(*op));
  }
  // Z is complex symmetric by construction (the dense assembly mirrors its upper triangle).
  Solver<cd> solver(backend, op, o, MatrixTraits{true, false, false});
  solver.set_preconditioner(blocks.inverse());
  const auto assembled = clock::now();
  std::vector<cd> x;
  const SolveResult result = solver.solve(s.rhs, x, s.columns);
  if (!result.all_converged()) {
    PMOM_LOG(warning) << "line check: COCG on " << backend.name() << " ended without converging ("
                      << result.iterations << " iterations); solving by LU on the host instead";
    return mom::solve_line_by_lu(s);
  }
  PMOM_LOG(debug) << "line check on " << backend.name() << ": " << n << " unknowns, "
                  << result.iterations << " COCG iterations"
                  << (exact ? "; exact operator: " + exact->summary() : std::string());
  const auto done = clock::now();
  return {std::move(x), std::chrono::duration<double>(assembled - start).count(),
          std::chrono::duration<double>(done - assembled).count()};
}

}  // namespace pmom::sweep
