// A matrix rewritten in place on the backend (Backend::csr_values, Solver::refresh), as the GPU
// fill does between frequencies: a solver on the operator alone must give, bit for bit, what a
// solver built from the host matrix gives, before and after the values change. The second
// matrix triples the first one's diagonal, so a stale Jacobi diagonal would change the iterates.
#pragma once

#include <gtest/gtest.h>

#include <type_traits>

#include "planarmom/gpusolver/solver.hpp"
#include "support/systems.hpp"

namespace pmom::test {

inline void expect_in_place_values_solve_alike(Backend<std::complex<double>>& backend) {
  using cplx = std::complex<double>;
  const Csr<cplx> first = make_system<cplx>(SystemKind::complex_symmetric, 300, 11);
  Csr<cplx> second = first;
  for (index_t i = 0; i < second.rows; ++i)
    for (index_t k = second.row_ptr[i]; k < second.row_ptr[i + 1]; ++k)
      if (second.col_idx[k] == i) second.values[k] *= 3.0;
  const auto bv = random_vector<cplx>(300, 12);
  const std::vector<cplx> b(bv.data(), bv.data() + bv.size());
  SolverOptions o;
  o.method = Method::cocg;
  o.tolerance = 1e-10;
  std::shared_ptr<Operator<cplx>> op =
      backend.make_operator(first, operator_options(o, /*need_adjoint=*/false));
  Solver<cplx> in_place(backend, op, o, MatrixTraits{true, false, false});
  for (const Csr<cplx>* a : {&first, static_cast<const Csr<cplx>*>(&second)}) {
    if (a == &second) {
      backend.copy_bytes(backend.csr_values(*op), second.values.data(),
                         second.values.size() * sizeof(cplx), CopyKind::to_backend);
      in_place.refresh();
    }
    std::vector<cplx> x_in_place, x_host;
    const SolveResult r = in_place.solve(b, x_in_place);
    const SolveResult h = Solver<cplx>(backend, *a, o).solve(b, x_host);
    SCOPED_TRACE(a == &first ? "first values" : "values rewritten in place");
    EXPECT_EQ(r.rhs[0].outcome, Outcome::converged);
    EXPECT_EQ(r.rhs[0].iterations, h.rhs[0].iterations);
    EXPECT_EQ(x_in_place, x_host);
  }
  // HYB has no CSR values to rewrite.
  SolverOptions hyb = o;
  hyb.format = Format::hyb;
  std::shared_ptr<Operator<cplx>> other =
      backend.make_operator(first, operator_options(hyb, false));
  EXPECT_THROW((void)backend.csr_values(*other), std::logic_error);
}

// An operator over CSR blocks already in backend memory (Backend::make_csr_operator) solves as
// the one built from the same host matrix, bit for bit.
inline void expect_csr_operator_from_blocks_solves_alike(Backend<std::complex<double>>& backend) {
  using cplx = std::complex<double>;
  const Csr<cplx> a = make_system<cplx>(SystemKind::complex_symmetric, 300, 21);
  const auto bv = random_vector<cplx>(300, 22);
  const std::vector<cplx> b(bv.data(), bv.data() + bv.size());
  SolverOptions o;
  o.method = Method::cocg;
  o.tolerance = 1e-10;
  const auto block = [&](const auto& host) {
    using U = typename std::decay_t<decltype(host)>::value_type;
    Block<U> out = backend.template allocate<U>(static_cast<index_t>(host.size()), 1);
    backend.template upload<U>(host, out);
    return out;
  };
  const std::shared_ptr<Operator<cplx>> op = backend.make_csr_operator(
      a.cols, block(a.row_ptr), block(a.col_idx), block(a.values), operator_options(o, false));
  std::vector<cplx> x_blocks, x_host;
  const SolveResult r =
      Solver<cplx>(backend, op, o, MatrixTraits{true, false, false}).solve(b, x_blocks);
  const SolveResult h = Solver<cplx>(backend, a, o).solve(b, x_host);
  EXPECT_EQ(r.rhs[0].outcome, Outcome::converged);
  EXPECT_EQ(r.rhs[0].iterations, h.rhs[0].iterations);
  EXPECT_EQ(x_blocks, x_host);
  SolverOptions stored = o;
  stored.method = Method::bicg;
  EXPECT_THROW((void)backend.make_csr_operator(a.cols, block(a.row_ptr), block(a.col_idx),
                                               block(a.values), operator_options(stored, true)),
               std::invalid_argument);
}

}  // namespace pmom::test
