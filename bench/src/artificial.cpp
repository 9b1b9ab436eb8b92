// Generator of the artificial few-diagonal matrices, straight into CSR.
#include "planarmom/bench/artificial.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <stdexcept>

#include "planarmom/gpusolver/scalar.hpp"

namespace pmom::bench {
namespace {

// ⌈√n⌉ in integers, so that no platform's square root can move it.
index_t ceil_sqrt(index_t n) {
  auto s = static_cast<std::int64_t>(std::sqrt(static_cast<double>(n)));
  while (s * s < n) ++s;
  while (s > 0 && (s - 1) * (s - 1) >= n) --s;
  return static_cast<index_t>(s);
}

// Uniform in [−1, 1): the top 54 bits as an integer k, then (k − 2⁵³)·2⁻⁵³, both steps exact.
double next_unit(std::mt19937_64& rng) {
  const auto k = static_cast<std::int64_t>(rng() >> 10);
  return static_cast<double>(k - (std::int64_t{1} << 53)) * 0x1p-53;
}

template <class T> T next_value(std::mt19937_64& rng) {
  if constexpr (is_complex_v<T>) {
    const double re = next_unit(rng);
    return T(re, next_unit(rng));
  } else {
    return next_unit(rng);
  }
}

template <class T> double one_norm(const T& v) {
  if constexpr (is_complex_v<T>) return std::abs(v.real()) + std::abs(v.imag());
  else return std::abs(v);
}

}  // namespace

std::vector<index_t> artificial_offsets(index_t n, int diagonals) {
  if (n < 1) throw std::invalid_argument("artificial matrix: n must be >= 1, got " + std::to_string(n));
  if (diagonals < 1 || diagonals > 15 || diagonals % 2 == 0)
    throw std::invalid_argument("artificial matrix: the number of diagonals must be odd, "
                                "from 1 to 15, got " + std::to_string(diagonals));
  if (static_cast<std::int64_t>(n) * diagonals > std::numeric_limits<index_t>::max())
    throw std::invalid_argument("artificial matrix: n = " + std::to_string(n) + " with " +
                                std::to_string(diagonals) +
                                " diagonals has more entries than 32-bit indices can address");
  const index_t s = std::max<index_t>(2, ceil_sqrt(n));
  std::vector<index_t> offsets{0};
  for (int k = 1; k <= (diagonals - 1) / 2; ++k) {
    const std::int64_t o = k == 1 ? 1 : std::int64_t{k - 1} * s;
    if (o >= n) break;  // the offsets grow with k
    offsets.push_back(static_cast<index_t>(o));
    offsets.push_back(static_cast<index_t>(-o));
  }
  std::sort(offsets.begin(), offsets.end());
  return offsets;
}

template <class T> Csr<T> artificial_matrix(const ArtificialSpec& spec) {
  const std::vector<index_t> offsets = artificial_offsets(spec.n, spec.diagonals);
  const double ratio = spec.dominant ? 2.0 : 0.5;
  const index_t n = spec.n;
  std::mt19937_64 rng(spec.seed);
  Csr<T> a;
  a.rows = a.cols = n;
  a.row_ptr.reserve(static_cast<std::size_t>(n) + 1);
  a.col_idx.reserve(static_cast<std::size_t>(n) * offsets.size());
  a.values.reserve(static_cast<std::size_t>(n) * offsets.size());
  for (index_t i = 0; i < n; ++i) {
    std::size_t diagonal = 0;
    double off_sum = 0;
    for (const index_t o : offsets) {
      const std::int64_t j = std::int64_t{i} + o;
      if (j < 0 || j >= n) continue;
      a.col_idx.push_back(static_cast<index_t>(j));
      if (o == 0) {
        diagonal = a.values.size();
        a.values.push_back(T(0));
      } else {
        a.values.push_back(next_value<T>(rng));
        off_sum += one_norm(a.values.back());
      }
    }
    a.values[diagonal] = T(ratio * std::max(off_sum, 1.0));
    a.row_ptr.push_back(static_cast<index_t>(a.col_idx.size()));
  }
  return a;
}

std::string artificial_name(const ArtificialSpec& spec, bool complex) {
  return "art-" + std::to_string(spec.diagonals) + "diag" + (spec.dominant ? "" : "-weak") +
         "-n" + std::to_string(spec.n) + (complex ? "-complex" : "-real");
}

template Csr<double> artificial_matrix<double>(const ArtificialSpec&);
template Csr<std::complex<double>> artificial_matrix<std::complex<double>>(const ArtificialSpec&);

}  // namespace pmom::bench
