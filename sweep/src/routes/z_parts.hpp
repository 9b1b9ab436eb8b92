// What every route that makes Z·x shares, made once for the mesh: the conductor, the offset
// tables' plan, the strips' loss entries, rule mpie's pattern, and the host's offset tables at a
// frequency (interpolated over the band where a sweep is long enough for that to pay).
#pragma once

#include <complex>
#include <memory>
#include <optional>
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/mom/band_tables.hpp"
#include "planarmom/mom/greens_table.hpp"
#include "planarmom/mom/sparse_assembly.hpp"
#include "planarmom/mom/surface_impedance.hpp"
#include "planarmom/mom/surface_loss.hpp"
#include "planarmom/mom/table_plan.hpp"
#include "planarmom/mom/via_greens.hpp"
#include "planarmom/sweep/config.hpp"

namespace pmom::sweep {

// Rule mpie whose Z keeps one pattern for the whole sweep (no dense check, no HYB rebuild): its
// values are rewritten in place, and the tables hold only the entries the pattern reads.
[[nodiscard]] bool fixed_pattern(const SweepSettings& settings);

class ZParts {
 public:
  // Makes the pattern (rule mpie), the plan and the loss entries, each logged with its time.
  ZParts(const geometry::Mesh& mesh, const SweepSettings& settings);
  ZParts(const ZParts&) = delete;
  ZParts& operator=(const ZParts&) = delete;

  [[nodiscard]] const geometry::Mesh& mesh() const { return mesh_; }
  [[nodiscard]] const SweepSettings& settings() const { return settings_; }
  [[nodiscard]] index_t unknowns() const { return static_cast<index_t>(mesh_.unknowns()); }
  [[nodiscard]] const mom::TablePlan& plan() const { return plan_; }
  // The strips' loss entries (empty for perfect metal; within the pattern for rule mpie).
  [[nodiscard]] const std::vector<mom::GramEntry>& gram() const { return gram_; }
  // Rule mpie's pattern; null for the other rules.
  [[nodiscard]] const mom::MpiePattern* mpie() const { return mpie_ ? &*mpie_ : nullptr; }

  [[nodiscard]] mom::GreensTable greens_table(double frequency_hz) const;
  [[nodiscard]] mom::StripImpedance strip(double frequency_hz) const;
  // The vias' kernels at a frequency; none without vias.
  [[nodiscard]] std::optional<mom::ViaKernels> via_kernels(double frequency_hz) const;
  // The strips' loss terms added to z (nothing for perfect metal).
  template <class Z> void add_metal_loss(double frequency_hz, Z& z) const {
    if (!gram_.empty()) mom::add_surface_impedance(gram_, strip(frequency_hz), z);
  }

  // accuracy.interpolate_tables, and an adaptive sweep or SweepSettings::kBandTablesFrom
  // frequencies or more.
  [[nodiscard]] bool interpolates_tables() const;
  // The band's tables now, their evaluations shared by `share` (an MPI sweep's ranks);
  // otherwise the first host_tables call makes them, alone.
  void make_band_tables(const mom::BandTables::Share& share = {});
  // The host's offset tables at the Green's table's frequency: interpolated over the band where
  // interpolates_tables(), else evaluated; into `into` (empty, or tables at another frequency).
  void host_tables(const mom::GreensTable& greens, mom::InteractionTables& into);
  [[nodiscard]] mom::InteractionTables host_tables(const mom::GreensTable& greens);

 private:
  const geometry::Mesh& mesh_;
  const SweepSettings& settings_;
  mom::Conductor metal_;  // the strips and the ground
  std::optional<mom::MpiePattern> mpie_;
  mom::TablePlan plan_;
  std::vector<mom::GramEntry> gram_;
  std::unique_ptr<mom::BandTables> band_;  // made once asked for
};

}  // namespace pmom::sweep
