// The heat equation's matrix, right-hand side and initial fields.
#include "planarmom/bench/heat_equation.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace pmom::bench {
namespace {

double spacing(const HeatProblem& p) { return 1.0 / (static_cast<double>(p.n) + 1.0); }

std::int64_t nonzeros(std::int64_t n) { return 5 * n * n - 4 * n; }

}  // namespace

void validate(const HeatProblem& p) {
  if (p.n < 1)
    throw std::invalid_argument("heat equation: n (interior points per side) must be >= 1, got " +
                                std::to_string(p.n));
  if (nonzeros(p.n) > std::numeric_limits<index_t>::max())
    throw std::invalid_argument("heat equation: n = " + std::to_string(p.n) +
                                " gives more non-zeros than 32-bit indices can address "
                                "(n <= 20724)");
  if (!(p.dt > 0) || !std::isfinite(p.dt))
    throw std::invalid_argument("heat equation: the time step dt must be > 0, got " +
                                std::to_string(p.dt));
  if (!(p.kappa > 0) || !std::isfinite(p.kappa))
    throw std::invalid_argument("heat equation: the diffusivity kappa must be > 0, got " +
                                std::to_string(p.kappa));
  if (!std::isfinite(p.boundary))
    throw std::invalid_argument("heat equation: the boundary value must be finite");
}

double mesh_ratio(const HeatProblem& p) {
  const double h = spacing(p);
  return p.kappa * p.dt / (h * h);
}

Csr<double> heat_matrix(const HeatProblem& p) {
  validate(p);
  const index_t n = p.n;
  const double r = mesh_ratio(p);
  const double diagonal = 1 + 4 * r;
  Csr<double> a;
  a.rows = a.cols = n * n;
  const auto nnz = static_cast<std::size_t>(nonzeros(n));
  a.row_ptr.reserve(static_cast<std::size_t>(a.rows) + 1);
  a.col_idx.reserve(nnz);
  a.values.reserve(nnz);
  auto put = [&](index_t col, double value) {
    a.col_idx.push_back(col);
    a.values.push_back(value);
  };
  // Columns ascend within a row: the point below, left, itself, right, above.
  for (index_t j = 0; j < n; ++j)
    for (index_t i = 0; i < n; ++i) {
      const index_t k = i + n * j;
      if (j > 0) put(k - n, -r);
      if (i > 0) put(k - 1, -r);
      put(k, diagonal);
      if (i < n - 1) put(k + 1, -r);
      if (j < n - 1) put(k + n, -r);
      a.row_ptr.push_back(static_cast<index_t>(a.col_idx.size()));
    }
  return a;
}

void heat_rhs(const HeatProblem& p, const std::vector<double>& u, std::vector<double>& b) {
  const index_t n = p.n;
  if (u.size() != static_cast<std::size_t>(n) * static_cast<std::size_t>(n))
    throw std::invalid_argument("heat_rhs: the field has " + std::to_string(u.size()) +
                                " values, the grid " + std::to_string(n) + " x " +
                                std::to_string(n));
  b = u;
  if (p.boundary == 0) return;
  const double g = mesh_ratio(p) * p.boundary;
  for (index_t j = 0; j < n; ++j)
    for (index_t i = 0; i < n; ++i) {
      const int on_boundary = (i == 0) + (i == n - 1) + (j == 0) + (j == n - 1);
      b[static_cast<std::size_t>(i + n * j)] += on_boundary * g;
    }
}

std::string to_string(HeatInitial initial) {
  switch (initial) {
    case HeatInitial::sine: return "sine";
    case HeatInitial::gaussian: return "gaussian";
    case HeatInitial::square: return "square";
  }
  return "?";
}

HeatInitial parse_heat_initial(const std::string& name) {
  for (HeatInitial i : {HeatInitial::sine, HeatInitial::gaussian, HeatInitial::square})
    if (to_string(i) == name) return i;
  throw std::invalid_argument("unknown initial field '" + name + "' (sine, gaussian or square)");
}

std::vector<double> initial_field(const HeatProblem& p, HeatInitial initial) {
  validate(p);
  const index_t n = p.n;
  const double h = spacing(p);
  constexpr double pi = std::numbers::pi;
  constexpr double sigma = 0.1;
  std::vector<double> u(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
  for (index_t j = 0; j < n; ++j)
    for (index_t i = 0; i < n; ++i) {
      const double x = (i + 1) * h, y = (j + 1) * h;
      double v = 0;
      switch (initial) {
        case HeatInitial::sine: v = std::sin(pi * x) * std::sin(pi * y); break;
        case HeatInitial::gaussian: {
          const double r2 = (x - 0.5) * (x - 0.5) + (y - 0.5) * (y - 0.5);
          v = std::exp(-r2 / (2 * sigma * sigma));
          break;
        }
        case HeatInitial::square:
          v = (x >= 0.375 && x <= 0.625 && y >= 0.375 && y <= 0.625) ? 1.0 : 0.0;
          break;
      }
      u[static_cast<std::size_t>(i + n * j)] = v;
    }
  return u;
}

double sine_mode_decay(const HeatProblem& p) {
  validate(p);
  const double h = spacing(p);
  const double s = std::sin(std::numbers::pi * h / 2);
  const double lambda = 8 * s * s / (h * h);
  return 1 / (1 + p.kappa * p.dt * lambda);
}

}  // namespace pmom::bench
