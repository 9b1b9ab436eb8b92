// One frequency of a sweep (DESIGN §2): Green's table, the sparse Z, the P port solutions by
// the Krylov solver (warm-started from the previous frequency) and the de-embedded S, referred
// first to the feed lines' own Z0 (from line checks at a few nodes of the band). The sparse Z:
// rule magnitude, the dense Z thresholded to the density (fill, then sparsify); rule mpie, the
// structure-preserving pattern (mom/sparse_assembly.hpp, chosen and built once for the mesh
// and the density) assembled directly as CSR (fill; sparsify takes 0 s), the dense Z built only for
// check_dense.
#pragma once

#include <complex>
#include <future>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/gpusolver/backend.hpp"
#include "planarmom/gpusolver/preconditioners/block_jacobi.hpp"
#include "planarmom/gpusolver/solver.hpp"
#include "planarmom/io/sweep_record.hpp"
#include "planarmom/mom/band_tables.hpp"
#include "planarmom/mom/device_fill.hpp"
#include "planarmom/mom/feed_impedance.hpp"
#include "planarmom/mom/sparse_assembly.hpp"
#include "planarmom/mom/surface_impedance.hpp"
#include "planarmom/mom/surface_loss.hpp"
#include "planarmom/mom/table_plan.hpp"
#include "planarmom/sweep/config.hpp"
#include "planarmom/sweep/exact_operator.hpp"
#include "planarmom/sweep/line_checks.hpp"
#include "planarmom/sweep/recycled_inverse.hpp"

namespace pmom::sweep {

// The feeds' line checks that SweepPipeline's constructor runs first, solved (or read from the
// cache) into `results`: what an MPI sweep's rank 0 sends every rank before they build their
// pipelines at once.
void solve_line_checks(const geometry::Mesh& mesh, const SweepSettings& settings,
                       Backend<std::complex<double>>& backend, LineResults& results);

class SweepPipeline {
 public:
  // The feeds' line checks come first (line_checks.hpp): from `shared_lines` where they are
  // there (solve_line_checks), and every result is added to it.
  SweepPipeline(const geometry::Mesh& mesh, const SweepSettings& settings,
                Backend<std::complex<double>>& backend, LineResults* shared_lines = nullptr);

  // Computes one frequency. `guess` (N×P column-major, or empty) is the initial guess and
  // returns the solutions, for the next frequency. Solver outcomes other than convergence are
  // logged as warnings and the record is still returned (its residual says how far it got).
  // `next`: the frequency the caller will ask for next; on a CUDA backend its Green's table
  // is built on the host while this frequency solves on the device, and its offset tables are
  // computed on the device while this one is de-embedded and written.
  io::FrequencyRecord run(double frequency_hz, std::vector<std::complex<double>>& guess,
                          std::optional<double> next = std::nullopt);

  // Whether Z is filled on the host from tables interpolated over the band (the cpu backend,
  // accuracy.interpolate_tables, kBandTablesFrom frequencies or more).
  [[nodiscard]] bool wants_band_tables() const;
  // Makes the band's tables now, their evaluations shared by `share` (an MPI sweep's ranks,
  // each calling this); otherwise the first host fill makes them, alone.
  void make_band_tables(const mom::BandTables::Share& share = {});

 private:
  // The fixed-pattern path (rule mpie without the dense check): one operator and one solver for
  // the whole sweep, Z rewritten in their CSR values every frequency (by the GPU fill on a CUDA
  // backend, so that Z never passes through the host there).
  struct InPlace {
    std::shared_ptr<Operator<std::complex<double>>> op;
    std::unique_ptr<Solver<std::complex<double>>> solver;
  };
  void make_in_place();
  void make_device_fill(mom::FillPattern pattern, const char* what);
  void fill_on_device(const mom::GreensTable& greens,
                      std::span<const std::complex<double>> loads, std::complex<double>* values);
  std::shared_ptr<Operator<std::complex<double>>> threshold_on_device(io::FrequencyRecord& r);
  [[nodiscard]] mom::GreensTable greens_table(double frequency_hz) const;
  // The host's offset tables at the Green's table's frequency: interpolated over the band
  // (made at the first call) where interpolates_tables(), else evaluated.
  mom::InteractionTables host_tables(const mom::GreensTable& greens);
  // The same into `into` (mom::HostTables: empty, or these tables at another frequency).
  void host_tables(const mom::GreensTable& greens, mom::InteractionTables& into);
  // accuracy.interpolate_tables, and kBandTablesFrom frequencies or more.
  [[nodiscard]] bool interpolates_tables() const;
  Csr<std::complex<double>> sparse_z(const mom::GreensTable& greens,
                                     std::span<const std::complex<double>> loads,
                                     io::FrequencyRecord& r,
                                     std::optional<mom::ImpedanceMatrix>& z);
  void fill_in_place(const mom::GreensTable& greens, std::span<const std::complex<double>> loads);
  void set_block_positions();
  template <class Z> void add_metal_loss(double frequency_hz, Z& z) const;

  const geometry::Mesh& mesh_;
  SweepSettings settings_;
  Backend<std::complex<double>>& backend_;
  mom::Conductor metal_;                  // the strips and the ground
  std::vector<mom::GramEntry> gram_;      // the strips' loss entries; empty for perfect metal
  std::vector<std::complex<double>> rhs_;  // N×P delta gaps
  mom::FeedImpedances feeds_;
  std::optional<mom::MpiePattern> mpie_;  // rule mpie: the pattern for the density, once
  mom::TablePlan plan_;                   // the offset tables' plan, once
  std::unique_ptr<mom::BandTables> band_;  // the host's tables over the band, once asked for
  std::optional<InPlace> in_place_;
  std::unique_ptr<BlockJacobi> blocks_;  // solver.preconditioner block (COCG)
  std::unique_ptr<RecycledInverse> recycled_;  // solver.preconditioner lu (COCG, rule exact)
  // On a CUDA backend without the dense check: the GPU fill, into the in-place operator (rule
  // mpie) or into the dense Z that the device then thresholds (rule magnitude).
  std::unique_ptr<mom::DeviceFill> device_fill_;
  Block<std::complex<double>> dense_z_;
  // Rule exact: Z·x by FFT (exact_operator.hpp).
  std::unique_ptr<ExactOperator> exact_;
  // The next frequency's Green's table: being built, then built; the frequency whose offset
  // tables the device fill holds or is computing (0: none).
  std::future<mom::GreensTable> next_greens_;
  std::optional<mom::GreensTable> prepared_;
  double tables_started_hz_ = 0;
};

}  // namespace pmom::sweep
