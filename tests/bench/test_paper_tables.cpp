// The CPU side of the BiCGSTAB paper's tables: the per-iteration traffic model of both routes
// (against the paper's 18n bound and as a data flow that must hold together), the byte counts,
// the saving split, and the Markdown layout.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "planarmom/bench/paper_tables.hpp"
#include "planarmom/bench/synthetic.hpp"
#include "planarmom/bench/traffic.hpp"

namespace pmom::bench {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream ss(text);
  for (std::string line; std::getline(ss, line);) lines.push_back(line);
  return lines;
}

// The cells of a Markdown table line, without their padding.
std::vector<std::string> cells_of(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream ss(line);
  std::string cell;
  std::getline(ss, cell, '|');  // before the first bar
  while (std::getline(ss, cell, '|')) {
    const auto first = cell.find_first_not_of(' ');
    const auto last = cell.find_last_not_of(' ');
    cells.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
  }
  return cells;
}

TEST(BicgstabTraffic, MergedFormMeetsThePapersBound) {
  const IterationSummary plain = summarize(bicgstab_iteration(Route::merged, false));
  EXPECT_EQ(plain.vector_passes, paper_vector_bound);
  EXPECT_EQ(plain.vector_passes, 18);
  const IterationSummary jacobi = summarize(bicgstab_iteration(Route::merged, true));
  EXPECT_EQ(jacobi.vector_passes, paper_vector_bound + jacobi_vector_passes);
  for (const IterationSummary& s : {plain, jacobi}) {
    EXPECT_EQ(s.launches, 7);  // three fused updates, two reductions, two SpMVs
    EXPECT_EQ(s.spmvs, 2);
    EXPECT_EQ(s.host_syncs, 0);
    EXPECT_EQ(s.spmv_vector_passes, 4);  // each SpMV reads its input and writes its output
  }
}

TEST(BicgstabTraffic, LibraryRouteMovesMoreAndWaitsForTheHost) {
  const IterationSummary lib = summarize(bicgstab_iteration(Route::library, true));
  EXPECT_EQ(lib.spmvs, 2);
  EXPECT_EQ(lib.launches, 18);   // 16 cuBLAS calls and 2 cuSPARSE SpMVs (baseline.hpp)
  EXPECT_EQ(lib.host_syncs, 5);  // r̂ᴴv, tᴴs, ‖t‖, ρ, ‖r‖
  EXPECT_EQ(lib.vector_passes, 38);
  EXPECT_GT(lib.vector_passes, summarize(bicgstab_iteration(Route::merged, true)).vector_passes);
  // The library route applies D⁻¹ whether or not Jacobi is on (ones without it).
  EXPECT_EQ(summarize(bicgstab_iteration(Route::library, false)).vector_passes, 38);
}

// Run each kernel list as a data flow: a kernel may read only what the previous iteration left
// (x, r, r̂, p, v and D⁻¹) or what an earlier kernel of this one wrote, and an iteration must
// leave new x, r, p and v behind. A list that counts a vector it never has, or drops one the
// algorithm needs, fails here.
TEST(BicgstabTraffic, EveryRouteIsACompleteDataFlow) {
  const std::set<std::string> known{"x", "r", "rhat", "p", "phat", "v", "s", "shat", "t", "d"};
  for (Route route : {Route::merged, Route::library})
    for (bool jacobi : {true, false}) {
      SCOPED_TRACE(std::string(route == Route::merged ? "merged" : "library") +
                   (jacobi ? ", Jacobi" : ", no preconditioner"));
      std::set<std::string> available{"x", "r", "rhat", "p", "v", "d"}, written;
      for (const KernelTraffic& k : bicgstab_iteration(route, jacobi)) {
        EXPECT_FALSE(k.reads.empty() && k.writes.empty()) << k.kernel;
        for (const std::string& v : k.reads) {
          EXPECT_TRUE(known.count(v)) << k.kernel << " reads unknown " << v;
          EXPECT_TRUE(available.count(v)) << k.kernel << " reads " << v << " before it exists";
        }
        for (const std::string& v : k.writes) {
          EXPECT_TRUE(known.count(v)) << k.kernel << " writes unknown " << v;
          available.insert(v);
          written.insert(v);
        }
      }
      for (const char* carried : {"x", "r", "p", "v"})
        EXPECT_TRUE(written.count(carried)) << carried << " not updated";
      EXPECT_FALSE(written.count("rhat")) << "the shadow residual is fixed";
    }
}

TEST(BicgstabTraffic, BytesAddTheMatricesToTheVectorPasses) {
  const index_t n = 1000;
  const std::size_t nnz = 50000, complex_bytes = 16;
  // values and column indices per entry, n + 1 row pointers
  EXPECT_DOUBLE_EQ(csr_matrix_bytes(n, nnz, complex_bytes), 50000.0 * 20 + 1001.0 * 4);
  EXPECT_DOUBLE_EQ(csr_spmv_bytes(n, nnz, complex_bytes),
                   csr_matrix_bytes(n, nnz, complex_bytes) + 2.0 * n * complex_bytes);
  const IterationSummary merged = summarize(bicgstab_iteration(Route::merged, true));
  EXPECT_DOUBLE_EQ(iteration_bytes(merged, n, nnz, complex_bytes),
                   2 * csr_spmv_bytes(n, nnz, complex_bytes) + 23.0 * n * complex_bytes);
  EXPECT_DOUBLE_EQ(iteration_bytes(merged, n, nnz, 8, 8), 2 * (50000.0 * 16 + 1001.0 * 8) +
                                                               (23.0 + 4) * n * 8);
}

TEST(PaperTables, SavingSplitsIntoFusionAndSpmvExactly) {
  RouteTiming library, merged;
  library.seconds_per_iteration = 100e-6;
  library.spmv_seconds = 20e-6;
  merged.seconds_per_iteration = 50e-6;
  merged.spmv_seconds = 18e-6;
  const Saving s = split_saving(library, merged);
  EXPECT_DOUBLE_EQ(s.total, 50e-6);
  EXPECT_DOUBLE_EQ(s.spmv, 2 * (20e-6 - 18e-6));
  // non-SpMV time: 100 − 40 = 60 µs against 50 − 36 = 14 µs
  EXPECT_NEAR(s.fusion, 46e-6, 1e-18);
  EXPECT_NEAR(s.fusion + s.spmv, s.total, 1e-18);
  // A slower SpMV of our own shows as a negative SpMV part.
  merged.spmv_seconds = 25e-6;
  EXPECT_LT(split_saving(library, merged).spmv, 0);
}

TEST(PaperTables, FormatsParseByTheirNames) {
  for (const Format f : all_formats) EXPECT_EQ(parse_formats(to_string(f)), std::vector<Format>{f});
  EXPECT_EQ(parse_formats("csr,hyb"), (std::vector<Format>{Format::csr, Format::hyb}));
  try {
    parse_formats("csr,nonsense");
    FAIL() << "an unknown format was accepted";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'nonsense'"), std::string::npos) << what;
    EXPECT_NE(what.find("csr, hyb"), std::string::npos) << what;
  }
  EXPECT_THROW(parse_formats(""), std::invalid_argument);
}

TEST(PaperTables, MarkdownTableLinesUpAndAlignsNumbersRight) {
  MarkdownTable t({{"name", false}, {"value"}});
  t.add_row({"a", "1.5"});
  t.add_row({"longer name", "12345.0"});
  EXPECT_THROW(t.add_row({"one cell"}), std::invalid_argument);
  std::ostringstream os;
  t.write(os);
  const auto lines = lines_of(os.str());
  ASSERT_EQ(lines.size(), 4u);
  for (const std::string& line : lines) {
    EXPECT_EQ(line.size(), lines[0].size()) << line;
    EXPECT_EQ(std::count(line.begin(), line.end(), '|'), 3) << line;
  }
  EXPECT_EQ(lines[0], "| name        |   value |");
  EXPECT_EQ(lines[1], "| ----------- | ------: |");
  EXPECT_EQ(lines[2], "| a           |     1.5 |");
  EXPECT_EQ(lines[3], "| longer name | 12345.0 |");
}

// One column per listed format; a format that refused the matrix shows as "-".
TEST(PaperTables, SpmvTableHasAColumnPerFormatAndPicksTheBest) {
  SpmvRow row;
  row.matrix = {"m.mtx", "complex", 1000, 1000000};
  row.library_seconds = 2e-3;        // 8e6 flops: 4 GFLOP/s
  row.seconds[Format::csr] = 1e-3;   // 8 GFLOP/s
  row.seconds[Format::hyb] = 0.5e-3; // 16 GFLOP/s
  std::ostringstream os;
  write_spmv_table(os, {row}, {Format::csr, Format::hyb});
  const auto lines = lines_of(os.str());
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_NE(lines[0].find("csr GFLOP/s"), std::string::npos);
  EXPECT_NE(lines[0].find("hyb GFLOP/s"), std::string::npos);
  EXPECT_NE(lines[0].find("cuSPARSE csr GFLOP/s"), std::string::npos);
  EXPECT_EQ(cells_of(lines[0]),
            (std::vector<std::string>{"matrix", "field", "n", "nnz", "nnz/row",
                                      "cuSPARSE csr GFLOP/s", "csr GFLOP/s", "hyb GFLOP/s",
                                      "best", "best / cuSPARSE"}));
  EXPECT_EQ(cells_of(lines[2]),
            (std::vector<std::string>{"m.mtx", "complex", "1000", "1000000", "1000.0", "4.0",
                                      "8.0", "16.0", "hyb", "4.00"}));
  // DIA refused the matrix: its cell is "-" and it cannot be the best.
  std::ostringstream refused;
  write_spmv_table(refused, {row}, {Format::csr, Format::dia});
  EXPECT_EQ(cells_of(lines_of(refused.str())[2]),
            (std::vector<std::string>{"m.mtx", "complex", "1000", "1000000", "1000.0", "4.0",
                                      "8.0", "-", "csr", "2.00"}));
  // Real values count 2 flops per entry, not 8.
  row.matrix.field = "real";
  EXPECT_DOUBLE_EQ(spmv_gflops(row.matrix, 1e-3), 2.0);
}

TEST(PaperTables, SavingTableShowsTheSplitAgainstTheFloor) {
  SavingRow row;
  row.matrix = {"m.mtx", "complex", 1000, 50000};
  row.library = {Outcome::converged, 40, 100e-6, 20e-6};
  row.merged = {Outcome::converged, 48, 50e-6, 18e-6};
  row.library_bytes = 2e6;  // 20 GB/s at 100 µs
  row.merged_bytes = row.floor_bytes = 1e6;
  row.bandwidth_gbs = 1000;  // floor 1 µs
  std::ostringstream os;
  write_saving_table(os, {row});
  const auto lines = lines_of(os.str());
  ASSERT_EQ(lines.size(), 3u);
  const auto head = cells_of(lines[0]);
  const auto cells = cells_of(lines[2]);
  ASSERT_EQ(head.size(), cells.size());
  const std::vector<std::pair<std::string, std::string>> expected{
      {"matrix", "m.mtx"},
      {"format", "csr"},
      {"iterations library / merged", "40 / 48"},
      {"outcome library / merged", "converged / converged"},
      {"library us/it", "100.0"},
      {"merged us/it", "50.0"},
      {"saving us/it", "50.0"},
      {"saving %", "50.0"},
      {"from fusion %", "46.0"},  // (100 - 2·20) - (50 - 2·18) = 46 µs of 100
      {"from SpMV %", "4.0"},
      {"library GB/s", "20.0"},
      {"merged GB/s", "20.0"},
      {"floor us/it", "1.00"},
      {"library t/floor", "100.00"},
      {"merged t/floor", "50.00"}};
  for (const auto& [column, value] : expected) {
    const auto at = std::find(head.begin(), head.end(), column);
    ASSERT_NE(at, head.end()) << "no column " << column;
    EXPECT_EQ(cells[static_cast<std::size_t>(at - head.begin())], value) << column;
  }
}

// The GPU benchmarks' vectors: never zero, bounded, and genuinely signed or complex.
TEST(BenchVectors, RandomValuesAreBoundedAwayFromZero) {
  std::mt19937_64 rng(3);
  const auto complex_values = random_bounded_values<std::complex<double>>(1000, rng);
  const auto real_values = random_bounded_values<double>(1000, rng);
  ASSERT_EQ(complex_values.size(), 1000u);
  ASSERT_EQ(real_values.size(), 1000u);
  for (const auto& z : complex_values) {
    EXPECT_GE(std::abs(z), 0.5);
    EXPECT_LE(std::abs(z), 1.0);
  }
  for (double v : real_values) {
    EXPECT_GE(std::abs(v), 0.5);
    EXPECT_LE(std::abs(v), 1.0);
  }
  EXPECT_TRUE(std::any_of(real_values.begin(), real_values.end(), [](double v) { return v < 0; }));
  EXPECT_TRUE(std::any_of(complex_values.begin(), complex_values.end(),
                          [](const auto& z) { return z.imag() < 0; }));
}

}  // namespace
}  // namespace pmom::bench
