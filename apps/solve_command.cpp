// `planarmom solve`: one system A x = b from Matrix Market files, solution written back.
#include <complex>
#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "common_options.hpp"
#include "planarmom/gpusolver/auto_choice.hpp"
#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/io/load_matrix.hpp"

namespace pmom::app {
namespace {

struct SolveFlags {
  std::string matrix;
  std::string rhs;
  std::string output;
  SolverFlags solver;
  AutoOptions automatic;
};

// Exit status when the solver stopped without converging: not an error of the input, but a
// script must be able to tell.
constexpr int not_converged_status = 2;

template <class T> int solve_as(const SolveFlags& f, const io::MatrixMarketMatrix& m) {
  const Csr<T> a = io::to_csr_matrix<T>(m, f.matrix);
  std::vector<T> b;
  index_t nrhs = 1;
  if (f.rhs.empty()) {
    b.assign(static_cast<std::size_t>(a.rows), T(0));
    for (index_t i = 0; i < a.rows; ++i)
      for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) b[i] += a.values[k];
    PMOM_LOG(info) << "no right-hand side given: b = A * ones";
  } else {
    const auto bm = io::read_matrix_market(f.rhs);
    if (bm.entries.rows != a.rows)
      throw std::invalid_argument(f.rhs + ": right-hand side has " +
                                  std::to_string(bm.entries.rows) + " rows, the matrix " +
                                  std::to_string(a.rows));
    if constexpr (!is_complex_v<T>)
      if (io::is_complex_field(bm))
        return solve_as<std::complex<double>>(f, m);
    b = io::to_dense_block<T>(bm, f.rhs);
    nrhs = bm.entries.cols;
  }
  const SolverOptions options = resolve_solver_options(f.solver);
  const Precision precision = parse_precision(f.solver.precision);
  std::vector<T> x;
  SolveResult result;
  if (precision == Precision::double_precision) {
    auto backend = make_backend<T>(f.solver.backend);
    PMOM_LOG(info) << "solving n = " << a.rows << ", nnz = " << a.nnz() << " on "
                   << backend->name();
    AutoOptions automatic = f.automatic;
    automatic.choose_method = options.method == Method::automatic;
    automatic.choose_format = automatic_format(f.solver);
    result = solve_automatically<T>(*backend, a, b, x, nrhs, options, automatic);
  } else {
    if (automatic_format(f.solver) || f.automatic.trial)
      throw std::invalid_argument("--format auto and --auto-trial choose in double precision "
                                  "only; name a format for --precision " + f.solver.precision);
    PrecisionSolver<T> solver(f.solver.backend, a, options, precision, f.solver.refinement);
    PMOM_LOG(info) << "solving n = " << a.rows << ", nnz = " << a.nnz() << " on "
                   << solver.backend_name() << " in " << f.solver.precision << " precision";
    result = solver.solve(b, x, nrhs);
  }
  PMOM_LOG(info) << "solved with " << to_string(result.method) << " in "
                 << to_string(result.format);
  for (std::size_t k = 0; k < result.rhs.size(); ++k) {
    const RhsResult& r = result.rhs[k];
    std::cout << "rhs " << k << ": " << to_string(r.outcome) << " after " << r.iterations
              << " iterations, true relative residual " << r.true_residual
              << ", max |b - Ax| " << r.true_residual_inf
              << (r.refinements > 0 ? ", " + std::to_string(r.refinements) + " refinements" : "")
              << (r.finished_in_double ? ", finished in double" : "")
              << '\n';
  }
  std::vector<std::complex<double>> out(x.begin(), x.end());
  io::write_matrix_market_array(f.output, a.rows, nrhs, out, is_complex_v<T>,
                                "solution of " + f.matrix + " by planarmom " +
                                    to_string(result.method));
  PMOM_LOG(info) << "solution written to " << f.output << " (" << result.seconds * 1e3
                 << " ms)";
  return result.all_converged() ? 0 : not_converged_status;
}

int run(const SolveFlags& f) {
  const auto m = io::read_matrix_market(f.matrix);
  if (m.entries.rows != m.entries.cols)
    throw std::invalid_argument(f.matrix + ": the matrix is not square");
  if (io::is_complex_field(m)) return solve_as<std::complex<double>>(f, m);
  return solve_as<double>(f, m);
}

}  // namespace

Command add_solve_command(CLI::App& parent) {
  auto flags = std::make_shared<SolveFlags>();
  CLI::App* app = parent.add_subcommand(
      "solve", "Solve A x = b for a Matrix Market matrix (exit status 2 if not converged)");
  app->add_option("matrix", flags->matrix, "A, a Matrix Market file")
      ->required()
      ->check(CLI::ExistingFile);
  app->add_option("rhs", flags->rhs, "b, a Matrix Market file (array or coordinate; several "
                                     "columns solve together); default b = A * ones")
      ->check(CLI::ExistingFile);
  app->add_option("-o,--output", flags->output, "Where to write x (Matrix Market array)")
      ->required();
  add_solver_options(*app, flags->solver, false);
  add_auto_options(*app, flags->automatic);
  return {app, [flags] { return run(*flags); }};
}

}  // namespace pmom::app
