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

Edge Mesh::x_edge_of(Cell c, int layer) const {
  return edge_of(is_metal({c.i - 1, c.j}, layer), is_metal({c.i + 1, c.j}, layer));
}

Edge Mesh::y_edge_of(Cell c, int layer) const {
  return edge_of(is_metal({c.i, c.j - 1}, layer), is_metal({c.i, c.j + 1}, layer));
}

int Mesh::layer_index(int interface) const {
  const auto it = std::find(layers_.begin(), layers_.end(), interface);
  return it == layers_.end() ? -1 : static_cast<int>(it - layers_.begin());
}

Mesh::Mesh(Layout layout, Grid grid, std::vector<int> layers, std::vector<std::uint8_t> metal,
           bool cell_bubbles)
    : layout_(std::move(layout)), grid_(grid), layers_(std::move(layers)), metal_(std::move(metal)) {
  metal_cells_ = static_cast<int>(std::count(metal_.begin(), metal_.end(), 1));
  number_basis();
  y_end_ = static_cast<int>(basis_.size());
  if (cell_bubbles)
    for (int l = 0; l < layer_count(); ++l) add_bubbles(l);
}

void Mesh::number_basis() {
  const int nx = grid_.nx, ny = grid_.ny;
  const auto layers = static_cast<std::size_t>(layer_count());
  x_edge_.assign(layers * static_cast<std::size_t>(nx + 1) * static_cast<std::size_t>(ny), -1);
  y_edge_.assign(layers * static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny + 1), -1);
  for (int l = 0; l < layer_count(); ++l) {
    for (int j = 0; j < ny; ++j) {
      for (int i = 1; i < nx; ++i) {
        if (!is_metal({i - 1, j}, l) || !is_metal({i, j}, l)) continue;
        x_edge_[(static_cast<std::size_t>(l) * static_cast<std::size_t>(ny) +
                 static_cast<std::size_t>(j)) * static_cast<std::size_t>(nx + 1) +
                static_cast<std::size_t>(i)] = static_cast<int>(basis_.size());
        const Cell minus{i - 1, j}, plus{i, j};
        basis_.push_back({Axis::x, minus, plus,
                          {grid_.x_line(i), grid_.y_line(j) + grid_.dy_mm / 2},
                          x_edge_of(minus, l), x_edge_of(plus, l),
                          common(y_edge_of(minus, l), y_edge_of(plus, l)), false, l});
      }
    }
  }
  x_count_ = static_cast<int>(basis_.size());
  for (int l = 0; l < layer_count(); ++l) {
    for (int j = 1; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) {
        if (!is_metal({i, j - 1}, l) || !is_metal({i, j}, l)) continue;
        y_edge_[(static_cast<std::size_t>(l) * static_cast<std::size_t>(ny + 1) +
                 static_cast<std::size_t>(j)) * static_cast<std::size_t>(nx) +
                static_cast<std::size_t>(i)] = static_cast<int>(basis_.size());
        const Cell minus{i, j - 1}, plus{i, j};
        basis_.push_back({Axis::y, minus, plus,
                          {grid_.x_line(i) + grid_.dx_mm / 2, grid_.y_line(j)},
                          y_edge_of(minus, l), y_edge_of(plus, l),
                          common(x_edge_of(minus, l), x_edge_of(plus, l)), false, l});
      }
    }
  }
}

// A cell gets a bubble along y when it has an edge in y and some x-rooftop joins it to a cell
// with another edge in y (that rooftop is uniform across: the cells differ), and along x
// likewise with the axes swapped.
void Mesh::add_bubbles(int l) {
  for (int j = 0; j < grid_.ny; ++j) {
    for (int i = 0; i < grid_.nx; ++i) {
      const Cell c{i, j};
      if (!is_metal(c, l)) continue;
      const Edge x_edge = x_edge_of(c, l), y_edge = y_edge_of(c, l);
      const auto differs = [this, l](Cell n, Edge edge, Edge (Mesh::*of)(Cell, int) const) {
        return is_metal(n, l) && (this->*of)(n, l) != edge;
      };
      const Point centre{grid_.x_line(i) + grid_.dx_mm / 2, grid_.y_line(j) + grid_.dy_mm / 2};
      if (y_edge != Edge::none && (differs({i - 1, j}, y_edge, &Mesh::y_edge_of) ||
                                   differs({i + 1, j}, y_edge, &Mesh::y_edge_of))) {
        basis_.push_back({Axis::y, c, c, centre, y_edge, y_edge, x_edge, true, l});
      }
      if (x_edge != Edge::none && (differs({i, j - 1}, x_edge, &Mesh::x_edge_of) ||
                                   differs({i, j + 1}, x_edge, &Mesh::x_edge_of))) {
        basis_.push_back({Axis::x, c, c, centre, x_edge, x_edge, y_edge, true, l});
      }
    }
  }
}

int Mesh::x_edge_basis(int i, int j, int layer) const {
  if (i < 0 || i > grid_.nx || j < 0 || j >= grid_.ny || layer < 0 || layer >= layer_count())
    return -1;
  return x_edge_[(static_cast<std::size_t>(layer) * static_cast<std::size_t>(grid_.ny) +
                  static_cast<std::size_t>(j)) * static_cast<std::size_t>(grid_.nx + 1) +
                 static_cast<std::size_t>(i)];
}

int Mesh::y_edge_basis(int i, int j, int layer) const {
  if (i < 0 || i >= grid_.nx || j < 0 || j > grid_.ny || layer < 0 || layer >= layer_count())
    return -1;
  return y_edge_[(static_cast<std::size_t>(layer) * static_cast<std::size_t>(grid_.ny + 1) +
                  static_cast<std::size_t>(j)) * static_cast<std::size_t>(grid_.nx) +
                 static_cast<std::size_t>(i)];
}

}  // namespace pmom::geometry
