// Rooftop numbering on the metal cells and the edge -> rooftop lookups.
#include <algorithm>

#include "planarmom/geometry/mesh.hpp"

namespace pmom::geometry {

Mesh::Mesh(Layout layout, Grid grid, std::vector<std::uint8_t> metal)
    : layout_(std::move(layout)), grid_(grid), metal_(std::move(metal)) {
  metal_cells_ = static_cast<int>(std::count(metal_.begin(), metal_.end(), 1));
  number_basis();
}

void Mesh::number_basis() {
  const int nx = grid_.nx, ny = grid_.ny;
  const double h = grid_.cell_mm;
  x_edge_.assign(static_cast<std::size_t>(nx + 1) * static_cast<std::size_t>(ny), -1);
  y_edge_.assign(static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny + 1), -1);
  for (int j = 0; j < ny; ++j) {
    for (int i = 1; i < nx; ++i) {
      if (!is_metal({i - 1, j}) || !is_metal({i, j})) continue;
      x_edge_[static_cast<std::size_t>(j) * static_cast<std::size_t>(nx + 1) +
              static_cast<std::size_t>(i)] = static_cast<int>(basis_.size());
      basis_.push_back({Axis::x, {i - 1, j}, {i, j}, {grid_.x_line(i), grid_.y_line(j) + h / 2}});
    }
  }
  x_count_ = static_cast<int>(basis_.size());
  for (int j = 1; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      if (!is_metal({i, j - 1}) || !is_metal({i, j})) continue;
      y_edge_[static_cast<std::size_t>(j) * static_cast<std::size_t>(nx) +
              static_cast<std::size_t>(i)] = static_cast<int>(basis_.size());
      basis_.push_back({Axis::y, {i, j - 1}, {i, j}, {grid_.x_line(i) + h / 2, grid_.y_line(j)}});
    }
  }
}

int Mesh::x_edge_basis(int i, int j) const {
  if (i < 0 || i > grid_.nx || j < 0 || j >= grid_.ny) return -1;
  return x_edge_[static_cast<std::size_t>(j) * static_cast<std::size_t>(grid_.nx + 1) +
                 static_cast<std::size_t>(i)];
}

int Mesh::y_edge_basis(int i, int j) const {
  if (i < 0 || i >= grid_.nx || j < 0 || j > grid_.ny) return -1;
  return y_edge_[static_cast<std::size_t>(j) * static_cast<std::size_t>(grid_.nx) +
                 static_cast<std::size_t>(i)];
}

}  // namespace pmom::geometry
