// Names of methods, preconditioners, sweep orders, precisions, summations and outcomes, and the host-side matrix analysis behind Method::automatic.
#include <algorithm>
#include <stdexcept>

#include "planarmom/gpusolver/convert.hpp"
#include "planarmom/gpusolver/precision.hpp"
#include "planarmom/gpusolver/solver.hpp"

namespace pmom {

std::string to_string(Method m) {
  switch (m) {
    case Method::automatic: return "auto";
    case Method::bicg: return "bicg";
    case Method::cocg: return "cocg";
    case Method::bicgstab: return "bicgstab";
    case Method::cg: return "cg";
    case Method::jacobi: return "jacobi";
    case Method::gauss_seidel: return "gauss-seidel";
  }
  return "?";
}

std::string to_string(Preconditioner p) {
  switch (p) {
    case Preconditioner::none: return "none";
    case Preconditioner::jacobi: return "jacobi";
    case Preconditioner::ssor: return "ssor";
  }
  return "?";
}

std::string to_string(SweepOrder o) {
  switch (o) {
    case SweepOrder::automatic: return "auto";
    case SweepOrder::natural: return "natural";
    case SweepOrder::multicolour: return "multicolour";
  }
  return "?";
}

std::string to_string(Outcome o) {
  switch (o) {
    case Outcome::converged: return "converged";
    case Outcome::max_iterations: return "max-iterations";
    case Outcome::breakdown_rho: return "breakdown (rho = 0)";
    case Outcome::breakdown_sigma: return "breakdown (p~^H A p = 0)";
    case Outcome::breakdown_omega: return "breakdown (omega = 0)";
    case Outcome::not_finite: return "NaN/Inf";
    case Outcome::stagnation: return "stagnation";
    case Outcome::residual_gap: return "residual gap";
    case Outcome::time_limit: return "time limit";
  }
  return "?";
}

std::string to_string(Precision p) {
  switch (p) {
    case Precision::double_precision: return "double";
    case Precision::single_precision: return "single";
    case Precision::mixed: return "mixed";
  }
  return "?";
}

std::string to_string(Summation s) {
  switch (s) {
    case Summation::plain: return "plain";
    case Summation::compensated: return "compensated";
  }
  return "?";
}

namespace {

// The value among `all` whose to_string is `name`; else an error listing every name.
template <class E> E parse_named(const std::string& name, std::initializer_list<E> all,
                                 const std::string& what) {
  std::string names;
  for (E e : all) {
    if (to_string(e) == name) return e;
    names += (names.empty() ? "" : ", ") + to_string(e);
  }
  throw std::invalid_argument("unknown " + what + " '" + name + "' (choose " + names + ")");
}

}  // namespace

Method parse_method(const std::string& name) {
  return parse_named(name,
                     {Method::automatic, Method::bicg, Method::cocg, Method::bicgstab, Method::cg,
                      Method::jacobi, Method::gauss_seidel},
                     "solver");
}

Preconditioner parse_preconditioner(const std::string& name) {
  return parse_named(name, {Preconditioner::none, Preconditioner::jacobi, Preconditioner::ssor},
                     "preconditioner");
}

Precision parse_precision(const std::string& name) {
  return parse_named(
      name, {Precision::double_precision, Precision::single_precision, Precision::mixed},
      "precision");
}

Summation parse_summation(const std::string& name) {
  return parse_named(name, {Summation::plain, Summation::compensated}, "summation");
}

SweepOrder parse_sweep_order(const std::string& name) {
  return parse_named(name, {SweepOrder::automatic, SweepOrder::natural, SweepOrder::multicolour},
                     "sweep order");
}

bool SolveResult::all_converged() const {
  return std::all_of(rhs.begin(), rhs.end(),
                     [](const RhsResult& r) { return r.outcome == Outcome::converged; });
}

template <class T> MatrixTraits analyse(const Csr<T>& a) {
  MatrixTraits t;
  if (a.rows != a.cols) return t;
  t.complex_symmetric = is_symmetric(a);
  t.hermitian = is_hermitian(a);
  const auto d = diagonal(a);
  t.positive_real_diagonal = std::all_of(d.begin(), d.end(), [](const T& v) {
    if constexpr (is_complex_v<T>) return v.imag() == 0 && v.real() > 0;
    else return v > 0;
  });
  return t;
}

#define PMOM_INSTANTIATE(T) template MatrixTraits analyse(const Csr<T>&);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

}  // namespace pmom
