// RecycledLu (preconditioners/recycled_lu.hpp): the renewal rule and the LU on the backend.
#include "planarmom/gpusolver/preconditioners/recycled_lu.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

namespace pmom {

index_t largest_lu_in(std::size_t device_free_bytes) {
  if (device_free_bytes == 0) return 8192;
  // The LU and the inverse, 2 n² complex values, in at most half of what is free: the rest
  // holds the operator, the solver's vectors and other ranks sharing the device.
  const double bytes_per_n2 = 2.0 * sizeof(std::complex<double>);
  return static_cast<index_t>(
      std::floor(std::sqrt(0.5 * static_cast<double>(device_free_bytes) / bytes_per_n2)));
}

index_t largest_lu(const Executor& backend) {
  return largest_lu_in(backend.device_memory_free());
}

bool lu_renewal_due(double lu_iterations, int solves, long long iterations,
                    int last_iterations) {
  if (solves <= 0 || iterations <= 0) return false;
  return last_iterations > (lu_iterations + static_cast<double>(iterations)) / solves;
}

bool RecycledLu::stale() const {
  if (!op_ || last_iterations_ > kRefreshIterations) return true;
  if (renewal_ == Renewal::when_slow || iterations_ <= 0 || seconds_ <= 0) return false;
  const double lu_iterations = lu_seconds_ / (seconds_ / static_cast<double>(iterations_));
  return lu_renewal_due(lu_iterations, solves_, iterations_, last_iterations_);
}

int RecycledLu::iteration_budget() const {
  if (solves_ == 0) return 0;  // the next system is the LU's own
  if (iterations_ <= 0 || seconds_ <= 0) return kRefreshIterations;
  const double lu_iterations = lu_seconds_ / (seconds_ / static_cast<double>(iterations_));
  return static_cast<int>(
      std::min(1e6, std::max<double>(kRefreshIterations, std::ceil(lu_iterations))));
}

void RecycledLu::record(int iterations, double seconds) {
  ++solves_;
  iterations_ += iterations;
  seconds_ += seconds;
  last_iterations_ = iterations;
}

void RecycledLu::refresh(const std::function<Block<cd>()>& make_matrix) {
  const auto start = std::chrono::steady_clock::now();
  op_.reset();  // its memory goes before the new one's
  // A preconditioner from a neighbouring system needs no double-precision factors: the host's
  // LU and substitutions in single cost half (docs/PERFORMANCE.md).
  op_ = backend_.make_dense_inverse(make_matrix(), FactorPrecision::single);
  ++refreshes_;
  lu_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  solves_ = 0;
  iterations_ = 0;
  seconds_ = 0;
  last_iterations_ = 0;
}

}  // namespace pmom
