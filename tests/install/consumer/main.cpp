// Thresholds a small dense complex tridiagonal matrix and solves with it, through the installed
// headers and libraries.
#include <complex>
#include <iostream>
#include <vector>

#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/gpusolver/solver.hpp"
#include "planarmom/logging/logging.hpp"
#include "planarmom/sparsify/sparsify.hpp"

int main() {
  using cplx = std::complex<double>;
  // Dense row-major, thresholded back to its three diagonals.
  std::vector<cplx> dense(50 * 50);
  for (int i = 0; i < 50; ++i) {
    dense[i * 50 + i] = cplx(4.0, 1.0);
    if (i > 0) dense[i * 50 + i - 1] = cplx(-1.0, 0.5);
    if (i < 49) dense[i * 50 + i + 1] = cplx(-1.0, -0.5);
  }
  const auto sparse =
      pmom::sparsify::sparsify(dense, 50, pmom::sparsify::ThresholdPolicy::absolute(0.5));
  if (sparse.report.nnz != 148) {
    std::cerr << "consumer: sparsify kept " << sparse.report.nnz << " entries, expected 148\n";
    return 1;
  }
  auto backend = pmom::make_cpu_backend<cplx>();
  pmom::Solver<cplx> solver(*backend, sparse.matrix, pmom::SolverOptions{});
  const std::vector<cplx> b(50, cplx(1.0, 0.0));
  std::vector<cplx> x;
  const auto result = solver.solve(b, x);
  PMOM_LOG(info) << "consumer: " << pmom::to_string(result.rhs[0].outcome);
  std::cout << pmom::to_string(result.rhs[0].outcome) << '\n';
  return result.all_converged() ? 0 : 1;
}
