// The per-frequency chain of `planarmom sweep`, timed stage by stage.
#include "planarmom/sweep/pipeline.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <string>

#include "planarmom/gpusolver/convert.hpp"
#include "planarmom/gpusolver/solver.hpp"
#include "planarmom/io/heartbeat.hpp"
#include "planarmom/io/logging.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/convolution_operator.hpp"
#include "planarmom/sweep/exact_operator.hpp"
#include "planarmom/mom/device_fill.hpp"
#include "planarmom/mom/deembed.hpp"
#include "planarmom/mom/greens_table.hpp"
#include "planarmom/mom/feed_impedance.hpp"
#include "planarmom/mom/port_loads.hpp"
#include "planarmom/mom/sparse_assembly.hpp"
#include "planarmom/mom/surface_loss.hpp"
#include "planarmom/mom/table_plan.hpp"
#include "planarmom/sparsify/dense_check.hpp"
#include "planarmom/sparsify/device_threshold.hpp"
#include "planarmom/sparsify/format_choice.hpp"
#include "planarmom/sparsify/sparsify.hpp"
#include "planarmom/sweep/tile_blocks.hpp"
#include "planarmom/sweep/line_checks.hpp"

namespace pmom::sweep {
namespace {

using cd = std::complex<double>;
using clock = std::chrono::steady_clock;

double seconds_since(clock::time_point start) {
  return std::chrono::duration<double>(clock::now() - start).count();
}

// Z is complex symmetric by construction: the pattern and the loads are, and the lower
// triangle's entries are the upper triangle's evaluations (the thresholding keeps pairs).
const MatrixTraits kSymmetric{true, false, false};

// The block and LU preconditioners serve COCG (method auto resolves to it on Z, complex
// symmetric).
bool cocg(const SweepSettings& s) { return s.method == "auto" || s.method == "cocg"; }
bool uses_blocks(const SweepSettings& s) { return s.preconditioner == "block" && cocg(s); }
bool uses_lu(const SweepSettings& s) { return s.preconditioner == "lu" && cocg(s); }

SolverOptions solver_options(const SweepSettings& s, Format format) {
  SolverOptions o;
  o.method = s.method == "auto" ? Method::automatic : parse_method(s.method);
  if (uses_blocks(s) || uses_lu(s)) o.preconditioner = Preconditioner::none;  // not Jacobi
  o.tolerance = s.tolerance;
  o.max_iterations = s.max_iterations;
  o.record_history = false;
  o.format = format;
  return o;
}

Format format_for(const SweepSettings& s, const Csr<cd>& a) {
  return s.format == "hyb" ? Format::hyb : s.format == "csr" ? Format::csr
                                                             : sparsify::suggest_format(a);
}

// The feed lines' Z0 across the sweep's band, and their matched loads when the ports are
// terminated by them: a few line checks, cached on disk, solved on the sweep's backend and
// logged one by one.
mom::FeedImpedances band_feed_impedances(const geometry::Mesh& mesh, const SweepSettings& s,
                                         Backend<cd>& backend, LineResults* shared) {
  const auto start = clock::now();
  const auto [lo, hi] = std::minmax_element(s.frequencies_hz.begin(), s.frequencies_hz.end());
  const bool matched = s.termination == "matched";
  constexpr int kNodes = 6;
  std::set<int> widths;
  for (const geometry::MeshPort& port : mesh.ports()) widths.insert(port.count);
  const int nodes = *lo == *hi ? 1 : kNodes;
  // A lossy board's feeds are checked lossy and lossless (FeedImpedances::propagation_constants).
  const geometry::Substrate& sub = mesh.layout().substrate;
  const bool lossy = sub.loss_tangent > 0 || !mesh.layout().metal.pec;
  const int total = static_cast<int>(widths.size()) * nodes * (lossy ? 2 : 1);
  std::optional<sweep::LineCache> cache;
  if (s.line_cache) cache.emplace(sweep::LineCache::default_folder());
  PMOM_LOG(info) << total << " line checks for the feeds' Z0" << (matched ? " and loads" : "")
                 << (cache ? ", cached in " + cache->folder().string()
                           : std::string(", cache bypassed (--no-line-cache)"));
  sweep::SweepLineChecks checks(&backend, std::move(cache), total, shared);
  mom::FeedImpedances feeds(mesh, *lo, *hi, kNodes, matched, checks.checks());
  PMOM_LOG(info) << "line checks: " << seconds_since(start) << " s, " << checks.solved()
                 << " solved, " << checks.from_cache() << " from the cache"
                 << (checks.from_shared() > 0
                         ? ", " + std::to_string(checks.from_shared()) + " shared"
                         : std::string());
  return feeds;
}

// The settings with preconditioner auto resolved: Z's LU with rule exact where the backend
// makes one of this size (recycled_inverse.hpp), block Jacobi otherwise.
SweepSettings resolved(SweepSettings s, const geometry::Mesh& mesh, const Backend<cd>& backend) {
  if (s.preconditioner == "auto")
    s.preconditioner = s.rule == "exact" && static_cast<index_t>(mesh.basis().size()) <=
                                                largest_lu(backend)
                           ? "lu"
                           : "block";
  return s;
}

// The resolved settings, refused before any work (the line checks come first) where this build
// and backend cannot run them (with Z's LU the host multiplies by Z itself, without FFTs).
const SweepSettings& runnable(const SweepSettings& s, const Backend<cd>& backend) {
  if (s.rule == "exact" && s.preconditioner != "lu" && !backend.on_device() &&
      !mom::ConvolutionOperator::available())
    throw std::runtime_error("sparsify rule exact on the cpu backend needs FFTW: install "
                             "libfftw3-dev (tools/install-deps.sh) and rebuild, or run on a "
                             "CUDA device");
  return s;
}

}  // namespace

void solve_line_checks(const geometry::Mesh& mesh, const SweepSettings& settings,
                       Backend<cd>& backend, LineResults& results) {
  (void)band_feed_impedances(mesh, settings, backend, &results);
}

SweepPipeline::SweepPipeline(const geometry::Mesh& mesh, const SweepSettings& settings,
                             Backend<cd>& backend, LineResults* shared_lines)
    : mesh_(mesh),
      settings_(runnable(resolved(settings, mesh, backend), backend)),
      backend_(backend),
      metal_(mom::conductor(mesh.layout().metal)),
      rhs_(mom::port_excitations(mesh)),
      feeds_(band_feed_impedances(mesh, settings, backend, shared_lines)) {
  if (settings_.rule == "mpie") {
    const auto start = clock::now();
    const io::Heartbeat beat("sparse pattern (rule mpie)");
    const bool by_reach = settings_.reach_heights > 0;
    mpie_ = mom::mpie_pattern(
        mesh_, by_reach ? mom::mpie_sparsity_in_heights(mesh_, settings_.reach_heights)
                        : mom::choose_mpie_sparsity(mesh_, settings_.density).sparsity);
    const double n = static_cast<double>(mpie_->n);
    PMOM_LOG(info) << "sparsify rule mpie: charge radius " << mpie_->sparsity.charge_radius
                   << " cells (" << mpie_->sparsity.charge_radius / mom::substrate_height_cells(mesh_)
                   << " substrate heights), L box " << mpie_->sparsity.along << " x "
                   << mpie_->sparsity.across << " cells: density "
                   << static_cast<double>(mpie_->nnz()) / (n * n) << " for "
                   << (by_reach ? "a reach of " : "")
                   << (by_reach ? settings_.reach_heights : settings_.density)
                   << (by_reach ? " heights" : "") << " (pattern "
                   << seconds_since(start) << " s)";
  }
  const bool fixed_pattern = mpie_ && !settings_.check_dense && settings_.format != "hyb";
  {
    // On a fixed pattern only the table entries its Z reads; the dense Z needs them all.
    const auto start = clock::now();
    const io::Heartbeat beat("offset tables' plan");
    std::optional<mom::PlanPattern> reads;
    if (fixed_pattern)
      reads = mom::PlanPattern{mpie_->row_ptr, mpie_->col_idx, mom::charge_reach2(mpie_->sparsity)};
    plan_ = mom::make_table_plan(mesh_, assembly_options(settings_), reads ? &*reads : nullptr);
    PMOM_LOG(info) << "offset tables: " << plan_.entries.size() << " entries, "
                   << plan_.lookups() << " Green's lookups a frequency (plan "
                   << seconds_since(start) << " s)";
  }
  if (!metal_.perfect()) {
    const auto start = clock::now();
    const io::Heartbeat beat("strips' loss terms");
    gram_ = mom::strip_loss_entries(mesh_, plan_.edge_profiles);
    // A sparse Z holds the image term's near entries only.
    if (mpie_) gram_ = mom::entries_in_pattern(gram_, mpie_->row_ptr, mpie_->col_idx);
    PMOM_LOG(info) << "strips' loss terms: " << gram_.size() << " entries ("
                   << seconds_since(start) << " s)";
  }
  const bool on_device = backend_.on_device();
  if (fixed_pattern) {
    make_in_place();
    if (on_device)
      make_device_fill(mom::FillPattern{mpie_->n, mpie_->row_ptr, mpie_->col_idx,
                                        mom::charge_reach2(mpie_->sparsity)},
                       "tables and Z written into the solver's CSR on the device");
  } else if (!mpie_ && !settings_.check_dense && on_device && settings_.rule != "exact") {
    const auto n = static_cast<index_t>(mesh_.basis().size());
    dense_z_ = backend_.allocate<cd>(n, n);
    make_device_fill(mom::FillPattern::all(n),
                     "tables and the dense Z on the device, thresholded there to the density");
  }
  if (uses_blocks(settings_)) {
    // Blocks at most as large as a row of the operator is long, so that their product costs
    // no more than Z's (a sparse Z keeps them small), and within the limits of
    // tile_blocks.hpp.
    const auto n = static_cast<index_t>(mesh_.basis().size());
    const double per_row = mpie_ ? static_cast<double>(mpie_->nnz()) / n : settings_.density * n;
    const bool dense = !mpie_ && settings_.density >= 1;  // rule exact: density 1
    const int most = static_cast<int>(std::clamp(
        per_row, 32.0, double(dense ? kLargestDenseBlock : kLargestSparseBlock)));
    const int tile = tile_for(mesh_, most);
    blocks_ = std::make_unique<BlockJacobi>(backend_, tile_blocks(mesh_, tile), n);
    PMOM_LOG(info) << "preconditioner: block Jacobi on tiles of " << tile << " cells, "
                   << blocks_->blocks() << " blocks of up to " << blocks_->largest()
                   << " functions";
    if (in_place_) in_place_->solver->set_preconditioner(blocks_->inverse());
    if (in_place_ || device_fill_) set_block_positions();
  }
  if (settings_.rule == "exact") {
    exact_ = std::make_unique<ExactOperator>(
        mesh_, plan_, gram_, backend_, blocks_.get(), static_cast<int>(mesh_.ports().size()),
        uses_lu(settings_),
        [this](const mom::GreensTable& g, mom::InteractionTables& into) { host_tables(g, into); });
    PMOM_LOG(info) << "sparsify rule exact: " << exact_->summary();
  }
  if (uses_lu(settings_)) {
    recycled_ = std::make_unique<RecycledInverse>(backend_);
    PMOM_LOG(info) << "preconditioner: Z's LU at one frequency for the next ones, made anew "
                      "once a solve takes more iterations than the LU's cost spread over the "
                      "solves since it, or more than "
                   << kRefreshIterations;
  }
  backend_.synchronize();  // uploads and zeroing are done before any fill writes
}

// Where the block preconditioner reads Z on the backend: the in-place CSR (rule mpie; entries
// outside its pattern are 0) or the dense Z, row-major.
void SweepPipeline::set_block_positions() {
  const auto n = static_cast<std::int64_t>(mesh_.basis().size());
  if (!in_place_) {
    blocks_->set_positions([n](index_t i, index_t j) { return i * n + j; });
    return;
  }
  blocks_->set_positions([this](index_t i, index_t j) {
    return csr_position(mpie_->row_ptr, mpie_->col_idx, i, j);
  });
}

void SweepPipeline::make_device_fill(mom::FillPattern pattern, const char* what) {
  const auto start = clock::now();
  device_fill_ = std::make_unique<mom::DeviceFill>(mesh_, plan_, std::move(pattern), gram_);
  PMOM_LOG(info) << "fill on the GPU: " << what << " (set-up " << seconds_since(start) << " s)";
}

void SweepPipeline::make_in_place() {
  const mom::MpiePattern& pattern = *mpie_;
  Csr<cd> zeros;
  zeros.rows = zeros.cols = pattern.n;
  zeros.row_ptr = pattern.row_ptr;
  zeros.col_idx = pattern.col_idx;
  zeros.values.assign(zeros.col_idx.size(), cd(0.0));
  SolverOptions o = solver_options(settings_, Format::csr);
  // The values are rewritten in place, so Aᴴ (BiCG) must come from A, not a stored copy.
  o.adjoint = AdjointMode::transposed_kernel;
  const bool bicg = o.method == Method::bicg;
  InPlace& p = in_place_.emplace();
  p.op = backend_.make_operator(zeros, operator_options(o, bicg));
  p.solver = std::make_unique<Solver<cd>>(backend_, p.op, o, kSymmetric);
}

// Z of one frequency into the device fill's target (the in-place operator's values or the
// dense Z), its tables already started when the last frequency solved.
void SweepPipeline::fill_on_device(const mom::GreensTable& greens, std::span<const cd> loads,
                                   cd* values) {
  if (tables_started_hz_ != greens.frequency()) device_fill_->start_tables(greens);
  device_fill_->assemble(loads, values, mom::strip_impedance(metal_, greens.frequency()));
}

// Rule magnitude on the device: the dense Z thresholded there into a new CSR operator.
std::shared_ptr<Operator<cd>> SweepPipeline::threshold_on_device(io::FrequencyRecord& r) {
  const auto start = clock::now();
  const auto n = static_cast<index_t>(mesh_.basis().size());
  const sparsify::DeviceThreshold threshold(dense_z_.data(), n, settings_.density);
  Block<index_t> row_ptr = backend_.allocate<index_t>(n + 1, 1);
  Block<index_t> col_idx = backend_.allocate<index_t>(threshold.nnz(), 1);
  Block<cd> values = backend_.allocate<cd>(threshold.nnz(), 1);
  backend_.synchronize();  // their zeroing is queued on the backend's stream
  threshold.write(row_ptr.data(), col_idx.data(), values.data());
  r.nnz = threshold.nnz();
  SolverOptions o = solver_options(settings_, Format::csr);
  o.adjoint = AdjointMode::transposed_kernel;
  auto op = backend_.make_csr_operator(n, std::move(row_ptr), std::move(col_idx),
                                       std::move(values),
                                       operator_options(o, o.method == Method::bicg));
  r.seconds_sparsify = seconds_since(start);
  return op;
}

// The strips' loss terms (nothing for perfect metal).
template <class Z> void SweepPipeline::add_metal_loss(double frequency_hz, Z& z) const {
  if (!gram_.empty())
    mom::add_surface_impedance(gram_, mom::strip_impedance(metal_, frequency_hz), z);
}

mom::GreensTable SweepPipeline::greens_table(double frequency_hz) const {
  const geometry::Substrate& sub = mesh_.layout().substrate;
  return {mom::Slab{sub.eps_r, sub.loss_tangent, sub.height_mm * 1e-3, metal_}, frequency_hz,
          mom::required_rho_max(mesh_.grid()), table_options(settings_)};
}

bool SweepPipeline::interpolates_tables() const {
  return settings_.interpolate_tables &&
         settings_.frequencies_hz.size() >= SweepSettings::kBandTablesFrom;
}

bool SweepPipeline::wants_band_tables() const {
  return interpolates_tables() && !backend_.on_device();
}

void SweepPipeline::make_band_tables(const mom::BandTables::Share& share) {
  const std::vector<double>& f = settings_.frequencies_hz;
  const auto start = clock::now();
  const auto [lo, hi] = std::minmax_element(f.begin(), f.end());
  const double tolerance = settings_.greens_table_accuracy * 1e-3;
  {
    const io::Heartbeat beat("offset tables over the band");
    band_ = std::make_unique<mom::BandTables>(
        plan_, [this](double hz) { return greens_table(hz); }, *lo, *hi, tolerance, share);
  }
  if (band_->interpolates())
    PMOM_LOG(info) << "offset tables over " << *lo * 1e-9 << "-" << *hi * 1e-9
                   << " GHz interpolated from " << band_->nodes() << " frequencies ("
                   << band_->evaluations() << " evaluated" << (share ? ", shared by the ranks" : "")
                   << ", checked between them to " << band_->error()
                   << " of the largest entry, tolerance " << tolerance << "; "
                   << seconds_since(start) << " s)";
  else
    PMOM_LOG(warning) << "offset tables over " << *lo * 1e-9 << "-" << *hi * 1e-9
                      << " GHz: 33 frequencies interpolate them only to " << band_->error()
                      << " of the largest entry (tolerance " << tolerance
                      << "); every frequency evaluates them";
}

mom::InteractionTables SweepPipeline::host_tables(const mom::GreensTable& greens) {
  mom::InteractionTables t;
  host_tables(greens, t);
  return t;
}

void SweepPipeline::host_tables(const mom::GreensTable& greens, mom::InteractionTables& into) {
  if (!interpolates_tables()) {
    into = mom::evaluate_tables(plan_, greens);
    return;
  }
  if (!band_) make_band_tables();
  band_->at(greens, into);
}

// Z of one frequency into the in-place operator's values, on the device or from the host.
void SweepPipeline::fill_in_place(const mom::GreensTable& greens, std::span<const cd> loads) {
  InPlace& p = *in_place_;
  cd* values = backend_.csr_values(*p.op);
  if (device_fill_) {
    fill_on_device(greens, loads, values);
  } else {
    Csr<cd> z = mom::assemble_sparse_impedance(mesh_, host_tables(greens), *mpie_);
    mom::add_port_loads(mesh_, loads, z);
    add_metal_loss(greens.frequency(), z);
    backend_.copy_bytes(values, z.values.data(), z.values.size() * sizeof(cd),
                        CopyKind::to_backend);
  }
  p.solver->refresh();
  if (blocks_) blocks_->update_on_backend(values);
}

// A new sparse Z of one frequency: rule mpie on its pattern, or the dense Z thresholded to the
// density (rule magnitude); the dense Z kept in `z` for the dense check.
Csr<cd> SweepPipeline::sparse_z(const mom::GreensTable& greens, std::span<const cd> loads,
                                io::FrequencyRecord& r, std::optional<mom::ImpedanceMatrix>& z) {
  auto start = clock::now();
  Csr<cd> sparse;
  {
    // The tables live only while the matrices are built.
    const mom::InteractionTables tables = host_tables(greens);
    if (settings_.check_dense || !mpie_) {
      z = mom::assemble_impedance(mesh_, tables);
      mom::add_port_loads(mesh_, loads, *z);
      add_metal_loss(greens.frequency(), *z);
    }
    if (mpie_) {
      sparse = mom::assemble_sparse_impedance(mesh_, tables, *mpie_);
      mom::add_port_loads(mesh_, loads, sparse);
      add_metal_loss(greens.frequency(), sparse);
    }
  }
  r.seconds_fill = seconds_since(start);
  r.seconds_sparsify = 0;
  if (!mpie_) {
    start = clock::now();
    sparse = sparsify::sparsify(z->values, static_cast<index_t>(mesh_.basis().size()),
                                sparsify::ThresholdPolicy::target_density(settings_.density))
                 .matrix;
    r.seconds_sparsify = seconds_since(start);
    // Without the check the dense Z is not needed any more: free it before the solve.
    if (!settings_.check_dense) z.reset();
  }
  return sparse;
}

io::FrequencyRecord SweepPipeline::run(double frequency_hz, std::vector<cd>& guess,
                                       std::optional<double> next) {
  io::FrequencyRecord r;
  r.frequency_hz = frequency_hz;
  const io::Heartbeat beat(std::to_string(frequency_hz * 1e-9) + " GHz");
  const auto n = static_cast<index_t>(mesh_.basis().size());
  const auto p = static_cast<index_t>(mesh_.ports().size());

  auto start = clock::now();
  const std::vector<cd> loads = settings_.termination == "matched"
                                    ? feeds_.matched_loads(frequency_hz)
                                    : std::vector<cd>(mesh_.ports().size(), cd(0.0));
  // The table built in the background during the last frequency's solve, where there is one
  // (the time recorded is then only the wait for it).
  if (next_greens_.valid()) prepared_.emplace(next_greens_.get());
  const mom::GreensTable greens = prepared_ && prepared_->frequency() == frequency_hz
                                      ? std::move(*prepared_)
                                      : greens_table(frequency_hz);
  prepared_.reset();
  r.seconds_greens = seconds_since(start);
  start = clock::now();
  std::optional<mom::ImpedanceMatrix> z;  // the dense Z, for the dense check
  Csr<cd> sparse;
  std::optional<Solver<cd>> own_solver;  // a new matrix every frequency: its own solver
  Solver<cd>* solver = nullptr;
  if (exact_) {
    const std::shared_ptr<Operator<cd>> op =
        exact_->at(greens, loads, mom::strip_impedance(metal_, frequency_hz),
                   tables_started_hz_ == frequency_hz);
    r.nnz = static_cast<long long>(n) * n;  // every interaction is in the product
    r.seconds_fill = seconds_since(start);
    start = clock::now();
    solver = &own_solver.emplace(backend_, op, solver_options(settings_, Format::function),
                                 kSymmetric);
    if (blocks_) solver->set_preconditioner(blocks_->inverse());
    if (recycled_) {
      if (recycled_->stale())
        recycled_->refresh(
            [&] {
              return exact_->dense(greens, loads, mom::strip_impedance(metal_, frequency_hz));
            },
            frequency_hz);
      solver->set_preconditioner(recycled_->inverse());
    }
  } else if (in_place_) {
    fill_in_place(greens, loads);
    r.seconds_fill = seconds_since(start);
    r.seconds_sparsify = 0;
    r.nnz = static_cast<long long>(mpie_->nnz());
    solver = in_place_->solver.get();
    start = clock::now();
  } else if (device_fill_) {
    fill_on_device(greens, loads, dense_z_.data());
    r.seconds_fill = seconds_since(start);
    const std::shared_ptr<Operator<cd>> op = threshold_on_device(r);
    start = clock::now();
    solver = &own_solver.emplace(backend_, op, solver_options(settings_, Format::csr), kSymmetric);
    if (blocks_) {
      blocks_->update_on_backend(dense_z_.data());
      solver->set_preconditioner(blocks_->inverse());
    }
  } else {
    sparse = sparse_z(greens, loads, r, z);
    r.nnz = sparse.nnz();
    start = clock::now();
    solver = &own_solver.emplace(backend_, sparse,
                                 solver_options(settings_, format_for(settings_, sparse)));
    if (blocks_) {
      blocks_->update([&sparse](index_t i, index_t j) {
        const std::int64_t at = csr_position(sparse.row_ptr, sparse.col_idx, i, j);
        return at < 0 ? cd(0.0) : sparse.values[static_cast<std::size_t>(at)];
      });
      solver->set_preconditioner(blocks_->inverse());
    }
  }
  r.density = static_cast<double>(r.nnz) / (static_cast<double>(n) * n);
  if (guess.size() != rhs_.size()) guess.assign(rhs_.size(), cd(0.0));
  // On the device fill's path the host is free while the device solves: the next frequency's
  // Green's table is built meanwhile (on the host's cores, which a CPU solve would need).
  mom::DeviceFill* fill = device_fill_ ? device_fill_.get() : exact_ ? exact_->device_fill() : nullptr;
  const bool overlap = next && fill != nullptr;
  if (overlap)
    next_greens_ = std::async(std::launch::async, [this, f = *next] { return greens_table(f); });
  const auto iterating = clock::now();  // the LU, where one was made, is not the solve's
  const SolveResult solved = solver->solve(rhs_, guess, p);
  const double seconds_iterating = seconds_since(iterating);
  r.seconds_solve = seconds_since(start);
  if (overlap) {
    // Its offset tables start on the device's fill stream while this frequency is de-embedded
    // and written.
    prepared_.emplace(next_greens_.get());
    fill->start_tables(*prepared_);
    tables_started_hz_ = prepared_->frequency();
  }
  r.iterations = solved.iterations;
  if (recycled_) recycled_->record(solved.iterations, seconds_iterating);
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
  // With every entry of Z kept the feeds are the line checks' line (its cross-section and
  // losses, a long line): γ from there, not fitted on the feeds' short windows, where the
  // near fields bend it. A thresholded Z is another line, whose γ only a fit on the feeds
  // sees (docs/VALIDATION.md, "Convergence in every knob").
  const bool every_entry = r.nnz == static_cast<long long>(n) * n;
  r.s = every_entry ? mom::deembed(mesh_, guess, feeds_.at(frequency_hz),
                                   feeds_.propagation_constants(frequency_hz))
                          .s
                    : mom::deembed(mesh_, guess, feeds_.at(frequency_hz)).s;
  r.seconds_deembed = seconds_since(start);
  return r;
}

}  // namespace pmom::sweep
