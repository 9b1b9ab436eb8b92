// Rule exact's route: every interaction, Z·x by FFT (exact_operator.hpp), preconditioned by
// block Jacobi or by Z's LU at a nearby frequency (recycled_inverse.hpp).
#include <algorithm>
#include <optional>
#include <sstream>

#include "planarmom/gpusolver/preconditioners/folded_inverse.hpp"
#include "planarmom/logging/logging.hpp"
#include "planarmom/mom/mesh_symmetry.hpp"
#include "planarmom/sweep/exact_operator.hpp"
#include "planarmom/sweep/recycled_inverse.hpp"
#include "routes/routes.hpp"
#include "solver_setup.hpp"
#include "timing.hpp"

namespace pmom::sweep {
namespace {

// The layout's symmetries (mom/mesh_symmetry.hpp), which the LU folds Z on, logged.
std::vector<mom::LayoutMirror> logged_symmetries(const ZParts& parts) {
  std::vector<mom::LayoutMirror> mirrors = mom::layout_mirrors(parts.mesh());
  if (mirrors.empty()) return mirrors;
  std::ostringstream names;
  for (const mom::LayoutMirror& m : mirrors)
    names << (&m == &mirrors.front() ? "" : " and ") << mom::name(m.mirror);
  PMOM_LOG(info) << "preconditioner: the layout is symmetric under " << names.str()
                 << ": Z's LU on " << (1 << mirrors.size()) << " parities of about "
                 << parts.unknowns() / (index_t{1} << mirrors.size())
                 << " unknowns each, where the loads are too";
  return mirrors;
}

class FftRoute final : public ZRoute {
 public:
  FftRoute(ZParts& parts, Backend<cd>& backend)
      : parts_(parts), backend_(backend), blocks_(make_tile_preconditioner(parts, backend)) {
    const SweepSettings& s = parts.settings();
    exact_ = std::make_unique<ExactOperator>(
        parts.mesh(), parts.plan(), parts.gram(), backend, blocks_.get(),
        static_cast<int>(parts.mesh().ports().size()), uses_lu(s),
        [&parts](const mom::GreensTable& g, mom::InteractionTables& into) {
          parts.host_tables(g, into);
        },
        [&parts](double hz) { return parts.via_kernels(hz); });
    PMOM_LOG(info) << "sparsify rule exact: " << exact_->summary();
    if (uses_lu(s)) {
      // An adaptive sweep's solves jump about the band: its first LU is at the band's centre
      // (adaptive_run.cpp) and is renewed only for a slow solve.
      const bool adaptive = is_adaptive(s);
      recycled_ = std::make_unique<RecycledInverse>(
          backend, adaptive ? Renewal::when_slow : Renewal::by_cost);
      if (s.symmetry == SymmetryChoice::automatic) mirrors_ = logged_symmetries(parts);
      PMOM_LOG(info) << "preconditioner: Z's LU at one frequency for the next ones, made anew "
                     << (adaptive ? "" : "once a solve takes more iterations than the LU's cost "
                                         "spread over the solves since it, or ")
                     << "once a solve takes more than " << kRefreshIterations << " iterations";
    }
  }

  void fill(const mom::GreensTable& greens, std::span<const cd> loads, bool tables_started,
            io::FrequencyRecord& r) override {
    const auto start = clock::now();
    op_ = exact_->at(greens, loads, parts_.strip(greens.frequency()), tables_started);
    const auto n = static_cast<long long>(parts_.unknowns());
    r.nnz = n * n;  // every interaction is in the product
    r.seconds_fill = seconds_since(start);
  }

  Solver<cd>& solver(const mom::GreensTable& greens, std::span<const cd> loads) override {
    SolverOptions options = solver_options(parts_.settings(), Format::function);
    budget_ = 0;
    if (recycled_) {
      if (recycled_->stale()) refresh(greens, loads);
      // An LU of another frequency: its solve stops where a new LU would have been cheaper.
      budget_ = recycled_->iteration_budget();
      if (budget_ > 0) options.max_iterations = std::min(options.max_iterations, budget_);
    }
    Solver<cd>& solver = solver_.emplace(backend_, op_, options, kSymmetric);
    if (blocks_) solver.set_preconditioner(blocks_->inverse());
    if (recycled_) solver.set_preconditioner(recycled_->inverse());
    return solver;
  }

  bool renewed(const SolveResult& result, const mom::GreensTable& greens,
               std::span<const cd> loads) override {
    if (budget_ == 0 || result.all_converged()) return false;
    PMOM_LOG(info) << "preconditioner: " << result.iterations << " iterations at "
                   << greens.frequency() * 1e-9 << " GHz on an LU of another frequency (budget "
                   << budget_ << ", what a new LU costs): a new one here";
    refresh(greens, loads);
    return true;
  }

  void solved(const SolveResult& result, double seconds_iterating, std::span<const cd>,
              io::FrequencyRecord&) override {
    if (recycled_) recycled_->record(result.iterations, seconds_iterating);
    solver_.reset();
    op_.reset();
  }

  mom::DeviceFill* device_fill() override { return exact_->device_fill(); }

 private:
  void refresh(const mom::GreensTable& greens, std::span<const cd> loads) {
    std::vector<Involution> kept;  // the symmetries the loads keep
    for (const mom::LayoutMirror& m : mirrors_)
      if (m.keeps(loads)) kept.push_back(m.unknowns);
    RecycledLu::Factor folded;
    if (!kept.empty())
      folded = [this, kept](Block<cd> z) {
        const auto columns = static_cast<index_t>(parts_.mesh().ports().size());
        return make_folded_inverse(backend_, std::move(z), kept, std::max<index_t>(1, columns),
                                   FactorPrecision::single);
      };
    recycled_->refresh(
        [&] { return exact_->dense(greens, loads, parts_.strip(greens.frequency())); },
        greens.frequency(), folded);
  }

  ZParts& parts_;
  Backend<cd>& backend_;
  std::unique_ptr<BlockJacobi> blocks_;
  std::unique_ptr<ExactOperator> exact_;
  std::unique_ptr<RecycledInverse> recycled_;
  std::vector<mom::LayoutMirror> mirrors_;  // the layout's symmetries (solver.symmetry auto)
  std::shared_ptr<Operator<cd>> op_;  // the last fill's
  std::optional<Solver<cd>> solver_;
  int budget_ = 0;  // the last solver's iterations on a recycled LU (0: none, or its own)
};

}  // namespace

std::unique_ptr<ZRoute> make_fft_route(ZParts& parts, Backend<std::complex<double>>& backend) {
  return std::make_unique<FftRoute>(parts, backend);
}

}  // namespace pmom::sweep
