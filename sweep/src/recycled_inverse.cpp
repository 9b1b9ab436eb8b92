// RecycledInverse (recycled_inverse.hpp): the LU on the backend, logged.
#include "planarmom/sweep/recycled_inverse.hpp"

#include <chrono>

#include "planarmom/io/heartbeat.hpp"
#include "planarmom/io/logging.hpp"

namespace pmom::sweep {

index_t largest_lu(const Backend<std::complex<double>>& backend) {
  return backend.name().rfind("cuda", 0) == 0 ? 16384 : 8192;
}

void RecycledInverse::refresh(Block<cd> z, double frequency_hz) {
  const auto start = std::chrono::steady_clock::now();
  const index_t n = z.rows();
  {
    const io::Heartbeat beat("LU of Z for the preconditioner");
    op_.reset();  // its memory goes before the new one's
    op_ = backend_.make_dense_inverse(std::move(z));
  }
  ++refreshes_;
  last_iterations_ = 0;
  PMOM_LOG(info) << "preconditioner: Z's LU at " << frequency_hz * 1e-9 << " GHz (n = " << n
                 << ", " << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
                 << " s)";
}

}  // namespace pmom::sweep
