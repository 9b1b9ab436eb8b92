// Runs each requested solver on each matrix file: warm-up, timed repetitions, and the
// per-iteration figures of the table.
#include "planarmom/bench/matrix_bench.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>

#include "planarmom/bench/artificial.hpp"
#include "planarmom/bench/baseline.hpp"
#include "planarmom/bench/flops.hpp"
#include "planarmom/bench/synthetic.hpp"
#include "planarmom/gpusolver/auto_choice.hpp"
#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/gpusolver/convert.hpp"
#include "planarmom/io/load_matrix.hpp"
#include "planarmom/logging/logging.hpp"

namespace pmom::bench {
namespace fs = std::filesystem;

namespace {

bool is_matrix_file(const fs::path& p) {
  const std::string name = p.filename().string();
  auto ends_with = [&](const std::string& s) {
    return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
  };
  return ends_with(".mtx") || ends_with(".mtx.gz");
}

bool applies(Method m, const MatrixTraits& t) {
  switch (m) {
    case Method::cocg: return t.complex_symmetric;
    case Method::cg: return t.hermitian && t.positive_real_diagonal;
    default: return true;
  }
}

// The solver options of each run of `method`: one per sweep order where it sweeps, else one.
std::vector<SolverOptions> run_options(const BenchOptions& options, Method method) {
  std::vector<SolverOptions> runs;
  for (const SweepOrder order : options.orderings) {
    SolverOptions so = options.solver;
    so.method = method;
    so.ordering = order;
    so.record_history = false;
    if (!runs.empty() && !needs_sweeps(method, so)) break;
    runs.push_back(so);
  }
  return runs;
}

// Why a run cannot go at all (the solver would refuse it), or empty.
template <class T>
std::string impossible(Method m, const SolverOptions& so, bool zero_diagonal,
                       const Backend<T>* backend) {
  const bool sweeps = needs_sweeps(m, so);
  if (so.preconditioner == Preconditioner::ssor && sweeps && m != Method::gauss_seidel &&
      m != Method::cg && m != Method::cocg)
    return "SSOR preconditioning runs with cg and cocg only";
  if (zero_diagonal && (sweeps || m == Method::jacobi))
    return "the matrix has zero diagonal entries, which relaxation divides by";
  if (sweeps && so.ordering == SweepOrder::natural && backend && !backend->sequential_sweeps())
    return "natural-order sweeps need the cpu backend";
  return {};
}

template <class T>
std::vector<T> make_column(const Csr<T>& a, RhsKind kind, std::uint64_t seed) {
  const auto n = static_cast<std::size_t>(a.rows);
  std::vector<T> b(n, T(1));
  if (kind == RhsKind::a_times_ones) {
    for (std::size_t i = 0; i < n; ++i) {
      T s(0);
      for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) s += a.values[k];
      b[i] = s;
    }
  } else if (kind == RhsKind::random) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (T& v : b) {
      if constexpr (is_complex_v<T>) v = T(u(rng), u(rng));
      else v = u(rng);
    }
  }
  return b;
}

template <class T> std::vector<T> make_rhs(const Csr<T>& a, const BenchOptions& o) {
  std::vector<T> b = make_column(a, o.rhs, o.seed);
  for (index_t c = 1; c < o.nrhs; ++c) {
    const std::vector<T> col = make_column(a, RhsKind::random, o.seed + static_cast<unsigned>(c));
    b.insert(b.end(), col.begin(), col.end());
  }
  return b;
}

// One solve as the table needs it, whichever solver did it, summed over right-hand sides.
struct Run {
  Method method = Method::bicg;
  std::optional<Format> format;  // where the solve chose it
  Outcome outcome = Outcome::converged;
  int iterations = 0;
  double true_residual = 0, recurrence_residual = 0, seconds = 0;
  // ‖b − Ax‖∞ over the right-hand sides; NaN where the runner does not report it (baseline).
  double true_residual_inf = std::numeric_limits<double>::quiet_NaN();
  int refinements = 0;
  bool finished_in_double = false;

  // Every right-hand side of a solver's result.
  void add(const SolveResult& r) {
    method = r.method;
    seconds = r.seconds;
    for (const RhsResult& c : r.rhs) {
      add(c.outcome, c.iterations, c.true_residual, c.recurrence_residual);
      true_residual_inf = std::fmax(true_residual_inf, c.true_residual_inf);
      refinements = std::max(refinements, c.refinements);
      finished_in_double = finished_in_double || c.finished_in_double;
    }
  }

  void add(Outcome o, int it, double true_res, double rec_res) {
    if (outcome == Outcome::converged) outcome = o;
    iterations = std::max(iterations, it);
    true_residual = std::max(true_residual, true_res);
    recurrence_residual = std::max(recurrence_residual, rec_res);
  }
};

// Warm-up runs, then timed repetitions of `solve`; the row keeps the last run's results.
template <class T, class Solve>
BenchRow measure(const BenchOptions& options, const std::string& name, const Csr<T>& a,
                 const std::string& backend, Solve&& solve) {
  std::vector<double> seconds;
  Run run;
  for (int rep = 0; rep < options.warmup + options.repetitions; ++rep) {
    run = solve();
    if (rep >= options.warmup) seconds.push_back(run.seconds);
  }
  BenchRow row;
  row.matrix = name;
  row.field = is_complex_v<T> ? "complex" : "real";
  row.n = a.rows;
  row.nnz = static_cast<std::size_t>(a.nnz());
  row.backend = backend;
  row.format = to_string(run.format.value_or(options.solver.format));
  row.method = run.method;
  if (run.method != Method::jacobi && run.method != Method::gauss_seidel)
    row.preconditioner = to_string(options.solver.preconditioner);
  row.nrhs = options.nrhs;
  row.outcome = run.outcome;
  row.iterations = run.iterations;
  row.true_residual = run.true_residual;
  row.true_residual_inf = run.true_residual_inf;
  row.refinements = run.refinements;
  row.finished_in_double = run.finished_in_double;
  row.recurrence_residual = run.recurrence_residual;
  row.time = summarize(seconds);
  if (row.iterations > 0) {
    row.seconds_per_iteration = row.time.median / row.iterations;
    row.gflops = flops_per_iteration(row.method, row.n, row.nnz, is_complex_v<T>,
                                     options.solver.preconditioner) *
                 static_cast<double>(options.nrhs) / row.seconds_per_iteration * 1e-9;
  }
  return row;
}

template <class T>
void bench_matrix(const BenchOptions& options, const std::string& name, const Csr<T>& a,
                  std::vector<BenchRow>& rows, const RowCallback& on_row) {
  const MatrixTraits traits = analyse(a);
  const std::vector<T> diag = diagonal(a);
  const bool zero_diagonal = std::find(diag.begin(), diag.end(), T(0)) != diag.end();
  const bool baseline = options.backend == "baseline";
  auto backend = baseline ? nullptr : make_backend<T>(options.backend);
  const std::vector<T> b = make_rhs(a, options);
  const auto n = static_cast<std::size_t>(a.rows);
  for (Method method : options.methods) {
    if (!options.force && !applies(method, traits)) {
      PMOM_LOG(debug) << name << ": " << to_string(method)
                      << " skipped (matrix lacks the symmetry it needs)";
      continue;
    }
    for (const SolverOptions& so : run_options(options, method)) {
      if (const std::string why = impossible(method, so, zero_diagonal, backend.get());
          !why.empty()) {
        PMOM_LOG(debug) << name << ": " << to_string(method) << " (" << to_string(so.ordering)
                        << " order) skipped: " << why;
        continue;
      }
      BenchRow row;
      if (baseline) {
        if (method != Method::bicg && method != Method::bicgstab) {
          PMOM_LOG(debug) << name << ": the baseline runs BiCG and BiCGSTAB only, "
                          << to_string(method) << " skipped";
          continue;
        }
        const auto library_solve =
            method == Method::bicg ? baseline_bicg<T> : baseline_bicgstab<T>;
        row = measure(options, name, a, "baseline (cuSPARSE+cuBLAS)", [&] {
          Run run;
          run.method = method;
          for (index_t c = 0; c < options.nrhs; ++c) {
            std::vector<T> x;
            const BaselineResult r =
                library_solve(a, std::span<const T>(b).subspan(c * n, n), x, so);
            run.add(r.outcome, r.iterations, r.true_residual, r.recurrence_residual);
            run.seconds += r.seconds;
          }
          return run;
        });
      } else if (method == Method::automatic || options.automatic.choose_format) {
        AutoOptions automatic = options.automatic;
        automatic.choose_method = method == Method::automatic;
        // Without a trial the choice and its solvers are made once, as a named pair's solver
        // is, so both are timed alike (solves only, fallbacks included); the trial's whole
        // cost counts in every solve.
        std::optional<FallbackSolver<T>> chosen;
        if (!automatic.trial) chosen.emplace(make_automatic_solver<T>(*backend, a, so, automatic));
        row = measure(options, name, a, backend->name(), [&] {
          std::vector<T> x;
          const SolveResult r =
              chosen ? chosen->solve(b, x, options.nrhs)
                     : solve_automatically<T>(*backend, a, b, x, options.nrhs, so, automatic);
          Run run;
          run.add(r);
          run.format = r.format;
          return run;
        });
        row.automatic = true;
        row.trial = automatic.trial;
      } else {
        for (const Precision p : options.precisions) {
          if (p == Precision::double_precision) {
            Solver<T> solver(*backend, a, so);
            row = measure(options, name, a, backend->name(), [&] {
              std::vector<T> x;
              Run run;
              run.add(solver.solve(b, x, options.nrhs));
              return run;
            });
            if (solver.ordering() != SweepOrder::automatic)
              row.ordering = to_string(solver.ordering());
            row.colours = solver.colours();
          } else {
            PrecisionSolver<T> solver(options.backend, a, so, p, options.refinement);
            row = measure(options, name, a, solver.backend_name(), [&] {
              std::vector<T> x;
              Run run;
              run.add(solver.solve(b, x, options.nrhs));
              return run;
            });
          }
          row.precision = to_string(p);
          rows.push_back(row);
          if (on_row) on_row(row);
        }
        continue;
      }
      rows.push_back(row);
      if (on_row) on_row(row);
    }
  }
}

}  // namespace

std::vector<fs::path> collect_matrix_files(const std::vector<fs::path>& inputs) {
  std::vector<fs::path> files;
  for (const fs::path& in : inputs) {
    if (fs::is_directory(in)) {
      std::vector<fs::path> found;
      for (const auto& e : fs::directory_iterator(in))
        if (e.is_regular_file() && is_matrix_file(e.path())) found.push_back(e.path());
      if (found.empty())
        throw std::runtime_error(in.string() + ": no .mtx or .mtx.gz files in this folder");
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::exists(in)) {
      files.push_back(in);
    } else {
      throw std::runtime_error(in.string() + ": no such file or folder");
    }
  }
  if (files.empty()) throw std::runtime_error("bench: no matrix files given");
  return files;
}

std::vector<BenchRow> run_bench(const BenchOptions& options, const RowCallback& on_row) {
  if (options.repetitions < 1 || options.warmup < 0 || options.nrhs < 1)
    throw std::invalid_argument("bench: repetitions and right-hand sides must be >= 1, "
                                "warm-up >= 0");
  AutoOptions automatic = options.automatic;  // checked before anything runs
  automatic.choose_method = std::find(options.methods.begin(), options.methods.end(),
                                      Method::automatic) != options.methods.end();
  validate(automatic);
  std::vector<BenchRow> rows;
  const std::vector<fs::path> files =
      options.inputs.empty() ? std::vector<fs::path>{} : collect_matrix_files(options.inputs);
  if (files.empty() && options.synthetic_sizes.empty() && options.artificial_sizes.empty())
    throw std::invalid_argument("bench: give Matrix Market files or folders, or synthetic or "
                                "artificial sizes");
  // Bad artificial settings are reported before anything runs, not after the files.
  for (index_t n : options.artificial_sizes) artificial_offsets(n, options.artificial_diagonals);
  for (const fs::path& file : files) {
    const io::MatrixMarketMatrix m = io::read_matrix_market(file);
    const bool complex_field = io::is_complex_field(m);
    if ((options.field == FieldFilter::complex && !complex_field) ||
        (options.field == FieldFilter::real && complex_field))
      continue;
    if (m.entries.rows != m.entries.cols) {
      PMOM_LOG(warning) << file.string() << ": not square (" << m.entries.rows << " x "
                        << m.entries.cols << "), skipped";
      continue;
    }
    PMOM_LOG(info) << "bench " << file.filename().string() << ": n = " << m.entries.rows
                   << ", " << m.entries.nnz() << " entries, "
                   << (complex_field ? "complex" : "real");
    const std::string name = file.filename().string();
    if (complex_field)
      bench_matrix(options, name, io::to_csr_matrix<std::complex<double>>(m, file), rows, on_row);
    else
      bench_matrix(options, name, io::to_csr_matrix<double>(m, file), rows, on_row);
  }
  if (options.field != FieldFilter::real)
    for (index_t n : options.synthetic_sizes) {
      PMOM_LOG(info) << "bench synthetic MoM-like matrix: n = " << n << ", density "
                     << options.synthetic_density;
      bench_matrix(options, "mom-synthetic-" + std::to_string(n),
                   synthetic_mom_matrix(n, options.synthetic_density, options.seed), rows,
                   on_row);
    }
  for (index_t n : options.artificial_sizes) {
    const ArtificialSpec spec{n, options.artificial_diagonals, options.artificial_dominant,
                              options.seed};
    if (options.field != FieldFilter::complex) {
      PMOM_LOG(info) << "bench " << artificial_name(spec, false);
      bench_matrix(options, artificial_name(spec, false), artificial_matrix<double>(spec), rows,
                   on_row);
    }
    if (options.field != FieldFilter::real) {
      PMOM_LOG(info) << "bench " << artificial_name(spec, true);
      bench_matrix(options, artificial_name(spec, true),
                   artificial_matrix<std::complex<double>>(spec), rows, on_row);
    }
  }
  return rows;
}

std::string to_string(RhsKind kind) {
  switch (kind) {
    case RhsKind::a_times_ones: return "A1";
    case RhsKind::ones: return "ones";
    case RhsKind::random: return "random";
  }
  return "?";
}

RhsKind parse_rhs_kind(const std::string& name) {
  for (RhsKind k : {RhsKind::a_times_ones, RhsKind::ones, RhsKind::random})
    if (to_string(k) == name) return k;
  throw std::invalid_argument("unknown right-hand side '" + name + "' (A1, ones or random)");
}

}  // namespace pmom::bench
