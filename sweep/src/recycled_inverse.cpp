// RecycledInverse (recycled_inverse.hpp): the LU on the backend, logged.
#include "planarmom/sweep/recycled_inverse.hpp"

#include <chrono>

#include "planarmom/io/heartbeat.hpp"
#include "planarmom/io/logging.hpp"

namespace pmom::sweep {

index_t largest_lu(const Backend<std::complex<double>>& backend) {
  return backend.name().rfind("cuda", 0) == 0 ? 16384 : 8192;
}

bool lu_renewal_due(double lu_iterations, int solves, long long iterations,
                    int last_iterations) {
  if (solves <= 0 || iterations <= 0) return false;
  return last_iterations > (lu_iterations + static_cast<double>(iterations)) / solves;
}

bool RecycledInverse::stale() const {
  if (!op_ || last_iterations_ > kRefreshIterations) return true;
  if (iterations_ <= 0 || seconds_ <= 0) return false;
  const double lu_iterations = lu_seconds_ / (seconds_ / static_cast<double>(iterations_));
  return lu_renewal_due(lu_iterations, solves_, iterations_, last_iterations_);
}

void RecycledInverse::record(int iterations, double seconds) {
  ++solves_;
  iterations_ += iterations;
  seconds_ += seconds;
  last_iterations_ = iterations;
}

void RecycledInverse::refresh(const std::function<Block<cd>()>& make_z, double frequency_hz) {
  const auto start = std::chrono::steady_clock::now();
  index_t n = 0;
  {
    const io::Heartbeat beat("LU of Z for the preconditioner");
    op_.reset();  // its memory goes before the new one's
    Block<cd> z = make_z();
    n = z.rows();
    op_ = backend_.make_dense_inverse(std::move(z));
  }
  ++refreshes_;
  lu_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  solves_ = 0;
  iterations_ = 0;
  seconds_ = 0;
  last_iterations_ = 0;
  PMOM_LOG(info) << "preconditioner: Z's LU at " << frequency_hz * 1e-9 << " GHz (n = " << n
                 << ", " << lu_seconds_ << " s)";
}

}  // namespace pmom::sweep
