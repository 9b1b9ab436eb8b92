// solve_line_on_backend (line_checks.hpp): the line's Z filled where the backend is and
// LU-factored there, or, above the size that takes, the exact operator (Z·x by FFT) solved by
// COCG with the tiles' block Jacobi.
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <vector>

#include "planarmom/gpusolver/preconditioners/block_jacobi.hpp"
#include "planarmom/gpusolver/preconditioners/recycled_lu.hpp"
#include "planarmom/gpusolver/solver.hpp"
#include "planarmom/logging/logging.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/device_fill.hpp"
#include "planarmom/mom/line_mirror.hpp"
#include "planarmom/mom/surface_loss.hpp"
#include "planarmom/sweep/exact_operator.hpp"
#include "planarmom/sweep/line_checks.hpp"
#include "planarmom/sweep/tile_blocks.hpp"

namespace pmom::sweep {

namespace {

using cd = std::complex<double>;

// A rows x cols block on the backend holding `values`.
template <class U> Block<U> upload_new(Backend<cd>& backend, std::span<const U> values,
                                       index_t rows, index_t cols) {
  Block<U> b = backend.allocate<U>(rows, cols);
  backend.upload(values, b);
  return b;
}

// Z x = b for Z assembled on the backend: on a line mirror-symmetric about its middle (both
// line checks') its two parity parts (mom/line_mirror.hpp), each folded from Z where it lives
// and LU-factored there on half the unknowns, a quarter of one full LU's work; else (and on a
// coupled pair, whose four parts the fold's one partner per column cannot form) one LU of Z.
std::vector<cd> solve_assembled(Backend<cd>& backend, Block<cd> z, const mom::LineSystem& s) {
  const auto n = static_cast<index_t>(s.mesh.basis().size());
  const mom::LineMirror mirror = mom::line_mirror(s.mesh);
  if (mirror.elements.size() != 1) {
    Block<cd> x = upload_new(backend, s.rhs, n, s.columns);
    backend.solve_dense(std::move(z), x);
    return backend.download(x);
  }
  std::vector<cd> x(static_cast<std::size_t>(n) * static_cast<std::size_t>(s.columns), 0.0);
  for (const mom::MirrorPart& part : mom::mirror_parts(mirror, s.rhs, s.columns)) {
    const auto k = static_cast<index_t>(part.kept.size());
    std::vector<index_t> kept, partner;
    std::vector<double> weight;
    for (std::size_t p = 0; p < part.kept.size(); ++p) {
      const int c = part.basis(mirror, p);
      const int image = mirror.elements[0].image[static_cast<std::size_t>(c)];
      const bool self = image == c;
      kept.push_back(static_cast<index_t>(c));
      partner.push_back(self ? -1 : image);
      weight.push_back(self ? 0.0 : part.weight(mirror, c, 0));
    }
    Block<cd> folded = backend.allocate<cd>(k, k);
    // Z is symmetric, so its column-major reading is the row-major one that the split reads.
    backend.fold_dense(z, upload_new<index_t>(backend, kept, k, 1),
                       upload_new<index_t>(backend, partner, k, 1),
                       upload_new<double>(backend, weight, k, 1), folded);
    Block<cd> b = upload_new<cd>(backend, part.rhs, k, s.columns);
    backend.solve_dense(std::move(folded), b);
    mom::add_part_solution(mirror, part, backend.download(b), s.columns, x);
  }
  return x;
}

}  // namespace

mom::LineSolution solve_line_on_backend(const mom::LineSystem& s, Backend<std::complex<double>>& backend,
                                        double tolerance, std::optional<index_t> direct_up_to) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  const auto n = static_cast<index_t>(s.mesh.basis().size());
  const bool on_device = backend.on_device();
  const std::vector<mom::GramEntry> gram =
      !s.strip.zero() ? mom::strip_loss_entries(s.mesh, s.plan.edge_profiles)
                      : std::vector<mom::GramEntry>{};
  const std::vector<cd> no_loads(s.mesh.ports().size(), cd(0.0));
  const auto seconds = [](clock::time_point a, clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
  };
  if (n <= direct_up_to.value_or(largest_lu(backend))) {
    Block<cd> z = backend.allocate<cd>(n, n);
    if (on_device) {
      backend.synchronize();  // z's zeroing is queued on the backend's stream
      mom::DeviceFill fill(s.mesh, s.plan, mom::FillPattern::all(n), gram);
      fill.fill(s.greens, no_loads, z.data(), s.strip);  // row-major, Z symmetric: as read
    } else {
      mom::ImpedanceMatrix host =
          mom::assemble_impedance(s.mesh, mom::evaluate_tables(s.plan, s.greens));
      mom::add_surface_impedance(gram, s.strip, host);
      backend.upload(std::span<const cd>(host.values), z);
    }
    backend.synchronize();  // the fill's time is the assembly's, not the LU's
    const auto assembled = clock::now();
    mom::LineSolution out{solve_assembled(backend, std::move(z), s), seconds(start, assembled),
                          seconds(assembled, clock::now())};
    PMOM_LOG(debug) << "line check on " << backend.name() << ": " << n << " unknowns, fill "
                    << out.seconds_assembly << " s, Z's LU " << out.seconds_solve << " s";
    return out;
  }
  SolverOptions o;
  o.method = Method::cocg;
  o.preconditioner = Preconditioner::none;  // the tiles' blocks below
  o.tolerance = tolerance;
  o.max_iterations = 20000;
  o.format = Format::function;
  o.record_history = false;
  // Block Jacobi on tiles of the line (block_jacobi.hpp), read from Z's entries on the backend.
  BlockJacobi blocks(backend, tile_blocks(s.mesh, tile_for(s.mesh, kLargestDenseBlock)), n);
  // The operator's product lives in `exact`, which outlives the solve.
  const auto exact = std::make_unique<ExactOperator>(s.mesh, s.plan, gram, backend, &blocks,
                                                     s.columns);
  const std::shared_ptr<Operator<cd>> op = exact->at(s.greens, no_loads, s.strip);
  // Z is complex symmetric by construction.
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
                  << result.iterations << " COCG iterations; exact operator: " << exact->summary();
  return {std::move(x), seconds(start, assembled), seconds(assembled, clock::now())};
}

}  // namespace pmom::sweep
