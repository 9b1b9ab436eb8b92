// The strips' loss entries with the image term (surface_loss.hpp): the basis on a lattice of
// sub-cells, the image kernel k summed over it, and 4⟨k ⊛ f_m, k ⊛ f_n⟩ over the metal.
#include <Eigen/SparseCore>
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "kinds.hpp"
#include "planarmom/mom/constants.hpp"
#include "planarmom/mom/edge_profile.hpp"
#include "image_lattice.hpp"
#include "planarmom/mom/surface_loss.hpp"

namespace pmom::mom {
namespace {

// ∫ of a piecewise-linear shape over [lo, hi].
double integral(std::span<const ShapePiece> pieces, double lo, double hi) {
  double sum = 0;
  for (const ShapePiece& p : pieces) {
    const double a = std::max(lo, p.t0), b = std::min(hi, p.t1);
    if (b > a) sum += (b - a) * 0.5 * (p.at(a) + p.at(b));
  }
  return sum;
}

std::vector<Mass> masses(const RooftopCells& c, int sub_x, int sub_y) {
  std::vector<Mass> out;
  add_rooftop_masses(c.axis, c.i, c.j, rooftop_shape(c.kind), 1.0, sub_x, sub_y, out);
  if (c.kind2 >= 0)
    add_rooftop_masses(c.axis, c.i, c.j, rooftop_shape(c.kind2), -1.0, sub_x, sub_y, out);
  return out;
}

}  // namespace

ImageLattice::ImageLattice(double a, double b, double h, double reach_heights) {
  // k varies on the scale 2h; sub-cells of at most h/2 resolve it (midpoint rule) to ~1%.
  const auto subdivisions = [h](double side) {
    return std::max(1, static_cast<int>(std::ceil(2.0 * side / h - 1e-9)));
  };
  sub_x_ = subdivisions(a);
  sub_y_ = subdivisions(b);
  step_ = a / sub_x_;
  step_y_ = b / sub_y_;
  const double eta2 = (step_y_ / step_) * (step_y_ / step_);  // 1 on square cells
  reach_ = static_cast<int>(std::ceil(reach_heights * h / step_));
  reach_y_ = static_cast<int>(std::ceil(reach_heights * h / step_y_));
  const double radius2 = std::max(double(reach_) * reach_ * step_ * step_,
                                  double(reach_y_) * reach_y_ * step_y_ * step_y_);
  const double four_h2 = 4.0 * h * h, c_k = 2.0 * h / (4.0 * pi);
  width_ = static_cast<std::size_t>(2 * reach_ + 1);
  kernel_.assign(width_ * static_cast<std::size_t>(2 * reach_y_ + 1), 0.0);
  for (int dj = -reach_y_; dj <= reach_y_; ++dj)
    for (int di = -reach_; di <= reach_; ++di) {
      const double rho2 = (double(di) * di + double(dj) * dj * eta2) * step_ * step_;
      if (rho2 <= radius2)
        kernel_[static_cast<std::size_t>(dj + reach_y_) * width_ + static_cast<std::size_t>(di + reach_)] =
            c_k / std::pow(rho2 + four_h2, 1.5) * a * b;
    }
}

void add_rooftop_masses(int axis, int i, int j, const RooftopShape& shape, double sign,
                        int sub_x, int sub_y, std::vector<Mass>& out) {
  const std::vector<ShapePiece> ramp = ramp_pieces(shape.minus, shape.plus);
  const std::span<const ShapePiece> profile = profile_pieces(shape.across);
  const int sub_along = axis == 0 ? sub_x : sub_y, sub_across = axis == 0 ? sub_y : sub_x;
  const double step_along = 1.0 / sub_along, step_across = 1.0 / sub_across;
  for (int u = 0; u < 2 * sub_along; ++u) {
    const double along = integral(ramp, -1.0 + u * step_along, -1.0 + (u + 1) * step_along);
    for (int v = 0; v < sub_across; ++v) {
      const double mass =
          sign * along * integral(profile, v * step_across, (v + 1) * step_across);
      if (axis == 0)
        out.push_back({i * sub_x + u, j * sub_y + v, mass});
      else
        out.push_back({i * sub_x + v, j * sub_y + u, mass});
    }
  }
}

std::vector<GramEntry> strip_loss_entries(const geometry::Mesh& mesh, bool edge_profiles,
                                          const StripLossOptions& options) {
  const std::vector<GramEntry> gram = basis_gram(mesh, edge_profiles);
  const std::vector<RooftopCells> cells = rooftop_cells(mesh, edge_profiles);
  const geometry::Grid& grid = mesh.grid();
  const double a = grid.dx_mm * 1e-3, b = grid.dy_mm * 1e-3;
  const double h = mesh.layout().substrate.height_over_ground_mm() * 1e-3;
  const ImageLattice lattice(a, b, h, options.image_reach_heights);
  const int sub_x = lattice.sub_x(), sub_y = lattice.sub_y();
  const int reach = lattice.reach(), reach_y = lattice.reach_y();
  const int nx = grid.nx * sub_x, ny = grid.ny * sub_y;
  // The metal's sub-cells, numbered.
  std::vector<int> point(static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny), -1);
  int points = 0;
  for (int j = 0; j < grid.ny; ++j)
    for (int i = 0; i < grid.nx; ++i)
      if (mesh.is_metal({i, j}))
        for (int v = 0; v < sub_y; ++v)
          for (int u = 0; u < sub_x; ++u)
            point[static_cast<std::size_t>(j * sub_y + v) * nx + (i * sub_x + u)] = points++;

  // A (points × functions): (k ⊛ f_m) at the metal's sub-cells, per axis.
  const auto n = static_cast<int>(cells.size());
  using Triplets = std::vector<Eigen::Triplet<double, index_t>>;
  std::vector<Triplets> per_axis(2);
#pragma omp parallel
  {
    std::vector<Triplets> mine(2);
#pragma omp for schedule(dynamic, 16)
    for (int m = 0; m < n; ++m) {
      const std::vector<Mass> src = masses(cells[static_cast<std::size_t>(m)], sub_x, sub_y);
      int lo_i = nx, hi_i = -1, lo_j = ny, hi_j = -1;
      for (const Mass& s : src) {
        lo_i = std::min(lo_i, s.gi), hi_i = std::max(hi_i, s.gi);
        lo_j = std::min(lo_j, s.gj), hi_j = std::max(hi_j, s.gj);
      }
      const int bi = std::max(0, lo_i - reach), ei = std::min(nx - 1, hi_i + reach);
      const int bj = std::max(0, lo_j - reach_y), ej = std::min(ny - 1, hi_j + reach_y);
      for (int gj = bj; gj <= ej; ++gj)
        for (int gi = bi; gi <= ei; ++gi) {
          const int q = point[static_cast<std::size_t>(gj) * nx + gi];
          if (q < 0) continue;
          double sum = 0;
          for (const Mass& s : src) {
            const int di = gi - s.gi, dj = gj - s.gj;
            sum += s.mass * lattice.at(di, dj);
          }
          if (sum != 0.0)
            mine[static_cast<std::size_t>(cells[static_cast<std::size_t>(m)].axis)].emplace_back(
                q, m, sum);
        }
    }
#pragma omp critical
    for (int axis = 0; axis < 2; ++axis)
      per_axis[static_cast<std::size_t>(axis)].insert(per_axis[static_cast<std::size_t>(axis)].end(),
                                                      mine[static_cast<std::size_t>(axis)].begin(),
                                                      mine[static_cast<std::size_t>(axis)].end());
  }
  // 4 ⟨k ⊛ f_m, k ⊛ f_n⟩ = 4 step_x step_y Σ_q A_qm A_qn, the x and y components apart: row m
  // from m's column of A and, for each of its points q, A's row q (the transpose's column), in
  // parallel over the rows, each row's columns ascending.
  using Sparse = Eigen::SparseMatrix<double, Eigen::ColMajor, index_t>;
  std::vector<Sparse> field(2), rows_of(2);
  for (int axis = 0; axis < 2; ++axis) {
    Triplets& t = per_axis[static_cast<std::size_t>(axis)];
    field[static_cast<std::size_t>(axis)].resize(points, n);
    field[static_cast<std::size_t>(axis)].setFromTriplets(t.begin(), t.end());
    t = {};
    rows_of[static_cast<std::size_t>(axis)] = Sparse(field[static_cast<std::size_t>(axis)].transpose());
  }
  std::vector<std::vector<std::pair<index_t, double>>> image(static_cast<std::size_t>(n));
  const double weight = lattice.overlap_weight();
#pragma omp parallel
  {
    std::vector<double> sum(static_cast<std::size_t>(n), 0.0);
    std::vector<char> seen(static_cast<std::size_t>(n), 0);
    std::vector<index_t> touched;
#pragma omp for schedule(dynamic, 32)
    for (int m = 0; m < n; ++m) {
      const auto axis = static_cast<std::size_t>(cells[static_cast<std::size_t>(m)].axis);
      for (Sparse::InnerIterator q(field[axis], m); q; ++q)
        for (Sparse::InnerIterator k(rows_of[axis], q.row()); k; ++k) {
          const auto col = static_cast<std::size_t>(k.row());
          if (!seen[col]) {
            seen[col] = 1;
            touched.push_back(static_cast<index_t>(k.row()));
          }
          sum[col] += q.value() * k.value();
        }
      std::sort(touched.begin(), touched.end());
      std::vector<std::pair<index_t, double>>& row = image[static_cast<std::size_t>(m)];
      row.reserve(touched.size());
      for (const index_t col : touched) {
        row.emplace_back(col, weight * sum[static_cast<std::size_t>(col)]);
        sum[static_cast<std::size_t>(col)] = 0.0;
        seen[static_cast<std::size_t>(col)] = 0;
      }
      touched.clear();
    }
  }
  // Merged with the Gram entries (sorted by row, then column) row by row.
  std::vector<GramEntry> out;
  out.reserve(gram.size());
  std::size_t g = 0;
  for (index_t m = 0; m < n; ++m) {
    const std::vector<std::pair<index_t, double>>& row = image[static_cast<std::size_t>(m)];
    std::size_t i = 0;
    while ((g < gram.size() && gram[g].row == m) || i < row.size()) {
      const bool from_gram = g < gram.size() && gram[g].row == m &&
                             (i == row.size() || gram[g].col <= row[i].first);
      if (from_gram) {
        out.push_back(gram[g++]);
        if (i < row.size() && row[i].first == out.back().col) out.back().image += row[i++].second;
      } else {
        out.push_back({m, row[i].first, 0.0, row[i].second});
        ++i;
      }
    }
    std::vector<std::pair<index_t, double>>().swap(image[static_cast<std::size_t>(m)]);
  }
  return out;
}

}  // namespace pmom::mom
