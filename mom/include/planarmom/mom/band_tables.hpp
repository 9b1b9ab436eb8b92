// The offset tables (table_plan.hpp) over a sweep's band from a few exact evaluations: at
// Chebyshev-Lobatto nodes of the band, interpolated between them (barycentric) with each
// offset's free-space phase e^{-jk0R} taken out, which leaves every entry a smooth function of
// frequency, so a few nodes cover a band. The nodes double (5, 9, 17, 33: each level holds the
// last) until the interpolant agrees with an exact evaluation between the first two nodes and
// between the middle ones within the tolerance (relative to the largest entry); where 33 do not,
// every frequency is evaluated exactly. Why: an evaluation is most of a host frequency's cost,
// and a long sweep needs only a handful (accuracy and savings: docs/PERFORMANCE.md, "the host's
// offset tables interpolated over the band").
#pragma once

#include <complex>
#include <functional>
#include <vector>

#include "planarmom/mom/greens_table.hpp"
#include "planarmom/mom/table_plan.hpp"

namespace pmom::mom {

// The host's offset tables at a Green's table's frequency, into `into` (empty, or the same
// plan's tables at another frequency, whose storage may be reused): evaluate_tables, or a
// BandTables'.
using HostTables = std::function<void(const GreensTable& greens, InteractionTables& into)>;

class BandTables {
 public:
  // The plan's entries' values (evaluate_entries) at one frequency.
  using Entries = std::vector<std::complex<double>>;
  // Every frequency's entries of a batch, in order, evaluating (with `one`) those it takes on:
  // an MPI sweep shares each batch among its ranks (mpi_sweep.hpp). Empty: all evaluated here.
  using Share = std::function<std::vector<Entries>(const std::vector<double>& frequencies_hz,
                                                   const TablePlan& plan,
                                                   const std::function<Entries(double)>& one)>;

  // greens(f): the Green's table at f (the plan's range). Each level's new nodes and checks are
  // one batch for `share`. Throws std::invalid_argument for a band that is not lo < hi, or a
  // tolerance not in (0, 1).
  BandTables(const TablePlan& plan, std::function<GreensTable(double)> greens, double lo_hz,
             double hi_hz, double tolerance, const Share& share = {});

  // The tables at f: interpolated, or evaluated from greens (where f is outside the band or
  // the interpolation missed the tolerance).
  [[nodiscard]] InteractionTables at(const GreensTable& greens) const;
  // The same into `into`: empty, or this plan's tables at another frequency (from at() or
  // evaluate_tables), whose storage an interpolation reuses: its unused slots are already 0,
  // so only the entries and their copies are written (not all the plan's slots zeroed anew).
  void at(const GreensTable& greens, InteractionTables& into) const;

  [[nodiscard]] bool interpolates() const { return !nodes_hz_.empty(); }
  // The exact evaluations made (nodes and checks) and the checks' error relative to the
  // largest entry (of the last level tried).
  [[nodiscard]] int evaluations() const { return evaluations_; }
  [[nodiscard]] int nodes() const { return static_cast<int>(nodes_hz_.size()); }
  [[nodiscard]] double error() const { return error_; }

 private:
  // Only the plan's entries are interpolated (a twentieth of the tables' slots on the coupler
  // example, the rest unused or their copies): the same tables as interpolating every slot.
  [[nodiscard]] Entries interpolate(double frequency_hz) const;

  const TablePlan& plan_;
  double lo_ = 0, hi_ = 0;
  std::vector<double> nodes_hz_, weights_;
  std::vector<std::vector<std::complex<double>>> stripped_;  // entries' node values × e^{+jk0R}
  std::vector<double> distance_m_;  // R of each of the plan's entries
  int evaluations_ = 0;
  double error_ = 0;
};

}  // namespace pmom::mom
