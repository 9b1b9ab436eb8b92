// Rooftop numbering on the metal cells, the cell bubbles, and the edge -> rooftop lookups.
#include <algorithm>

#include "planarmom/geometry/mesh.hpp"

namespace pmom::geometry {

namespace {

Edge edge_of(bool metal_low, bool metal_high) {
  if (!metal_low && metal_high) return Edge::low;
  if (metal_low && !metal_high) return Edge::high;
  return Edge::none;
}

Edge common(Edge a, Edge b) { return a == b ? a : Edge::none; }

}  // namespace

Edge Mesh::x_edge_of(Cell c) const {
  return edge_of(is_metal({c.i - 1, c.j}), is_metal({c.i + 1, c.j}));
}

Edge Mesh::y_edge_of(Cell c) const {
  return edge_of(is_metal({c.i, c.j - 1}), is_metal({c.i, c.j + 1}));
}

Mesh::Mesh(Layout layout, Grid grid, std::vector<std::uint8_t> metal, bool cell_bubbles)
    : layout_(std::move(layout)), grid_(grid), metal_(std::move(metal)) {
  metal_cells_ = static_cast<int>(std::count(metal_.begin(), metal_.end(), 1));
  number_basis();
  y_end_ = static_cast<int>(basis_.size());
  if (cell_bubbles) add_bubbles();
}

void Mesh::number_basis() {
  const int nx = grid_.nx, ny = grid_.ny;
  x_edge_.assign(static_cast<std::size_t>(nx + 1) * static_cast<std::size_t>(ny), -1);
  y_edge_.assign(static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny + 1), -1);
  for (int j = 0; j < ny; ++j) {
    for (int i = 1; i < nx; ++i) {
      if (!is_metal({i - 1, j}) || !is_metal({i, j})) continue;
      x_edge_[static_cast<std::size_t>(j) * static_cast<std::size_t>(nx + 1) +
              static_cast<std::size_t>(i)] = static_cast<int>(basis_.size());
      const Cell minus{i - 1, j}, plus{i, j};
      basis_.push_back({Axis::x, minus, plus, {grid_.x_line(i), grid_.y_line(j) + grid_.dy_mm / 2},
                        x_edge_of(minus), x_edge_of(plus),
                        common(y_edge_of(minus), y_edge_of(plus))});
    }
  }
  x_count_ = static_cast<int>(basis_.size());
  for (int j = 1; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      if (!is_metal({i, j - 1}) || !is_metal({i, j})) continue;
      y_edge_[static_cast<std::size_t>(j) * static_cast<std::size_t>(nx) +
              static_cast<std::size_t>(i)] = static_cast<int>(basis_.size());
      const Cell minus{i, j - 1}, plus{i, j};
      basis_.push_back({Axis::y, minus, plus, {grid_.x_line(i) + grid_.dx_mm / 2, grid_.y_line(j)},
                        y_edge_of(minus), y_edge_of(plus),
                        common(x_edge_of(minus), x_edge_of(plus))});
    }
  }
}

// A cell gets a bubble along y when it has an edge in y and some x-rooftop joins it to a cell
// with another edge in y (that rooftop is uniform across: the cells differ), and along x
// likewise with the axes swapped.
void Mesh::add_bubbles() {
  for (int j = 0; j < grid_.ny; ++j) {
    for (int i = 0; i < grid_.nx; ++i) {
      const Cell c{i, j};
      if (!is_metal(c)) continue;
      const Edge x_edge = x_edge_of(c), y_edge = y_edge_of(c);
      const auto differs = [this](Cell n, Edge edge, Edge (Mesh::*of)(Cell) const) {
        return is_metal(n) && (this->*of)(n) != edge;
      };
      const Point centre{grid_.x_line(i) + grid_.dx_mm / 2, grid_.y_line(j) + grid_.dy_mm / 2};
      if (y_edge != Edge::none && (differs({i - 1, j}, y_edge, &Mesh::y_edge_of) ||
                                   differs({i + 1, j}, y_edge, &Mesh::y_edge_of))) {
        basis_.push_back({Axis::y, c, c, centre, y_edge, y_edge, x_edge, true});
      }
      if (x_edge != Edge::none && (differs({i, j - 1}, x_edge, &Mesh::x_edge_of) ||
                                   differs({i, j + 1}, x_edge, &Mesh::x_edge_of))) {
        basis_.push_back({Axis::x, c, c, centre, x_edge, x_edge, y_edge, true});
      }
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
