// RecycledInverse (recycled_inverse.hpp): the LU logged.
#include "planarmom/sweep/recycled_inverse.hpp"

#include "planarmom/logging/heartbeat.hpp"
#include "planarmom/logging/logging.hpp"

namespace pmom::sweep {

void RecycledInverse::refresh(const std::function<Block<cd>()>& make_z, double frequency_hz,
                              const Factor& factor) {
  {
    const logging::Heartbeat beat("LU of Z for the preconditioner");
    RecycledLu::refresh(make_z, factor);
  }
  PMOM_LOG(info) << "preconditioner: Z's LU at " << frequency_hz * 1e-9 << " GHz (n = "
                 << inverse()->rows() << ", " << lu_seconds() << " s)";
}

}  // namespace pmom::sweep
