// Measures the reference CPU backend against Eigen on the same matrices: SpMV (GB/s of the
// CSR arrays and vectors it must read and write) and Jacobi-preconditioned BiCGSTAB time per
// iteration. Usage: planarmom-cpu-vs-eigen FILE.mtx... (complex matrices are run as complex).
#include <Eigen/IterativeLinearSolvers>
#include <Eigen/Sparse>
#include <chrono>
#include <complex>
#include <iomanip>
#include <iostream>

#include "planarmom/bench/timing.hpp"
#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/gpusolver/solver.hpp"
#include "planarmom/io/load_matrix.hpp"

namespace {

using Clock = std::chrono::steady_clock;

template <class F> double median_seconds(int reps, F&& f) {
  std::vector<double> t;
  f();  // warm-up
  for (int r = 0; r < reps; ++r) {
    const auto s = Clock::now();
    f();
    t.push_back(std::chrono::duration<double>(Clock::now() - s).count());
  }
  return pmom::bench::summarize(t).median;
}

// Fewest bytes of y = Ax from CSR: values, column indices and row offsets once, x and y once.
template <class T> double spmv_bytes(const pmom::Csr<T>& a) {
  return static_cast<double>(a.nnz()) * (sizeof(T) + sizeof(pmom::index_t)) +
         (a.rows + 1.0) * sizeof(pmom::index_t) + 2.0 * a.rows * sizeof(T);
}

template <class T> void run(const std::string& name, const pmom::Csr<T>& a) {
  using SpMat = Eigen::SparseMatrix<T, Eigen::RowMajor, pmom::index_t>;
  const Eigen::Map<const SpMat> ea(a.rows, a.cols, a.nnz(), a.row_ptr.data(), a.col_idx.data(),
                                   a.values.data());
  const SpMat e = ea;
  using Vec = Eigen::Matrix<T, Eigen::Dynamic, 1>;
  const Vec x = Vec::Ones(a.cols);
  Vec y(a.rows);
  const int reps = std::max(20, static_cast<int>(2e7 / (a.nnz() + 1)));
  const double t_eigen = median_seconds(reps, [&] { y.noalias() = e * x; });

  auto backend = pmom::make_cpu_backend<T>();
  pmom::OperatorOptions oo;
  oo.need_adjoint = false;
  auto op = backend->make_operator(a, oo);
  auto bx = backend->template allocate<T>(a.cols, 1);
  auto by = backend->template allocate<T>(a.rows, 1);
  backend->template upload<T>(std::vector<T>(a.cols, T(1)), bx);
  const double t_ours = median_seconds(reps, [&] { backend->spmv(*op, pmom::Transpose::none, bx, by); });

  // BiCGSTAB, fixed 200 iterations (tolerance out of reach) on both sides.
  const int iters = 200;
  Vec b = e * x;
  Eigen::BiCGSTAB<SpMat, Eigen::DiagonalPreconditioner<T>> eigen_solver;
  eigen_solver.setMaxIterations(iters);
  eigen_solver.setTolerance(1e-300);
  eigen_solver.compute(e);
  const double t_eigen_it = median_seconds(3, [&] { Vec s = eigen_solver.solve(b); }) /
                            static_cast<double>(std::max<Eigen::Index>(1, eigen_solver.iterations()));
  pmom::SolverOptions so;
  so.method = pmom::Method::bicgstab;
  so.tolerance = 1e-300;
  so.max_iterations = iters;
  so.stagnation_window = iters + 1;
  so.record_history = false;
  pmom::Solver<T> solver(*backend, a, so);
  const std::vector<T> bv(b.data(), b.data() + b.size());
  int our_iters = 1;
  const double t_ours_solve = median_seconds(3, [&] {
    std::vector<T> xs;
    our_iters = std::max(1, solver.solve(bv, xs).iterations);
  });
  const double bytes = spmv_bytes(a);
  std::cout << std::left << std::setw(14) << name << std::right << std::setw(7) << a.rows
            << std::setw(9) << a.nnz() << std::fixed << std::setprecision(2) << std::setw(10)
            << bytes / t_ours * 1e-9 << std::setw(10) << bytes / t_eigen * 1e-9 << std::setw(10)
            << t_eigen / t_ours << std::setprecision(4) << std::setw(12)
            << t_ours_solve / our_iters * 1e3 << std::setw(12) << t_eigen_it * 1e3
            << std::setprecision(2) << std::setw(9)
            << t_eigen_it / (t_ours_solve / our_iters) << '\n';
}

}  // namespace

int main(int argc, char** argv) {
  std::cout << "matrix              n      nnz  ours GB/s eigen GB/s  spmv x   ours ms/it "
               "eigen ms/it  bicgstab x\n";
  try {
    for (int i = 1; i < argc; ++i) {
      const std::filesystem::path f = argv[i];
      const auto m = pmom::io::read_matrix_market(f);
      if (m.entries.rows != m.entries.cols) continue;
      if (pmom::io::is_complex_field(m))
        run(f.filename().string(), pmom::io::to_csr_matrix<std::complex<double>>(m, f));
      else
        run(f.filename().string(), pmom::io::to_csr_matrix<double>(m, f));
    }
  } catch (const std::exception& e) {
    std::cerr << "planarmom-cpu-vs-eigen: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
