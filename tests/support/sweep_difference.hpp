// The largest |ΔS| between two sweeps of the same frequencies and ports, and the GPU tests' one
// comparison of a sweep feature's S on the GPU against the CPU's, on both routes.
#pragma once

#include <algorithm>
#include <complex>
#include <string>

#include "planarmom/io/sweep_record.hpp"

namespace pmom::test {

inline double largest_s_difference(const io::SweepData& a, const io::SweepData& b) {
  double d = 0;
  for (std::size_t f = 0; f < a.records.size(); ++f)
    for (std::size_t k = 0; k < a.records[f].s.size(); ++k)
      d = std::max(d, std::abs(a.records[f].s[k] - b.records[f].s[k]));
  return d;
}

// cuda against cpu on a layout: the default routes, and the FFT operator against every entry of
// Z. `sweep(settings)` sweeps the layout with `settings` (lines of the config) added.
struct BackendDifferences {
  double route = 0, exact = 0;
};
template <class Sweep> BackendDifferences cuda_against_cpu(const Sweep& sweep) {
  const auto with = [&](const std::string& sparsify, const std::string& backend) {
    return sweep(sparsify + "solver: {backend: " + backend + ", tolerance: 1.0e-10}\n");
  };
  return {largest_s_difference(with("", "cpu"), with("", "cuda")),
          largest_s_difference(with("sparsify: {density: 1.0}\n", "cpu"),
                               with("sparsify: {rule: exact}\n", "cuda"))};
}

}  // namespace pmom::test
