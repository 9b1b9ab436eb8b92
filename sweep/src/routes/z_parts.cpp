// ZParts (z_parts.hpp): the parts made once per mesh, timed and logged, and the host's tables.
#include "z_parts.hpp"

#include <algorithm>
#include <chrono>
#include <optional>

#include "planarmom/logging/heartbeat.hpp"
#include "planarmom/logging/logging.hpp"
#include "planarmom/mom/static_near_store.hpp"
#include "planarmom/mom/sparse_assembly.hpp"
#include "planarmom/mom/stackup.hpp"
#include "timing.hpp"

namespace pmom::sweep {
namespace {

mom::MpiePattern make_mpie_pattern(const geometry::Mesh& mesh, const SweepSettings& s) {
  const auto start = clock::now();
  const logging::Heartbeat beat("sparse pattern (rule mpie)");
  const bool by_reach = s.reach_heights > 0;
  mom::MpiePattern pattern = mom::mpie_pattern(
      mesh, by_reach ? mom::mpie_sparsity_in_heights(mesh, s.reach_heights)
                     : mom::choose_mpie_sparsity(mesh, s.density).sparsity);
  const double n = static_cast<double>(pattern.n);
  PMOM_LOG(info) << "sparsify rule mpie: charge radius " << pattern.sparsity.charge_radius
                 << " cells (" << pattern.sparsity.charge_radius / mom::substrate_height_cells(mesh)
                 << " substrate heights), L box " << pattern.sparsity.along << " x "
                 << pattern.sparsity.across << " cells: density "
                 << static_cast<double>(pattern.nnz()) / (n * n) << " for "
                 << (by_reach ? "a reach of " : "") << (by_reach ? s.reach_heights : s.density)
                 << (by_reach ? " heights" : "") << " (pattern " << seconds_since(start) << " s)";
  return pattern;
}

}  // namespace

bool fixed_pattern(const SweepSettings& s) {
  return s.rule == Rule::mpie && !s.check_dense && s.format != ZFormat::hyb;
}

ZParts::ZParts(const geometry::Mesh& mesh, const SweepSettings& settings)
    : mesh_(mesh), settings_(settings), metal_(mom::conductor(mesh.layout().metal)) {
  if (settings_.rule == Rule::mpie) mpie_ = make_mpie_pattern(mesh_, settings_);
  {
    // On a fixed pattern only the table entries its Z reads; the dense Z needs them all.
    const auto start = clock::now();
    const logging::Heartbeat beat("offset tables' plan");
    std::optional<mom::PlanPattern> reads;
    if (fixed_pattern(settings_))
      reads = mom::PlanPattern{mpie_->row_ptr, mpie_->col_idx, mom::charge_reach2(mpie_->sparsity)};
    plan_ = mom::make_table_plan(mesh_, assembly_options(settings_), reads ? &*reads : nullptr);
    PMOM_LOG(info) << "offset tables: " << plan_.entries.size() << " entries, "
                   << plan_.lookups() << " Green's lookups a frequency (plan "
                   << seconds_since(start) << " s, " << plan_.static_parts_computed
                   << " near static parts computed)";
    for (const std::string& file : mom::static_near_write_failures())
      PMOM_LOG(warning) << "cannot write " << file
                        << " (near static parts used, not kept for the next run)";
  }
  if (!metal_.perfect()) {
    const auto start = clock::now();
    const logging::Heartbeat beat("strips' loss terms");
    gram_ = mom::strip_loss_entries(mesh_, plan_.edge_profiles);
    // A sparse Z holds the image term's near entries only.
    if (mpie_) gram_ = mom::entries_in_pattern(gram_, mpie_->row_ptr, mpie_->col_idx);
    PMOM_LOG(info) << "strips' loss terms: " << gram_.size() << " entries ("
                   << seconds_since(start) << " s)";
  }
}

mom::GreensTable ZParts::greens_table(double frequency_hz) const {
  return {mom::stackup(mesh_.layout().substrate, metal_), frequency_hz,
          mom::required_rho_max(mesh_.grid()), table_options(settings_)};
}

std::optional<mom::ViaKernels> ZParts::via_kernels(double frequency_hz) const {
  if (mesh_.vias().empty()) return std::nullopt;
  const geometry::Substrate& sub = mesh_.layout().substrate;
  return std::optional<mom::ViaKernels>(
      std::in_place, mom::Slab{sub.eps_r, sub.loss_tangent, sub.height_mm * 1e-3, metal_},
      frequency_hz, mom::required_rho_max(mesh_.grid()), table_options(settings_));
}

mom::StripImpedance ZParts::strip(double frequency_hz) const {
  return mom::strip_impedance(metal_, frequency_hz);
}

bool ZParts::interpolates_tables() const {
  // An adaptive sweep solves at least the 7 frequencies the band's tables first evaluate. The
  // band's tables are one pair of layers'.
  return settings_.interpolate_tables && mesh_.layer_count() == 1 &&
         (is_adaptive(settings_) ||
          settings_.frequencies_hz.size() >= SweepSettings::kBandTablesFrom);
}

void ZParts::make_band_tables(const mom::BandTables::Share& share) {
  const std::vector<double>& f = settings_.frequencies_hz;
  const auto start = clock::now();
  const auto [lo, hi] = std::minmax_element(f.begin(), f.end());
  const double tolerance = settings_.greens_table_accuracy * 1e-3;
  {
    const logging::Heartbeat beat("offset tables over the band");
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

void ZParts::host_tables(const mom::GreensTable& greens, mom::InteractionTables& into) {
  if (mesh_.layer_count() > 1) {  // every pair of layers' tables at the frequency
    // `greens` is the lowest layer's own (the mesh's substrate is seen from there).
    const std::vector<mom::GreensTable> pairs =
        mom::layer_pair_tables(mom::stackup(mesh_.layout().substrate, metal_), mesh_.layers(),
                               greens, table_options(settings_));
    into = mom::evaluate_layer_tables(plan_, pairs);
    return;
  }
  if (!interpolates_tables()) {
    into = mom::evaluate_tables(plan_, greens);
    return;
  }
  if (!band_) make_band_tables();
  band_->at(greens, into);
}

mom::InteractionTables ZParts::host_tables(const mom::GreensTable& greens) {
  mom::InteractionTables t;
  host_tables(greens, t);
  return t;
}

}  // namespace pmom::sweep
