// Per-frequency offset tables of the rooftop MPIE (assembly.hpp): overlap-weighted Gauss
// rules in the difference variable, with the 1/R part of near offsets done analytically.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/gauss_legendre.hpp"

namespace pmom::mom {
namespace {

using cd = std::complex<double>;

// Overlap of two unit cells at offset t (cells): the tent.
double tent(double t) { return std::max(0.0, 1.0 - std::abs(t)); }

// Overlap ∫ tri(x) tri(x + t) dx of two unit triangles: the cubic B-spline.
double bspline(double t) {
  const double s = std::abs(t);
  if (s < 1.0) return 2.0 / 3.0 - s * s + 0.5 * s * s * s;
  if (s < 2.0) return (2.0 - s) * (2.0 - s) * (2.0 - s) / 6.0;
  return 0.0;
}

// The rule with nodes pushed towards both panel ends by u = t²(3 − 2t), du = 6t(1 − t) dt,
// for integrands with (u − e) ln|u − e| behaviour at the ends.
GaussRule graded_rule(int n) {
  GaussRule rule = gauss_legendre(n);
  for (std::size_t k = 0; k < rule.x.size(); ++k) {
    const double t = rule.x[k];
    rule.x[k] = t * t * (3.0 - 2.0 * t);
    rule.w[k] *= 6.0 * t * (1.0 - t);
  }
  return rule;
}

enum class Along { tent, bspline };

// ∫∫ weight(dx − cx) tent(dy − cy) g(|d|) dd over the weight's support, Gauss on each unit
// piece (exact for the piecewise-polynomial weights); g gets the distance in cells.
template <class G>
cd overlap_integral(Along along, int cx, int cy, const GaussRule& rule, G&& g) {
  const int half = along == Along::tent ? 1 : 2;
  cd sum = 0.0;
  for (int px = -half; px < half; ++px) {
    for (std::size_t a = 0; a < rule.x.size(); ++a) {
      const double tx = px + rule.x[a];  // dx − cx
      const double wx = rule.w[a] * (along == Along::tent ? tent(tx) : bspline(tx));
      const double dx = cx + tx;
      for (int py = -1; py < 1; ++py) {
        for (std::size_t b = 0; b < rule.x.size(); ++b) {
          const double ty = py + rule.x[b];
          sum += wx * rule.w[b] * tent(ty) * g(std::hypot(dx, cy + ty));
        }
      }
    }
  }
  return sum;
}

long long overlap_points(Along along, int order) {
  return (along == Along::tent ? 4LL : 8LL) * order * order;
}

}  // namespace

double static_cell_overlap(int di, int dj, int outer_order) {
  const GaussRule rule = graded_rule(outer_order);
  double sum = 0.0;
  for (std::size_t a = 0; a < rule.x.size(); ++a) {
    const double x = rule.x[a];
    for (std::size_t b = 0; b < rule.x.size(); ++b) {
      const double y = rule.x[b];
      sum += rule.w[a] * rule.w[b] * rect_inv_r(di - x, di + 1 - x, dj - y, dj + 1 - y);
    }
  }
  return sum;
}

double static_rooftop_overlap(int di, int dj, int outer_order) {
  const GaussRule rule = graded_rule(outer_order);
  double sum = 0.0;
  for (int panel = -1; panel < 1; ++panel) {  // observer x in [−1, 0] and [0, 1]
    for (std::size_t a = 0; a < rule.x.size(); ++a) {
      const double x = panel + rule.x[a];
      const double observer = rule.w[a] * (1.0 - std::abs(x));
      for (std::size_t b = 0; b < rule.x.size(); ++b) {
        const double y = rule.x[b];
        const double y1 = dj - y, y2 = dj + 1 - y;
        // Source triangle, linear in X = x' − x on each half: (x − Δi + 1) + X on the left,
        // (Δi + 1 − x) − X on the right.
        const double left_lo = di - 1 - x, mid = di - x, right_hi = di + 1 - x;
        const double left = (x - di + 1) * rect_inv_r(left_lo, mid, y1, y2) +
                            rect_x_over_r(left_lo, mid, y1, y2);
        const double right = (di + 1 - x) * rect_inv_r(mid, right_hi, y1, y2) -
                             rect_x_over_r(mid, right_hi, y1, y2);
        sum += observer * rule.w[b] * (left + right);
      }
    }
  }
  return sum;
}

double required_rho_max(const geometry::Grid& grid) {
  // The rooftop overlap reaches two cells beyond the edge offset along its axis.
  return grid.cell_mm * 1e-3 * std::hypot(grid.nx + 1.0, grid.ny + 1.0);
}

InteractionTables make_interaction_tables(const GreensTable& greens, const geometry::Grid& grid,
                                          const AssemblyOptions& options) {
  if (options.far_order < 1 || options.near_order < 1 || options.outer_order < 1) {
    throw std::invalid_argument("make_interaction_tables: quadrature orders must be >= 1");
  }
  if (greens.rho_max() < required_rho_max(grid)) {
    throw std::invalid_argument("make_interaction_tables: the Green's table reaches " +
                                std::to_string(greens.rho_max()) + " m, the grid needs " +
                                std::to_string(required_rho_max(grid)) + " m");
  }
  InteractionTables t;
  t.frequency_hz = greens.frequency();
  t.cell_m = grid.cell_mm * 1e-3;
  t.nx = grid.nx;
  t.ny = grid.ny;
  const auto count = static_cast<std::size_t>(t.nx) * static_cast<std::size_t>(t.ny);
  t.axx.resize(count);
  t.ayy.resize(count);
  t.p.resize(count);

  const double a = t.cell_m;
  const double a3 = a * a * a, a4 = a3 * a;
  const cd c_a = greens.singular().a, c_v = greens.singular().v;
  const GaussRule far_rule = gauss_legendre(options.far_order);
  const GaussRule near_rule = gauss_legendre(options.near_order);
  const auto g_a = [&](double s) { return greens(a * s).g_a; };
  const auto g_v = [&](double s) { return greens(a * s).g_v; };
  const auto smooth_a = [&](double s) { return greens.smooth(a * s).g_a; };
  const auto smooth_v = [&](double s) { return greens.smooth(a * s).g_v; };
  const auto is_near = [&](int di, int dj) { return std::hypot(di, dj) < options.near_cells; };

  // One table entry for offset (di, dj): far, the tabulated G under the overlap weight; near,
  // its smooth part likewise plus c/R with the analytic inner integral (`static_overlap`).
  const auto entry = [&](Along weight, int di, int dj, const auto& g, const auto& smooth, cd c,
                         double (*static_overlap)(int, int, int), long long& evaluations) {
    if (!is_near(di, dj)) {
      evaluations += overlap_points(weight, options.far_order);
      return a4 * overlap_integral(weight, di, dj, far_rule, g);
    }
    evaluations += overlap_points(weight, options.near_order);
    return a4 * overlap_integral(weight, di, dj, near_rule, smooth) +
           c * a3 * static_overlap(di, dj, options.outer_order);
  };
  // Rooftop overlap for offset `along` the rooftops' axis and `across` it.
  const auto rooftop = [&](int along, int across, long long& evaluations) {
    return entry(Along::bspline, along, across, g_a, smooth_a, c_a, static_rooftop_overlap,
                 evaluations);
  };
  const auto cells = [&](int di, int dj, long long& evaluations) {
    return entry(Along::tent, di, dj, g_v, smooth_v, c_v, static_cell_overlap, evaluations);
  };

  long long evaluations = 0;
  const long long total = static_cast<long long>(count);
#pragma omp parallel for schedule(dynamic, 4) reduction(+ : evaluations)
  for (long long k = 0; k < total; ++k) {
    const int di = static_cast<int>(k % t.nx), dj = static_cast<int>(k / t.nx);
    const auto index = static_cast<std::size_t>(k);
    t.axx[index] = rooftop(di, dj, evaluations);
    t.ayy[index] = rooftop(dj, di, evaluations);
    t.p[index] = cells(di, dj, evaluations);
  }
  t.greens_evaluations = evaluations;
  return t;
}

}  // namespace pmom::mom
