// Names of methods and outcomes, and the host-side matrix analysis behind Method::automatic.
#include <algorithm>
#include <stdexcept>

#include "planarmom/gpusolver/convert.hpp"
#include "planarmom/gpusolver/solver.hpp"

namespace pmom {

std::string to_string(Method m) {
  switch (m) {
    case Method::automatic: return "auto";
    case Method::bicg: return "bicg";
    case Method::cocg: return "cocg";
    case Method::bicgstab: return "bicgstab";
    case Method::cg: return "cg";
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
  }
  return "?";
}

Method parse_method(const std::string& name) {
  for (Method m : {Method::automatic, Method::bicg, Method::cocg, Method::bicgstab, Method::cg})
    if (to_string(m) == name) return m;
  throw std::invalid_argument("unknown solver '" + name +
                              "' (choose auto, bicg, cocg, bicgstab or cg)");
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

template MatrixTraits analyse(const Csr<double>&);
template MatrixTraits analyse(const Csr<std::complex<double>>&);

}  // namespace pmom
