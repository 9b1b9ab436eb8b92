// RecycledLu (preconditioners/recycled_lu.hpp): the renewal rule and the LU on the backend.
#include "planarmom/gpusolver/preconditioners/recycled_lu.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include <unistd.h>

namespace pmom {

namespace {

// The largest n with bytes_per_n2 · n² in half of `bytes`: the rest holds the operator, the
// solver's vectors and other processes (ranks sharing a device, the host's own).
index_t largest_in_half(std::size_t bytes, double bytes_per_n2) {
  return static_cast<index_t>(
      std::floor(std::sqrt(0.5 * static_cast<double>(bytes) / bytes_per_n2)));
}

}  // namespace

index_t largest_lu_in(std::size_t device_free_bytes) {
  return largest_in_half(device_free_bytes, 2.0 * sizeof(std::complex<double>));
}

index_t largest_host_lu_in(std::size_t available_bytes) {
  return largest_in_half(available_bytes,
                         2.0 * sizeof(std::complex<double>) + sizeof(std::complex<float>));
}

std::size_t host_memory_available() {
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);) {
    std::istringstream fields(line);
    std::string key;
    std::size_t kib = 0;
    if (fields >> key >> kib && key == "MemAvailable:") return kib * 1024;
  }
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page)
                               : 0;
}

index_t largest_lu(const Executor& backend) {
  const std::size_t free = backend.device_memory_free();
  return free > 0 ? largest_lu_in(free) : largest_host_lu_in(host_memory_available());
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

void RecycledLu::refresh(const std::function<Block<cd>()>& make_matrix, const Factor& factor) {
  const auto start = std::chrono::steady_clock::now();
  op_.reset();  // its memory goes before the new one's
  // A preconditioner from a neighbouring system needs no double-precision factors: the host's
  // LU and substitutions in single cost half (docs/PERFORMANCE.md).
  op_ = factor ? factor(make_matrix())
               : backend_.make_dense_inverse(make_matrix(), FactorPrecision::single);
  ++refreshes_;
  lu_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  solves_ = 0;
  iterations_ = 0;
  seconds_ = 0;
  last_iterations_ = 0;
}

}  // namespace pmom
