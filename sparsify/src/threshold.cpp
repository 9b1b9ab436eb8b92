// Threshold selection: the exact k-th largest pair magnitude for a target density, found from
// a sample-based bracket, one counting pass and std::nth_element instead of a full sort.
#include "threshold.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>

namespace pmom::sparsify::detail {

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

// 1e5 samples make the bracket about ±0.4% of the pairs wide at 5% density, so the counting
// pass holds under 1% of them; a fixed seed keeps runs reproducible.
constexpr std::int64_t sample_size = 100000;
constexpr std::uint64_t sample_seed = 20240611;
// Half-width of the bracket in binomial standard deviations: a miss, ~1e-9 likely per side,
// only costs another pass.
constexpr double bracket_sigmas = 6;

// Pair magnitudes lo <= m <= hi, both ends included so that ties at an end never miss.
struct Bracket {
  double lo = 0;
  double hi = infinity;
};

// Around the magnitude of rank k (1 = largest) among `pairs` pairs: in a uniform sample of s
// pairs, the number at or above it is Binomial(s, k / pairs).
Bracket sample_bracket(std::span<const cplx> z, index_t n, std::int64_t k, std::int64_t pairs) {
  const std::int64_t s = std::min(pairs, sample_size);
  std::mt19937_64 rng(sample_seed);
  std::uniform_int_distribution<index_t> pick(0, n - 1);
  std::vector<double> sample;
  sample.reserve(static_cast<std::size_t>(s));
  while (static_cast<std::int64_t>(sample.size()) < s) {
    const index_t i = pick(rng), j = pick(rng);
    if (i != j) sample.push_back(pair_magnitude(z, n, i, j));
  }
  const double q = static_cast<double>(k) / static_cast<double>(pairs);
  const double mean = static_cast<double>(s) * q;
  const double margin = bracket_sigmas * std::sqrt(static_cast<double>(s) * q * (1 - q)) + 1;
  const auto at_rank = [&](double rank) {  // rank 0 = largest
    const auto nth = sample.begin() + static_cast<std::ptrdiff_t>(rank);
    std::nth_element(sample.begin(), nth, sample.end(), std::greater<>());
    return *nth;
  };
  const double hi_rank = std::floor(mean - margin), lo_rank = std::ceil(mean + margin);
  Bracket b;
  if (hi_rank >= 0) b.hi = at_rank(hi_rank);
  if (lo_rank < static_cast<double>(s)) b.lo = at_rank(lo_rank);
  return b;
}

struct Count {
  std::int64_t above = 0;       // pairs with m > hi
  std::vector<double> inside;   // m of the pairs with lo <= m <= hi
};

Count count_pairs(std::span<const cplx> z, index_t n, const Bracket& b) {
  const auto per_thread = scan_pairs<Count>(z, n, [&b](Count& c, index_t, index_t, double m) {
    if (m > b.hi) ++c.above;
    else if (m >= b.lo) c.inside.push_back(m);
  });
  Count total;
  for (const Count& c : per_thread) {
    total.above += c.above;
    total.inside.insert(total.inside.end(), c.inside.begin(), c.inside.end());
  }
  return total;
}

double density_threshold(std::span<const cplx> z, index_t n, double density) {
  const auto nn = static_cast<double>(n);
  const std::int64_t pairs = static_cast<std::int64_t>(n) * (n - 1) / 2;
  // Each kept pair adds two entries to the n diagonal ones.
  const std::int64_t k = std::clamp<std::int64_t>(std::llround((density * nn * nn - nn) / 2), 0,
                                                   pairs);
  if (k == 0) return infinity;
  Bracket b = sample_bracket(z, n, k, pairs);
  // At most two passes: a missed bracket is widened to the whole side it missed on.
  for (;;) {
    Count c = count_pairs(z, n, b);
    const auto inside = static_cast<std::int64_t>(c.inside.size());
    if (c.above >= k) {
      b = {std::nextafter(b.hi, infinity), infinity};
    } else if (c.above + inside < k) {
      b = {0, std::nextafter(b.lo, 0.0)};
    } else {
      const auto nth = c.inside.begin() + (k - c.above - 1);
      std::nth_element(c.inside.begin(), nth, c.inside.end(), std::greater<>());
      return *nth;
    }
  }
}

double max_magnitude(std::span<const cplx> z) {
  double m = 0;
  const auto size = static_cast<std::ptrdiff_t>(z.size());
#pragma omp parallel for reduction(max : m)
  for (std::ptrdiff_t k = 0; k < size; ++k) m = std::max(m, magnitude(z[k]));
  return m;
}

[[noreturn]] void unknown_policy(const ThresholdPolicy& policy) {
  throw std::invalid_argument("sparsify: unknown threshold policy kind " +
                              std::to_string(static_cast<int>(policy.kind)));
}

[[noreturn]] void bad_value(const std::string& what, double value) {
  std::ostringstream message;
  message << "sparsify: " << what << ", got " << value;
  throw std::invalid_argument(message.str());
}

}  // namespace

void check_policy(const ThresholdPolicy& policy) {
  const double v = policy.value;
  switch (policy.kind) {
    case ThresholdPolicy::Kind::target_density:
      if (!(v > 0 && v <= 1))
        bad_value("the target density is the kept fraction of the n² entries and must be in "
                  "(0, 1] (0.05 keeps 5%)", v);
      return;
    case ThresholdPolicy::Kind::absolute:
      if (!(v >= 0 && std::isfinite(v)))
        bad_value("the absolute threshold on |Z_ij| must be finite and >= 0", v);
      return;
    case ThresholdPolicy::Kind::relative:
      if (!(v >= 0 && v <= 1))
        bad_value("the relative threshold is a fraction of max|Z_ij| and must be in [0, 1]", v);
      return;
  }
  unknown_policy(policy);
}

double resolve_threshold(std::span<const cplx> z, index_t n, const ThresholdPolicy& policy) {
  switch (policy.kind) {
    case ThresholdPolicy::Kind::target_density: return density_threshold(z, n, policy.value);
    case ThresholdPolicy::Kind::absolute: return policy.value;
    case ThresholdPolicy::Kind::relative: return policy.value * max_magnitude(z);
  }
  unknown_policy(policy);
}

}  // namespace pmom::sparsify::detail
