// GreensTable: parallel sampling of the Sommerfeld remainder on a ξ grid, cubic interpolation,
// closed-form quasi-static part added at lookup.
#include "planarmom/mom/greens_table.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>

#include "layered_greens.hpp"
#include "spectral.hpp"

namespace pmom::mom {
namespace {

// Interpolation error constant of 4-point Lagrange at the worst point of the middle
// interval: max |t(t−1)(t−2)(t−3)| / 4! = (9/16)/24.
constexpr double lagrange_error_constant = 0.0234375;

}  // namespace

GreensTable::GreensTable(const Slab& slab, double frequency_hz, double rho_max_m,
                         const TableOptions& options)
    : frequency_(frequency_hz), rho_max_(rho_max_m) {
  const SlabSpectrum spectrum = slab_spectrum(slab, frequency_hz);
  check(options);
  singular_ = singular_coefficients(slab);
  sample(spectrum.k0, slab.height_m, std::sqrt(slab.eps_r) * spectrum.k0, options.accuracy,
         [&](double rho) { return quasi_static_smooth(spectrum, rho); },
         [&](double rho, const Pair& known) {
           return sommerfeld(spectrum, rho, options.path, known, singular_);
         });
}

GreensTable::GreensTable(const Stackup& stack, double frequency_hz, double rho_max_m,
                         const TableOptions& options)
    : GreensTable(stack, stack.strips(), stack.strips(), frequency_hz, rho_max_m, options) {}

GreensTable::GreensTable(const Stackup& stack, int source, int observer, double frequency_hz,
                         double rho_max_m, const TableOptions& options)
    : frequency_(frequency_hz), rho_max_(rho_max_m) {
  const bool strips = source == stack.strips() && observer == stack.strips();
  if (const std::optional<Slab> slab = as_slab(stack); slab && strips) {
    *this = GreensTable(*slab, frequency_hz, rho_max_m, options);
    return;
  }
  const LayeredSpectrum spectrum(stack, frequency_hz, source, observer);
  check(options);
  singular_ = spectrum.singular();
  const PathScale scale = spectrum.path_scale();
  // ξ's log-like region on the thinnest layer's scale, where the parts vary fastest.
  sample(scale.k0, spectrum.thinnest(), std::sqrt(scale.eps_real) * scale.k0, options.accuracy,
         [&](double rho) { return layered_static_smooth(spectrum, rho, options.path.rel_tol); },
         [&](double rho, const Pair& known) {
           return layered_remainder(spectrum, rho, options.path, known);
         });
}

void GreensTable::check(const TableOptions& options) const {
  check_path(options.path);
  if (!(rho_max_ > 0.0) || !std::isfinite(rho_max_))
    throw std::invalid_argument("GreensTable: rho_max must be a positive distance in metres, got " +
                                std::to_string(rho_max_));
  if (!(options.accuracy > 0.0) || !(options.accuracy < 1.0))
    throw std::invalid_argument("GreensTable: accuracy must lie in (0, 1), got " +
                                std::to_string(options.accuracy));
  if (options.path.extraction != Extraction::quasi_static)
    throw std::invalid_argument(
        "GreensTable: needs Extraction::quasi_static (the table stores G − c/ρ down to ρ = 0)");
}

template <class QuasiStatic, class Remainder>
void GreensTable::sample(double k0, double scale_rho, double inv_length, double accuracy,
                         QuasiStatic&& quasi_static, Remainder&& remainder) {
  k0_ = k0;
  scale_rho_ = scale_rho;
  inv_length_ = inv_length;
  const double xi_max = xi(rho_max_);
  const std::size_t intervals = greens_xi_intervals(xi_max, accuracy);
  step_ = xi_max / static_cast<double>(intervals);
  rho_ = greens_rho_at_steps(scale_rho_, inv_length_, intervals, step_, rho_max_);
  const std::vector<double> fine =
      greens_rho_at_steps(scale_rho_, inv_length_, intervals * kQuasiStaticRefinement,
                          step_ / kQuasiStaticRefinement, rho_max_);
  quasi_static_.resize(fine.size());
  remainder_.resize(rho_.size());
  std::exception_ptr failure;
#pragma omp parallel
  {
#pragma omp for schedule(dynamic, 16)
    for (std::size_t i = 0; i < fine.size(); ++i) {
      try {
        const Pair qs = quasi_static(fine[i]);
        quasi_static_[i] = {qs[0], qs[1]};
      } catch (...) {
#pragma omp critical
        failure = std::current_exception();
      }
    }
#pragma omp for schedule(dynamic)
    for (std::size_t i = 0; i < rho_.size(); ++i) {
      try {
        // Accurate to rel_tol of what a lookup returns: G, or smooth(0) at ρ = 0.
        const double r = rho_[i];
        const Pair q = quasi_static(r);
        const Pair known = r > 0.0 ? Pair{singular_.a / r + q[0], singular_.v / r + q[1]} : q;
        const Pair rem = remainder(r, known);
        remainder_[i] = {rem[0], rem[1]};
      } catch (...) {
#pragma omp critical
        failure = std::current_exception();
      }
    }
  }
  if (failure) std::rethrow_exception(failure);
}

GreensTableView<std::complex<double>> GreensTable::view() const {
  // GreensValues is two std::complex<double>: the vectors are arrays of (G_A, G_V) pairs.
  static_assert(sizeof(GreensValues) == 2 * sizeof(std::complex<double>));
  GreensTableView<std::complex<double>> v;
  v.remainder = &remainder_.front().g_a;
  v.quasi_static = &quasi_static_.front().g_a;
  v.remainder_count = static_cast<long long>(remainder_.size());
  v.quasi_static_count = static_cast<long long>(quasi_static_.size());
  v.scale_rho = scale_rho_;
  v.inv_length = inv_length_;
  v.step = step_;
  v.c_a = singular_.a;
  v.c_v = singular_.v;
  return v;
}

std::size_t greens_xi_intervals(double xi_max, double accuracy) {
  const double target_step = 0.5 * std::pow(accuracy / lagrange_error_constant, 0.25);
  return std::max<std::size_t>(3, static_cast<std::size_t>(std::ceil(xi_max / target_step)));
}

std::vector<double> greens_rho_at_steps(double scale_rho, double inv_length, std::size_t intervals,
                                        double step, double rho_max) {
  // ρ(ξ) by Newton: ξ(ρ) is increasing and concave, so iterates from ρ = 0 rise monotonically.
  std::vector<double> rho(intervals + 1);
  for (std::size_t i = 0; i <= intervals; ++i) {
    const double target = step * static_cast<double>(i);
    double r = 0.0;
    for (int it = 0; it < 100; ++it) {
      const double next = r - (greens_xi(r, scale_rho, inv_length) - target) /
                                  (1.0 / (scale_rho + r) + inv_length);
      const bool done = std::abs(next - r) <= 1e-15 * next;
      r = next;
      if (done) break;
    }
    rho[i] = r;
  }
  rho.back() = rho_max;
  return rho;
}

GreensValues GreensTable::smooth(double rho_m) const {
  if (!(rho_m >= 0.0) || !(rho_m <= rho_max_))
    throw std::out_of_range("GreensTable: rho = " + std::to_string(rho_m) +
                            " m lies outside the table's [0, " + std::to_string(rho_max_) +
                            "] m; build it with a larger rho_max");
  GreensValues g;
  view().smooth(rho_m, g.g_a, g.g_v);
  return g;
}

GreensValues GreensTable::operator()(double rho_m) const {
  if (!(rho_m > 0.0))
    throw std::out_of_range("GreensTable: G(rho) needs rho > 0 (use smooth() at rho = 0), got " +
                            std::to_string(rho_m));
  if (!(rho_m <= rho_max_)) (void)smooth(rho_m);  // throws, saying what to do
  GreensValues g;
  view().full(rho_m, g.g_a, g.g_v);
  return g;
}

std::vector<GreensTable> layer_pair_tables(const Stackup& stack, const std::vector<int>& interfaces,
                                           const GreensTable& first,
                                           const TableOptions& options) {
  if (interfaces.empty() || interfaces.front() != stack.strips())
    throw std::invalid_argument("layer_pair_tables: the stack's strips are not on the lowest "
                                "interface, whose own table is the first");
  std::vector<GreensTable> tables{first};
  for (std::size_t a = 0; a < interfaces.size(); ++a)
    for (std::size_t b = a == 0 ? 1 : a; b < interfaces.size(); ++b)
      tables.emplace_back(stack, interfaces[a], interfaces[b], first.frequency(), first.rho_max(),
                          options);
  return tables;
}

}  // namespace pmom::mom
