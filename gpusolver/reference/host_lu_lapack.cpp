// host_lu.hpp by LAPACK's getrf through LAPACKE, the reciprocal condition number by gecon.
#include <complex>
// LAPACKE's complex types as the C++ ones (lapack.h documents the override).
#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>
#include <lapacke.h>

#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "host_lu.hpp"
#include "host_lu_check.hpp"

namespace pmom::cpu {
namespace {

// LAPACKE's routines per value type: the 1-norm, the factorisation and the condition estimate.
template <class T> struct Lapack;
template <> struct Lapack<float> {
  static constexpr auto lange = LAPACKE_slange;
  static constexpr auto getrf = LAPACKE_sgetrf;
  static constexpr auto gecon = LAPACKE_sgecon;
};
template <> struct Lapack<double> {
  static constexpr auto lange = LAPACKE_dlange;
  static constexpr auto getrf = LAPACKE_dgetrf;
  static constexpr auto gecon = LAPACKE_dgecon;
};
template <> struct Lapack<std::complex<float>> {
  static constexpr auto lange = LAPACKE_clange;
  static constexpr auto getrf = LAPACKE_cgetrf;
  static constexpr auto gecon = LAPACKE_cgecon;
};
template <> struct Lapack<std::complex<double>> {
  static constexpr auto lange = LAPACKE_zlange;
  static constexpr auto getrf = LAPACKE_zgetrf;
  static constexpr auto gecon = LAPACKE_zgecon;
};

}  // namespace

template <class T> std::vector<int> factor_lu(T* a, index_t n, const char* who) {
  using F = Lapack<T>;
  const lapack_int size = n;
  const auto anorm = F::lange(LAPACK_COL_MAJOR, '1', size, size, a, size);
  std::vector<lapack_int> pivots(static_cast<std::size_t>(n));
  const lapack_int info = F::getrf(LAPACK_COL_MAJOR, size, size, a, size, pivots.data());
  if (info < 0)
    throw std::logic_error(std::string(who) + ": getrf's argument " + std::to_string(-info) +
                           " is invalid");
  if (info > 0) check_reciprocal_condition(0.0, who);  // U's pivot `info` is zero
  std::remove_const_t<decltype(anorm)> rcond = 0;
  if (F::gecon(LAPACK_COL_MAJOR, '1', size, a, size, anorm, &rcond) != 0)
    throw std::runtime_error(std::string(who) + ": gecon failed on the factors");
  check_reciprocal_condition(static_cast<double>(rcond), who);
  // getrf's row interchanges, applied in order, to the final row of each original row.
  std::vector<int> at(static_cast<std::size_t>(n)), row_of(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) at[static_cast<std::size_t>(i)] = i;
  for (index_t i = 0; i < n; ++i)
    std::swap(at[static_cast<std::size_t>(i)],
              at[static_cast<std::size_t>(pivots[static_cast<std::size_t>(i)] - 1)]);
  for (index_t k = 0; k < n; ++k)
    row_of[static_cast<std::size_t>(at[static_cast<std::size_t>(k)])] = k;
  return row_of;
}

#define PMOM_INSTANTIATE(T) template std::vector<int> factor_lu(T*, index_t, const char*);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

}  // namespace pmom::cpu
