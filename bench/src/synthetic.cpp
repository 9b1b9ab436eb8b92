// Generator of the MoM-like synthetic benchmark matrices.
#include "planarmom/bench/synthetic.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>

namespace pmom::bench {

Csr<std::complex<double>> synthetic_mom_matrix(index_t n, double density, std::uint64_t seed) {
  using cplx = std::complex<double>;
  if (n < 1 || !(density > 0 && density <= 1))
    throw std::invalid_argument("synthetic matrix: need n >= 1 and 0 < density <= 1");
  const auto side = static_cast<index_t>(std::ceil(std::sqrt(static_cast<double>(n))));
  const double h = 1.0;                       // grid spacing
  const double k = 2 * std::numbers::pi / 20;  // wavenumber for h = λ/20
  // Neighbours within radius ρ number about πρ²/h²; pick ρ so that count ≈ density · n.
  const double radius = h * std::sqrt(density * n / std::numbers::pi);
  const auto reach = static_cast<index_t>(std::floor(radius / h));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> jitter(-0.05, 0.05);  // breaks exact grid symmetry
  std::vector<double> px(n), py(n);
  for (index_t i = 0; i < n; ++i) {
    px[i] = (i % side + jitter(rng)) * h;
    py[i] = (i / side + jitter(rng)) * h;
  }
  Csr<cplx> a;
  a.rows = a.cols = n;
  a.row_ptr.assign(1, 0);
  for (index_t i = 0; i < n; ++i) {
    const index_t gx = i % side, gy = i / side;
    double row_sum = 0;
    std::vector<std::pair<index_t, cplx>> row;
    for (index_t y = std::max<index_t>(0, gy - reach); y <= std::min(side - 1, gy + reach); ++y)
      for (index_t x = std::max<index_t>(0, gx - reach); x <= std::min(side - 1, gx + reach); ++x) {
        const index_t j = y * side + x;
        if (j >= n || j == i) continue;
        const double r = std::hypot(px[i] - px[j], py[i] - py[j]);
        if (r > radius) continue;
        const cplx z = std::polar(h / r, -k * r);
        row.emplace_back(j, z);
        row_sum += std::abs(z);
      }
    // Self term with a reactive part, about 6% of the row's coupling sum: far from diagonal
    // dominance, so Jacobi BiCG/COCG need tens to hundreds of iterations, as on MoM matrices.
    row.emplace_back(i, cplx(0.05, -0.04) * std::max(row_sum, 1.0));
    std::sort(row.begin(), row.end(), [](const auto& a1, const auto& a2) { return a1.first < a2.first; });
    for (const auto& [j, z] : row) {
      a.col_idx.push_back(j);
      a.values.push_back(z);
    }
    a.row_ptr.push_back(static_cast<index_t>(a.col_idx.size()));
  }
  return a;
}

template <class T> std::vector<T> random_bounded_values(std::size_t count, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> modulus(0.5, 1.0);
  std::uniform_real_distribution<double> phase(-std::numbers::pi, std::numbers::pi);
  std::vector<T> v(count);
  for (T& e : v) {
    if constexpr (is_complex_v<T>) e = std::polar(modulus(rng), phase(rng));
    else e = phase(rng) < 0 ? -modulus(rng) : modulus(rng);
  }
  return v;
}

template std::vector<double> random_bounded_values<double>(std::size_t, std::mt19937_64&);
template std::vector<std::complex<double>> random_bounded_values<std::complex<double>>(
    std::size_t, std::mt19937_64&);

}  // namespace pmom::bench
