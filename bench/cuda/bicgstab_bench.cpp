// The BiCGSTAB paper's measurements on this project's GPU code (docs/BENCHMARKS.md): per matrix,
// SpMV GFLOP/s for cuSPARSE's CSR and every format of the CUDA backend (the paper's Table 3),
// and the merged BiCGSTAB's saving per iteration over the library route, split into the part
// from kernel fusion and the part from the SpMV, against the bytes-moved floor (its Table 5).
// A development tool, not installed; CUDA host code only (no kernels of its own).
//
//   planarmom-bicgstab-bench [MATRICES...] [--synthetic N,...] [--table spmv|saving|all] ...
//   planarmom-bicgstab-bench --traffic      # the kernel lists and their bytes; no device needed
//
// The split (paper_tables.hpp): each route's iteration is timed as whole solves (the solver as
// it runs by default; the library route as baseline_bicgstab), each route's SpMV alone on the
// same matrix and vectors; SpMV saving = 2 × (cuSPARSE SpMV − the backend's), fusion saving =
// the rest of the difference. See docs/BENCHMARKS.md for why this and not a third route.
#include <CLI/CLI.hpp>

#include <complex>
#include <iostream>
#include <memory>
#include <random>
#include <tuple>

#include "library_spmv.hpp"
#include "planarmom/bench/bandwidth.hpp"
#include "planarmom/bench/baseline.hpp"
#include "planarmom/bench/matrix_bench.hpp"
#include "planarmom/bench/paper_tables.hpp"
#include "planarmom/bench/synthetic.hpp"
#include "planarmom/bench/timing.hpp"
#include "planarmom/bench/traffic.hpp"
#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/io/load_matrix.hpp"
#include "planarmom/logging/logging.hpp"

namespace pmom::bench {
namespace {

struct Options {
  std::vector<std::string> inputs;
  std::vector<index_t> synthetic;
  double density = 0.05;
  std::string field = "all";
  std::string formats = "csr,hyb,ellr,sellp,dia";
  std::string table = "all";
  SolverOptions solver;
  int warmup = 1;
  int reps = 3;
  bool traffic = false;
};

// ---- the traffic model, printed -------------------------------------------------------------

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

void print_traffic(std::ostream& os, const char* title, Route route, bool jacobi) {
  const std::vector<KernelTraffic> kernels = bicgstab_iteration(route, jacobi);
  os << "\n### " << title << "\n\n";
  MarkdownTable t({{"kernel", false}, {"reads", false}, {"writes", false}, {"vector passes"},
                   {"host sync", false}});
  for (const KernelTraffic& k : kernels)
    t.add_row({k.kernel, joined(k.reads), joined(k.writes),
               k.spmv ? "SpMV" : std::to_string(k.vector_passes()), k.host_sync ? "yes" : ""});
  t.write(os);
  const IterationSummary s = summarize(kernels);
  os << "\n" << s.launches << " launches (" << s.spmvs << " SpMV), " << s.host_syncs
     << (route == Route::merged ? " host syncs (the solver's stopping test adds one per check, "
                                  "every 8 iterations on CUDA by default), "
                                : " host syncs, ")
     << s.vector_passes << " vector passes outside the SpMVs (the paper's "
     << "bound: " << paper_vector_bound << ", +" << jacobi_vector_passes << " with Jacobi), "
     << s.spmv_vector_passes << " in them\n";
}

// ---- measurements -----------------------------------------------------------------------------

// A only, in format f (the tables never multiply by Aᴴ).
OperatorOptions spmv_operator(Format f) {
  OperatorOptions op;
  op.format = f;
  op.need_adjoint = false;
  return op;
}

template <class T>
SpmvRow time_spmvs(Backend<T>& backend, const Csr<T>& a, const MatrixInfo& info,
                   const std::vector<Format>& formats) {
  Block<T> x = backend.template allocate<T>(a.cols, 1), y = backend.template allocate<T>(a.rows, 1);
  std::mt19937_64 rng(7);
  backend.template upload<T>(random_bounded_values<T>(static_cast<std::size_t>(a.cols), rng), x);
  SpmvRow row;
  row.matrix = info;
  BatchTiming how;
  how.wait = [&] { backend.synchronize(); };
  for (Format f : formats) {
    std::unique_ptr<Operator<T>> op;
    try {
      op = backend.make_operator(a, spmv_operator(f));
    } catch (const std::invalid_argument& e) {  // DIA past its fill limit
      PMOM_LOG(info) << info.name << ": " << to_string(f) << " left out: " << e.what();
      continue;
    }
    row.seconds[f] = time_per_call([&] { backend.spmv(*op, Transpose::none, x, y); }, how).seconds;
  }
  gpu::CusparseSpmv<T> library(backend, a, x, y);
  how.wait = [&] { library.synchronize(); };
  row.library_seconds = time_per_call([&] { library.run(); }, how).seconds;
  return row;
}

// Warm-up solves, then the median of the timed ones; outcome and iterations of the last.
template <class Solve> RouteTiming repeat(const Options& o, double spmv_seconds, Solve&& solve) {
  RouteTiming t;
  std::vector<double> seconds;
  for (int rep = 0; rep < o.warmup + o.reps; ++rep) {
    const auto [outcome, iterations, s] = solve();
    t.outcome = outcome;
    t.iterations = iterations;
    if (rep >= o.warmup) seconds.push_back(s);
  }
  t.seconds_per_iteration = t.iterations > 0 ? summarize(seconds).median / t.iterations : 0;
  t.spmv_seconds = spmv_seconds;
  return t;
}

template <class T>
void bench_matrix(const Options& o, const std::vector<Format>& formats, const Csr<T>& a,
                  const std::string& name, const DeviceBandwidth& bw,
                  std::vector<SpmvRow>& spmv_rows, std::vector<SavingRow>& saving_rows) {
  const MatrixInfo info{name, is_complex_v<T> ? "complex" : "real", a.rows,
                        static_cast<std::size_t>(a.nnz())};
  PMOM_LOG(info) << info.name << ": n = " << info.n << ", " << info.nnz << " non-zeros, "
                 << info.field;
  const std::unique_ptr<Backend<T>> backend = make_cuda_backend<T>();
  const SpmvRow spmv = time_spmvs(*backend, a, info, formats);
  spmv_rows.push_back(spmv);
  if (o.table == "spmv") return;

  // b = A·1 (the exact solution is known), formed on the device.
  std::vector<T> b;
  {
    const auto op = backend->make_operator(a, spmv_operator(Format::csr));
    Block<T> ones = backend->template allocate<T>(a.cols, 1);
    Block<T> ab = backend->template allocate<T>(a.rows, 1);
    backend->template upload<T>(std::vector<T>(static_cast<std::size_t>(a.cols), T(1)), ones);
    backend->spmv(*op, Transpose::none, ones, ab);
    b = backend->download(ab);
  }
  SolverOptions so = o.solver;
  so.method = Method::bicgstab;
  so.record_history = false;
  const RouteTiming library = repeat(o, spmv.library_seconds, [&] {
    std::vector<T> x;
    const BaselineResult r = baseline_bicgstab<T>(a, b, x, so);
    return std::tuple(r.outcome, r.iterations, r.seconds);
  });
  const auto bytes = [&](Route route) {
    return iteration_bytes(summarize(bicgstab_iteration(route, so.preconditioner == Preconditioner::jacobi)), info.n, info.nnz,
                           sizeof(T));
  };
  for (Format f : formats) {
    if (!spmv.seconds.contains(f)) continue;  // the format refused the matrix
    so.format = f;
    Solver<T> solver(*backend, a, so);
    const RouteTiming merged = repeat(o, spmv.seconds.at(f), [&] {
      std::vector<T> x;
      const SolveResult r = solver.solve(b, x);
      return std::tuple(r.rhs[0].outcome, r.rhs[0].iterations, r.seconds);
    });
    if (library.iterations == 0 || merged.iterations == 0) {
      PMOM_LOG(warning) << info.name << " (" << to_string(f)
                        << "): no iterations to time, left out of the saving table";
      continue;
    }
    SavingRow row;
    row.matrix = info;
    row.format = f;
    row.library = library;
    row.merged = merged;
    row.library_bytes = bytes(Route::library);
    // The merged route moves the fewest bytes an iteration must (docs/PERFORMANCE.md): it is
    // also the floor.
    row.merged_bytes = row.floor_bytes = bytes(Route::merged);
    row.bandwidth_gbs = bw.read_gbs;
    saving_rows.push_back(row);
  }
}

void run(const Options& o) {
  if (o.traffic) {
    std::cout << "## One BiCGSTAB iteration, kernel by kernel (vector pass = n values)\n";
    print_traffic(std::cout, "merged, Jacobi", Route::merged, true);
    print_traffic(std::cout, "merged, no preconditioner", Route::merged, false);
    print_traffic(std::cout, "library route (cuSPARSE + cuBLAS)", Route::library, true);
    return;
  }
  const std::vector<Format> formats = parse_formats(o.formats);
  if (o.inputs.empty() && o.synthetic.empty())
    throw std::invalid_argument("give Matrix Market files or folders, or --synthetic sizes");
  // First, while the device memory is free for the probe's buffers.
  const DeviceBandwidth bw = measure_device_bandwidth();
  std::vector<SpmvRow> spmv_rows;
  std::vector<SavingRow> saving_rows;
  const std::vector<std::filesystem::path> inputs(o.inputs.begin(), o.inputs.end());
  if (!inputs.empty())
    for (const auto& file : collect_matrix_files(inputs)) {
      const io::MatrixMarketMatrix m = io::read_matrix_market(file);
      const bool complex_field = io::is_complex_field(m);
      if ((o.field == "complex" && !complex_field) || (o.field == "real" && complex_field))
        continue;
      if (m.entries.rows != m.entries.cols) {
        PMOM_LOG(warning) << file.string() << ": not square, skipped";
        continue;
      }
      const std::string name = file.filename().string();
      if (complex_field)
        bench_matrix(o, formats, io::to_csr_matrix<std::complex<double>>(m, file), name, bw,
                     spmv_rows, saving_rows);
      else
        bench_matrix(o, formats, io::to_csr_matrix<double>(m, file), name, bw, spmv_rows,
                     saving_rows);
    }
  if (o.field != "real")
    for (index_t n : o.synthetic)
      bench_matrix(o, formats, synthetic_mom_matrix(n, o.density),
                   "mom-synthetic-" + std::to_string(n), bw, spmv_rows, saving_rows);

  std::cout << "device: " << bw.device_name << ", " << bw.sm_count << " SMs, L2 "
            << bw.l2_bytes / (1 << 20) << " MiB; measured read " << fixed(bw.read_gbs, 1)
            << " GB/s (the floors' bandwidth), copy " << fixed(bw.copy_gbs, 1) << " GB/s\n";
  if (o.table != "saving") {
    std::cout << "\n## SpMV GFLOP/s per format (the BiCGSTAB paper's Table 3)\n\n"
                 "One y = Ax, median of 5 batches of >= 50 ms; flops: a multiply-add per stored "
                 "entry (complex 8, real 2).\n\n";
    write_spmv_table(std::cout, spmv_rows, formats);
  }
  if (o.table != "spmv") {
    std::cout << "\n## Merged BiCGSTAB against the library route (the BiCGSTAB paper's Table 5)"
                 "\n\nb = A*1, x0 = 0, tol "
              << o.solver.tolerance << ", at most " << o.solver.max_iterations
              << " iterations, Jacobi " << (o.solver.preconditioner == Preconditioner::jacobi ? "on" : "off")
              << "; per iteration: median of " << o.reps << " solves after " << o.warmup
              << " warm-up / iterations. Saving % of the library route's time; floor = fewest "
                 "bytes (CSR arrays, each vector pass once) / read bandwidth.\n\n";
    write_saving_table(std::cout, saving_rows);
  }
}

}  // namespace
}  // namespace pmom::bench

int main(int argc, char** argv) {
  pmom::bench::Options o;
  CLI::App app{"The BiCGSTAB paper's Tables 3 and 5 (SpMV per format; merged BiCGSTAB against "
               "the cuSPARSE + cuBLAS route) on this GPU"};
  app.add_option("inputs", o.inputs, "Matrix Market files or folders of them");
  app.add_option("--synthetic", o.synthetic, "MoM-like complex symmetric matrices of these sizes")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  app.add_option("--density", o.density, "Density of the synthetic matrices")
      ->capture_default_str()
      ->check(CLI::Range(1e-6, 1.0));
  app.add_option("--field", o.field, "Which matrix files: all, complex or real")
      ->capture_default_str()
      ->check(CLI::IsMember({"all", "complex", "real"}));
  app.add_option("--formats", o.formats, "The CUDA backend's formats to compare, comma-separated")
      ->capture_default_str();
  app.add_option("--table", o.table,
                 "spmv (Table 3), saving (Table 5, needs the SpMV timings) or all")
      ->capture_default_str()
      ->check(CLI::IsMember({"spmv", "saving", "all"}));
  app.add_option("--tol", o.solver.tolerance, "Stop at ||r||/||b|| <= tol")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--max-iter", o.solver.max_iterations, "Iteration limit of both routes")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_flag("--no-jacobi", [&o](std::int64_t) { o.solver.preconditioner = pmom::Preconditioner::none; },
               "Both routes without the Jacobi preconditioner");
  app.add_option("--warmup", o.warmup, "Untimed solves per route")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_option("--reps", o.reps, "Timed solves per route (the median is reported)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_flag("--traffic", o.traffic,
               "Print each route's kernels with the vectors they move, and nothing else");
  CLI11_PARSE(app, argc, argv);
  try {
    pmom::logging::init_logging({});
    pmom::bench::run(o);
    return 0;
  } catch (const std::exception& e) {
    std::cout.flush();
    PMOM_LOG(error) << "planarmom-bicgstab-bench: " << e.what();
    return 1;
  }
}
