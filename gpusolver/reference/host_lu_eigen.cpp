// host_lu.hpp by Eigen's PartialPivLU of a Ref (in place), where the build has no LAPACKE.
#include <Eigen/Dense>

#include <complex>

#include "host_lu.hpp"
#include "host_lu_check.hpp"

namespace pmom::cpu {

template <class T> std::vector<int> factor_lu(T* a, index_t n, const char* who) {
  using Dense = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
  Eigen::Map<Dense> matrix(a, n, n);
  const Eigen::PartialPivLU<Eigen::Ref<Dense>> lu(matrix);
  check_reciprocal_condition(static_cast<double>(lu.rcond()), who);
  const auto& indices = lu.permutationP().indices();
  return {indices.data(), indices.data() + indices.size()};
}

#define PMOM_INSTANTIATE(T) template std::vector<int> factor_lu(T*, index_t, const char*);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

}  // namespace pmom::cpu
