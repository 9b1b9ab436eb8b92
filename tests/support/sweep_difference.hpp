// The largest |ΔS| between two sweeps of the same frequencies and ports: what the GPU tests of
// a sweep's features compare against the CPU's.
#pragma once

#include <algorithm>
#include <complex>

#include "planarmom/io/sweep_record.hpp"

namespace pmom::test {

inline double largest_s_difference(const io::SweepData& a, const io::SweepData& b) {
  double d = 0;
  for (std::size_t f = 0; f < a.records.size(); ++f)
    for (std::size_t k = 0; k < a.records[f].s.size(); ++k)
      d = std::max(d, std::abs(a.records[f].s[k] - b.records[f].s[k]));
  return d;
}

}  // namespace pmom::test
