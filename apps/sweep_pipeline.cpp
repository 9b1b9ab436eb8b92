// The per-frequency chain of `planarmom sweep`, timed stage by stage.
#include "sweep_pipeline.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "planarmom/gpusolver/convert.hpp"
#include "planarmom/gpusolver/solver.hpp"
#include "planarmom/io/logging.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/deembed.hpp"
#include "planarmom/mom/greens_table.hpp"
#include "planarmom/mom/feed_impedance.hpp"
#include "planarmom/mom/port_loads.hpp"
#include "planarmom/mom/sparse_assembly.hpp"
#include "planarmom/mom/table_plan.hpp"
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

// The feed lines' Z0 across the sweep's band, and their matched loads when the ports are
// terminated by them (a few line checks, logged with their time).
mom::FeedImpedances band_feed_impedances(const geometry::Mesh& mesh, const SweepSettings& s) {
  const auto start = clock::now();
  const auto [lo, hi] = std::minmax_element(s.frequencies_hz.begin(), s.frequencies_hz.end());
  const bool matched = s.termination == "matched";
  mom::FeedImpedances feeds(mesh, *lo, *hi, 6, matched);
  PMOM_LOG(info) << "feed lines' Z0" << (matched ? " and matched loads" : "") << " from "
                 << feeds.nodes_hz().size() << " line checks across the band: "
                 << seconds_since(start) << " s";
  return feeds;
}

}  // namespace

SweepPipeline::SweepPipeline(const geometry::Mesh& mesh, const SweepSettings& settings,
                             Backend<cd>& backend)
    : mesh_(mesh),
      settings_(settings),
      backend_(backend),
      rhs_(mom::port_excitations(mesh)),
      feeds_(band_feed_impedances(mesh, settings)) {
  {
    const auto start = clock::now();
    plan_ = mom::make_table_plan(mesh_);
    PMOM_LOG(info) << "offset tables: " << plan_.entries.size() << " entries, "
                   << plan_.lookups() << " Green's lookups a frequency (plan "
                   << seconds_since(start) << " s)";
  }
  if (settings_.rule == "mpie") {
    const auto start = clock::now();
    const mom::MpieDensityChoice choice = mom::choose_mpie_sparsity(mesh_, settings_.density);
    mpie_ = mom::mpie_pattern(mesh_, choice.sparsity);
    PMOM_LOG(info) << "sparsify rule mpie: charge radius " << choice.sparsity.charge_radius
                   << " cells, L box " << choice.sparsity.along << " x "
                   << choice.sparsity.across << " cells: density " << choice.density << " for "
                   << settings_.density << " (pattern " << seconds_since(start) << " s)";
  }
}

io::FrequencyRecord SweepPipeline::run(double frequency_hz, std::vector<cd>& guess) {
  io::FrequencyRecord r;
  r.frequency_hz = frequency_hz;
  const geometry::Substrate& sub = mesh_.layout().substrate;
  const auto n = static_cast<index_t>(mesh_.basis().size());
  const auto p = static_cast<index_t>(mesh_.ports().size());

  auto start = clock::now();
  const std::vector<cd> loads = settings_.termination == "matched"
                                    ? feeds_.matched_loads(frequency_hz)
                                    : std::vector<cd>(mesh_.ports().size(), cd(0.0));
  const mom::GreensTable greens(mom::Slab{sub.eps_r, sub.loss_tangent, sub.height_mm * 1e-3},
                                frequency_hz, mom::required_rho_max(mesh_.grid()));
  r.seconds_greens = seconds_since(start);
  start = clock::now();
  // The dense Z: the magnitude rule thresholds it; the mpie rule needs it only for the check.
  std::optional<mom::ImpedanceMatrix> z;
  Csr<cd> sparse;
  {
    // The tables live only while the matrices are built.
    const mom::InteractionTables tables = mom::evaluate_tables(plan_, greens);
    if (mpie_) {
      sparse = mom::assemble_sparse_impedance(mesh_, tables, *mpie_);
      mom::add_port_loads(mesh_, loads, sparse);
      r.seconds_fill = seconds_since(start);
      r.seconds_sparsify = 0;
      if (settings_.check_dense) {
        z = mom::assemble_impedance(mesh_, tables);
        mom::add_port_loads(mesh_, loads, *z);
      }
    } else {
      z = mom::assemble_impedance(mesh_, tables);
      mom::add_port_loads(mesh_, loads, *z);
      r.seconds_fill = seconds_since(start);
    }
  }
  if (!mpie_) {
    start = clock::now();
    sparse = sparsify::sparsify(z->values, n,
                                sparsify::ThresholdPolicy::target_density(settings_.density))
                 .matrix;
    r.seconds_sparsify = seconds_since(start);
    // Without the check the dense Z is not needed any more: free it before the solve.
    if (!settings_.check_dense) z.reset();
  }
  r.nnz = sparse.nnz();
  r.density = static_cast<double>(sparse.nnz()) / (static_cast<double>(n) * n);

  start = clock::now();
  Solver<cd> solver(backend_, sparse, solver_options(settings_, sparse));
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
        sparsify::dense_solution_error(z->values, n, sparse, rhs_);
    r.dense_error = *std::max_element(errors.begin(), errors.end());
  }

  start = clock::now();
  r.s = mom::deembed(mesh_, guess, feeds_.at(frequency_hz)).s;
  r.seconds_deembed = seconds_since(start);
  return r;
}

}  // namespace pmom::app
