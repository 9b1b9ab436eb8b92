// solver_setup.hpp: the typed settings turned into the solver's options.
#include "solver_setup.hpp"

#include "planarmom/sparsify/format_choice.hpp"

namespace pmom::sweep {
namespace {

bool cocg(const SweepSettings& s) {
  return s.method == Method::automatic || s.method == Method::cocg;
}

}  // namespace

bool uses_blocks(const SweepSettings& s) {
  return s.preconditioner == PreconditionerChoice::block && cocg(s);
}

bool uses_lu(const SweepSettings& s) {
  return s.preconditioner == PreconditionerChoice::lu && cocg(s);
}

SolverOptions solver_options(const SweepSettings& s, Format format) {
  SolverOptions o;
  o.method = s.method;
  if (uses_blocks(s) || uses_lu(s)) o.preconditioner = Preconditioner::none;  // not Jacobi
  o.tolerance = s.tolerance;
  o.max_iterations = s.max_iterations;
  o.record_history = false;
  o.format = format;
  return o;
}

Format format_for(const SweepSettings& s, const Csr<std::complex<double>>& a) {
  switch (s.format) {
    case ZFormat::hyb: return Format::hyb;
    case ZFormat::csr: return Format::csr;
    case ZFormat::automatic: break;
  }
  return sparsify::suggest_format(a);
}

}  // namespace pmom::sweep
