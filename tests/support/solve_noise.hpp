// Noise of a given size on the S entries of a simulated solve, each entry moved in a random
// direction drawn from a fixed sequence (a 64-bit LCG): the adaptive sampler's tests perturb
// their solves with it, so that a seed gives the same noise on every machine.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <vector>

namespace pmom::test {

class SolveNoise {
 public:
  SolveNoise(double size, std::uint64_t seed) : size_(size), state_(seed) {}
  void add_to(std::vector<std::complex<double>>& s) {
    for (std::complex<double>& x : s) {
      state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
      x += std::polar(size_, static_cast<double>(state_ >> 11) * 0x1p-53 * 2 * M_PI);
    }
  }

 private:
  double size_;
  std::uint64_t state_;
};

}  // namespace pmom::test
