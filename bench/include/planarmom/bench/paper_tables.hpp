// The two tables of the BiCGSTAB paper reproduced on this project's GPU code (docs/BENCHMARKS.md):
// SpMV GFLOP/s per matrix and sparse format (its Table 3), and merged BiCGSTAB's saving over
// the library route per matrix, split into the part from kernel fusion and the part from the
// SpMV (its Table 5). Measuring is CUDA code (bench/cuda/bicgstab_bench.cu); the arithmetic
// and the layout live here so that they are tested without a device.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "planarmom/gpusolver/backend.hpp"
#include "planarmom/gpusolver/solver.hpp"

namespace pmom::bench {

// A comma-separated list of format names (to_string(Format)); throws std::invalid_argument
// naming the unknown one and the known ones, or saying the list is empty.
std::vector<Format> parse_formats(const std::string& list);

struct MatrixInfo {
  std::string name;
  std::string field;  // "real" or "complex"
  index_t n = 0;
  std::size_t nnz = 0;
};

// ---- Table 3 ------------------------------------------------------------------------------

struct SpmvRow {
  MatrixInfo matrix;
  double library_seconds = 0;            // cuSPARSE CSR SpMV, one call
  // The CUDA backend's SpMV per format, one call; a format that refuses the matrix (DIA past
  // its fill limit) is absent and shows as "-".
  std::map<Format, double> seconds;
};

double spmv_gflops(const MatrixInfo& m, double seconds);
void write_spmv_table(std::ostream& os, const std::vector<SpmvRow>& rows,
                      const std::vector<Format>& formats);

// ---- Table 5 ------------------------------------------------------------------------------

// One route on one matrix: a whole solve per iteration, and its SpMV alone.
struct RouteTiming {
  Outcome outcome = Outcome::max_iterations;
  int iterations = 0;
  double seconds_per_iteration = 0;  // solve time / iterations
  double spmv_seconds = 0;           // one of the route's SpMVs, timed alone
};

// The saving per iteration, library − merged, split so that fusion + spmv = total exactly:
// spmv = 2 (library SpMV − merged SpMV), fusion = the rest of the iteration, i.e. the library
// route's non-SpMV time minus the merged route's (both iterations have two SpMVs).
struct Saving {
  double total = 0, fusion = 0, spmv = 0;  // seconds per iteration
};
Saving split_saving(const RouteTiming& library, const RouteTiming& merged);

struct SavingRow {
  MatrixInfo matrix;
  Format format = Format::csr;  // the merged route's
  RouteTiming library, merged;
  double library_bytes = 0, merged_bytes = 0;  // per iteration, traffic.hpp's counts
  double floor_bytes = 0;                      // the fewest bytes an iteration must move
  double bandwidth_gbs = 0;                    // the device's measured read bandwidth
};

void write_saving_table(std::ostream& os, const std::vector<SavingRow>& rows);

// ---- layout -------------------------------------------------------------------------------

// A Markdown table whose cells are padded so that the raw text lines up too; numeric columns
// are right-aligned.
class MarkdownTable {
 public:
  struct Column {
    std::string title;
    bool numeric = true;
  };
  explicit MarkdownTable(std::vector<Column> columns);
  // Throws std::invalid_argument unless the row has one cell per column.
  void add_row(std::vector<std::string> cells);
  void write(std::ostream& os) const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

std::string fixed(double v, int decimals);

}  // namespace pmom::bench
