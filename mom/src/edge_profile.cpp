// Edge profiles and ramps as piecewise-linear densities, and the Gauss rules of their overlaps.
#include "planarmom/mom/edge_profile.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <stdexcept>

#include "planarmom/mom/gauss_legendre.hpp"

namespace pmom::mom {
namespace {

constexpr std::size_t kSegments = 6;

// Means of 1/(2√t) over [t0, t1]: (√t1 − √t0)/(t1 − t0); segments halve towards t = 0.
std::array<ShapePiece, kSegments> low_edge() {
  std::array<ShapePiece, kSegments> s{};
  double t1 = 1.0;
  for (std::size_t k = kSegments; k-- > 0;) {
    const double t0 = k == 0 ? 0.0 : t1 / 2;
    const double d = (std::sqrt(t1) - std::sqrt(t0)) / (t1 - t0);
    s[k] = {t0, t1, d, d};
    t1 = t0;
  }
  return s;
}

std::array<ShapePiece, kSegments> high_edge() {
  const auto low = low_edge();
  std::array<ShapePiece, kSegments> s{};
  for (std::size_t k = 0; k < kSegments; ++k) {
    const ShapePiece& m = low[kSegments - 1 - k];
    s[k] = {1.0 - m.t1, 1.0 - m.t0, m.d0, m.d0};
  }
  return s;
}

const std::array<ShapePiece, 1> kUniform{{{0.0, 1.0, 1.0, 1.0}}};
const std::array<ShapePiece, kSegments> kLow = low_edge();
const std::array<ShapePiece, kSegments> kHigh = high_edge();

double tent(double t) { return std::max(0.0, 1.0 - std::abs(t)); }

double bspline(double t) {
  const double s = std::abs(t);
  if (s < 1.0) return 2.0 / 3.0 - s * s + 0.5 * s * s * s;
  if (s < 2.0) return (2.0 - s) * (2.0 - s) * (2.0 - s) / 6.0;
  return 0.0;
}

bool is_uniform_profile(std::span<const ShapePiece> p) {
  return p.size() == 1 && p[0].t0 == 0.0 && p[0].t1 == 1.0 && p[0].d0 == 1.0 && p[0].d1 == 1.0;
}

bool is_triangle(std::span<const ShapePiece> p) {
  return p.size() == 2 && p[0].t0 == -1.0 && p[0].d0 == 0.0 && p[0].d1 == 1.0 &&
         p[1].t1 == 1.0 && p[1].d0 == 1.0 && p[1].d1 == 0.0;
}

// Gauss-Legendre on each unit piece of [first, last], times the weight.
template <class Weight> WeightRule piecewise_legendre(int first, int last, int order, Weight c) {
  const GaussRule rule = gauss_legendre(order);
  WeightRule out;
  for (int piece = first; piece < last; ++piece) {
    for (std::size_t k = 0; k < rule.x.size(); ++k) {
      out.t.push_back(piece + rule.x[k]);
      out.w.push_back(rule.w[k] * c(piece + rule.x[k]));
    }
  }
  return out;
}

// c on [lo, hi] as a discrete measure, exact for polynomials of degree ≤ 2·points: each pair of
// pieces contributes ∫ o(u) s(u + τ) du, a cubic in τ between the breakpoints s − u of their
// ends, so Gauss-Legendre of points + 2 nodes on each of those intervals integrates it times
// any polynomial of degree 2·points exactly (and 2 nodes in u integrate the quadratic o·s).
void discretise_overlap(std::span<const ShapePiece> obs, std::span<const ShapePiece> src,
                        double lo, double hi, int points, std::vector<double>& t,
                        std::vector<double>& w) {
  const GaussRule rule = gauss_legendre(points + 2);
  const GaussRule inner = gauss_legendre(2);
  for (const ShapePiece& o : obs) {
    for (const ShapePiece& s : src) {
      const auto overlap = [&](double tau) {
        const double u0 = std::max(o.t0, s.t0 - tau), u1 = std::min(o.t1, s.t1 - tau);
        double sum = 0.0;
        if (u1 <= u0) return sum;
        for (std::size_t q = 0; q < inner.x.size(); ++q) {
          const double u = u0 + (u1 - u0) * inner.x[q];
          sum += (u1 - u0) * inner.w[q] * o.at(u) * s.at(u + tau);
        }
        return sum;
      };
      std::array<double, 6> b{lo, hi, s.t0 - o.t1, s.t0 - o.t0, s.t1 - o.t1, s.t1 - o.t0};
      std::sort(b.begin(), b.end());
      for (std::size_t k = 0; k + 1 < b.size(); ++k) {
        const double a0 = std::max(b[k], lo), a1 = std::min(b[k + 1], hi);
        if (a1 <= a0) continue;
        for (std::size_t q = 0; q < rule.x.size(); ++q) {
          const double tau = a0 + (a1 - a0) * rule.x[q];
          const double weight = (a1 - a0) * rule.w[q] * overlap(tau);
          if (weight > 0.0) {
            t.push_back(tau);
            w.push_back(weight);
          }
        }
      }
    }
  }
}

}  // namespace

double shape_overlap(std::span<const ShapePiece> a, std::span<const ShapePiece> b, double shift) {
  double sum = 0;
  for (const ShapePiece& p : a)
    for (const ShapePiece& q : b) {
      const double lo = std::max(p.t0, q.t0 + shift), hi = std::min(p.t1, q.t1 + shift);
      if (!(hi > lo)) continue;
      const double mid = 0.5 * (lo + hi);
      const auto f = [&](double u) { return p.at(u) * q.at(u - shift); };
      sum += (hi - lo) / 6.0 * (f(lo) + 4.0 * f(mid) + f(hi));
    }
  return sum;
}

std::span<const ShapePiece> profile_pieces(geometry::Edge edge) {
  switch (edge) {
    case geometry::Edge::low: return kLow;
    case geometry::Edge::high: return kHigh;
    case geometry::Edge::none: break;
  }
  return kUniform;
}

std::vector<ShapePiece> ramp_pieces(geometry::Edge minus, geometry::Edge plus) {
  std::vector<ShapePiece> ramp;
  double running = 0.0;
  for (const ShapePiece& p : profile_pieces(minus)) {
    const double next = running + (p.t1 - p.t0) * p.d0;
    ramp.push_back({p.t0 - 1.0, p.t1 - 1.0, running, next});
    running = next;
  }
  running = 1.0;
  for (const ShapePiece& p : profile_pieces(plus)) {
    const double next = running - (p.t1 - p.t0) * p.d0;
    ramp.push_back({p.t0, p.t1, running, std::max(next, 0.0)});
    running = next;
  }
  return ramp;
}

WeightRule overlap_rule(std::span<const ShapePiece> obs, std::span<const ShapePiece> src,
                        int first, int last, int order) {
  if (is_uniform_profile(obs) && is_uniform_profile(src)) {
    return piecewise_legendre(first, last, order, tent);
  }
  if (is_triangle(obs) && is_triangle(src)) return piecewise_legendre(first, last, order, bspline);
  WeightRule out;
  for (int lo = first; lo < last; ++lo) {
    std::vector<double> t, w;
    discretise_overlap(obs, src, lo, lo + 1, order, t, w);
    if (t.size() < static_cast<std::size_t>(order)) continue;  // no overlap on this piece
    const WeightRule piece = gauss_rule_of_measure(t, w, order);
    out.t.insert(out.t.end(), piece.t.begin(), piece.t.end());
    out.w.insert(out.w.end(), piece.w.begin(), piece.w.end());
  }
  return out;
}

WeightRule gauss_rule_of_measure(std::span<const double> t, std::span<const double> w,
                                 int points) {
  if (points < 1 || t.size() != w.size() || t.size() < static_cast<std::size_t>(points)) {
    throw std::invalid_argument("gauss_rule_of_measure: need at least `points` >= 1 nodes");
  }
  // Recurrence p_{k+1} = (t − α_k) p_k − β_k p_{k−1} of the orthogonal polynomials, evaluated
  // on the measure's nodes (centred and scaled to [−1, 1] for conditioning).
  const auto [lo_it, hi_it] = std::minmax_element(t.begin(), t.end());
  const double centre = 0.5 * (*lo_it + *hi_it), scale = std::max(0.5 * (*hi_it - *lo_it), 1e-300);
  const std::size_t n = t.size();
  std::vector<double> x(n), previous(n, 0.0), current(n, 1.0), next(n);
  for (std::size_t k = 0; k < n; ++k) x[k] = (t[k] - centre) / scale;
  Eigen::VectorXd alpha(points), beta(points);
  double norm_previous = 1.0;
  for (int k = 0; k < points; ++k) {
    double norm = 0.0, moment = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      norm += w[i] * current[i] * current[i];
      moment += w[i] * x[i] * current[i] * current[i];
    }
    alpha[k] = moment / norm;
    beta[k] = k == 0 ? norm : norm / norm_previous;
    for (std::size_t i = 0; i < n; ++i) {
      next[i] = (x[i] - alpha[k]) * current[i] - (k == 0 ? 0.0 : beta[k]) * previous[i];
    }
    previous.swap(current);
    current.swap(next);
    norm_previous = norm;
  }
  Eigen::MatrixXd jacobi = Eigen::MatrixXd::Zero(points, points);
  for (int k = 0; k < points; ++k) {
    jacobi(k, k) = alpha[k];
    if (k + 1 < points) jacobi(k, k + 1) = jacobi(k + 1, k) = std::sqrt(beta[k + 1]);
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(jacobi);
  WeightRule rule;
  for (int k = 0; k < points; ++k) {
    rule.t.push_back(centre + scale * eigen.eigenvalues()[k]);
    rule.w.push_back(beta[0] * eigen.eigenvectors()(0, k) * eigen.eigenvectors()(0, k));
  }
  return rule;
}

}  // namespace pmom::mom
