// The per-frequency chain of `planarmom sweep`, timed stage by stage.
#include "sweep_pipeline.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>

#include "planarmom/gpusolver/convert.hpp"
#include "planarmom/gpusolver/solver.hpp"
#include "planarmom/io/logging.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/deembed.hpp"
#include "planarmom/mom/greens_table.hpp"
#include "planarmom/mom/line_characterisation.hpp"
#include "planarmom/sparsify/dense_check.hpp"
#include "planarmom/sparsify/format_choice.hpp"
#include "planarmom/sparsify/sparsify.hpp"

namespace pmom::app {
namespace {

using cd = std::complex<double>;
using clock = std::chrono::steady_clock;

double seconds_since(clock::time_point start) {
  return std::chrono::duration<double>(clock::now() - start).count();
}

SolverOptions solver_options(const SweepSettings& s, const Csr<cd>& a) {
  SolverOptions o;
  o.method = s.method == "auto" ? Method::automatic : parse_method(s.method);
  o.tolerance = s.tolerance;
  o.max_iterations = s.max_iterations;
  o.record_history = false;
  o.format = s.format == "hyb"   ? Format::hyb
             : s.format == "csr" ? Format::csr
                                 : sparsify::suggest_format(a);
  return o;
}

// Z0 of each port's feed line by the centre-fed line characterisation at this frequency (one
// run per distinct width), on the sweep's own cell size.
std::vector<double> feed_impedances(const geometry::Mesh& mesh, double frequency_hz) {
  const geometry::Substrate& sub = mesh.layout().substrate;
  std::map<long long, double> by_cells;  // cells across → Z0
  std::vector<double> z0;
  for (const geometry::MeshPort& port : mesh.ports()) {
    auto it = by_cells.find(port.count);
    if (it == by_cells.end()) {
      mom::LineSpec spec{sub.eps_r, sub.height_mm, port.width_mm, port.count, 0, true};
      spec.half_length_mm = mom::suggested_half_length_mm(spec, frequency_hz);
      it = by_cells.emplace(port.count, mom::characterise_line(spec, frequency_hz).z0.real()).first;
    }
    z0.push_back(it->second);
  }
  return z0;
}

}  // namespace

SweepPipeline::SweepPipeline(const geometry::Mesh& mesh, const SweepSettings& settings,
                             Backend<cd>& backend)
    : mesh_(mesh), settings_(settings), backend_(backend), rhs_(mom::port_excitations(mesh)) {}

io::FrequencyRecord SweepPipeline::run(double frequency_hz, std::vector<cd>& guess) {
  io::FrequencyRecord r;
  r.frequency_hz = frequency_hz;
  const geometry::Substrate& sub = mesh_.layout().substrate;
  const auto n = static_cast<index_t>(mesh_.basis().size());
  const auto p = static_cast<index_t>(mesh_.ports().size());

  auto start = clock::now();
  const mom::GreensTable greens(mom::Slab{sub.eps_r, sub.loss_tangent, sub.height_mm * 1e-3},
                                frequency_hz, mom::required_rho_max(mesh_.grid()));
  r.seconds_greens = seconds_since(start);
  start = clock::now();
  const mom::ImpedanceMatrix z =
      mom::assemble_impedance(mesh_, mom::make_interaction_tables(greens, mesh_));
  r.seconds_fill = seconds_since(start);

  start = clock::now();
  const sparsify::Sparsified sparse = sparsify::sparsify(
      z.values, n, sparsify::ThresholdPolicy::target_density(settings_.density));
  r.seconds_sparsify = seconds_since(start);
  r.nnz = sparse.report.nnz;
  r.density = sparse.report.density;

  start = clock::now();
  Solver<cd> solver(backend_, sparse.matrix, solver_options(settings_, sparse.matrix));
  if (guess.size() != rhs_.size()) guess.assign(rhs_.size(), cd(0.0));
  const SolveResult solved = solver.solve(rhs_, guess, p);
  r.seconds_solve = seconds_since(start);
  r.iterations = solved.iterations;
  r.residual = 0;
  for (std::size_t k = 0; k < solved.rhs.size(); ++k) {
    r.residual = std::max(r.residual, solved.rhs[k].true_residual);
    if (solved.rhs[k].outcome != Outcome::converged) {
      PMOM_LOG(warning) << frequency_hz * 1e-9 << " GHz, port " << k + 1 << ": "
                        << to_string(solved.rhs[k].outcome) << " after "
                        << solved.rhs[k].iterations << " iterations, residual "
                        << solved.rhs[k].true_residual;
    }
  }
  r.dense_error = std::numeric_limits<double>::quiet_NaN();
  if (settings_.check_dense) {
    const std::vector<double> errors =
        sparsify::dense_solution_error(z.values, n, sparse.matrix, rhs_);
    r.dense_error = *std::max_element(errors.begin(), errors.end());
  }

  start = clock::now();
  const std::vector<double> z0 = feed_impedances(mesh_, frequency_hz);
  r.s = mom::deembed(mesh_, guess, z0).s;
  r.seconds_deembed = seconds_since(start);
  return r;
}

}  // namespace pmom::app
