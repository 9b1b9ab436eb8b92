// The sweep's preconditioner for the operator with every interaction (rule exact): Z's LU at
// one frequency for the frequencies after it, gpusolver's RecycledLu (preconditioners/
// recycled_lu.hpp), each LU logged with its frequency and time and a heartbeat while it runs.
// The sweep takes it where n is at most largest_lu (block Jacobi beyond).
#pragma once

#include <functional>

#include "planarmom/gpusolver/preconditioners/recycled_lu.hpp"

namespace pmom::sweep {

class RecycledInverse : public RecycledLu {
 public:
  using RecycledLu::RecycledLu;

  // RecycledLu::refresh of the z that make_z returns (n x n in backend memory, symmetric), Z
  // at frequency_hz, logged; its time counts making z too (the exact operator assembles a
  // dense Z for it alone). Throws std::runtime_error when z is singular.
  void refresh(const std::function<Block<cd>()>& make_z, double frequency_hz,
               const Factor& factor = {});
};

}  // namespace pmom::sweep
