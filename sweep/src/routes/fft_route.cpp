// Rule exact's route: every interaction, Z·x by FFT (exact_operator.hpp), preconditioned by
// block Jacobi or by Z's LU at a nearby frequency (recycled_inverse.hpp).
#include <algorithm>
#include <optional>

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
      const std::optional<mom::LayoutMirror> mirror =
          s.symmetry == SymmetryChoice::automatic ? mom::layout_mirror(parts.mesh())
                                                  : std::nullopt;
      if (mirror) {
        mirror_ = *mirror;
        fold_ = fold_parts(mirror->unknowns.image, mirror->unknowns.sign);
        PMOM_LOG(info) << "preconditioner: the layout is symmetric under "
                       << mom::name(mirror->mirror) << ": Z's LU on its two parities, "
                       << fold_[0].kept.size() << " and " << fold_[1].kept.size()
                       << " unknowns, where the loads are too";
      }
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
    RecycledLu::Factor folded;
    if (mirror_ && mirror_->keeps(loads))
      folded = [this](Block<cd> z) {
        const auto columns = static_cast<index_t>(parts_.mesh().ports().size());
        return make_folded_inverse(backend_, std::move(z), fold_, std::max<index_t>(1, columns),
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
  std::optional<mom::LayoutMirror> mirror_;  // the layout's symmetry, where it has one
  std::vector<FoldPart> fold_;                // its two parities
  std::shared_ptr<Operator<cd>> op_;  // the last fill's
  std::optional<Solver<cd>> solver_;
  int budget_ = 0;  // the last solver's iterations on a recycled LU (0: none, or its own)
};

}  // namespace

std::unique_ptr<ZRoute> make_fft_route(ZParts& parts, Backend<std::complex<double>>& backend) {
  return std::make_unique<FftRoute>(parts, backend);
}

}  // namespace pmom::sweep
