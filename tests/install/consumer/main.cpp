// Solves a small complex tridiagonal system through the installed headers and libraries.
#include <complex>
#include <iostream>

#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/gpusolver/convert.hpp"
#include "planarmom/gpusolver/solver.hpp"
#include "planarmom/io/logging.hpp"

int main() {
  using cplx = std::complex<double>;
  pmom::Coo<cplx> coo;
  coo.rows = coo.cols = 50;
  for (int i = 0; i < 50; ++i) {
    coo.push_back(i, i, cplx(4.0, 1.0));
    if (i > 0) coo.push_back(i, i - 1, cplx(-1.0, 0.5));
    if (i < 49) coo.push_back(i, i + 1, cplx(-1.0, -0.5));
  }
  auto backend = pmom::make_cpu_backend<cplx>();
  pmom::Solver<cplx> solver(*backend, pmom::to_csr(coo), pmom::SolverOptions{});
  const std::vector<cplx> b(50, cplx(1.0, 0.0));
  std::vector<cplx> x;
  const auto result = solver.solve(b, x);
  PMOM_LOG(info) << "consumer: " << pmom::to_string(result.rhs[0].outcome);
  std::cout << pmom::to_string(result.rhs[0].outcome) << '\n';
  return result.all_converged() ? 0 : 1;
}
