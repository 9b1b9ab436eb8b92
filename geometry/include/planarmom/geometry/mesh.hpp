// The uniform rectangular-cell mesh of a layout and its rooftop basis (Galerkin MPIE on the grid),
// with the ports, lumped elements and vias located on it. Built once per layout;
// frequency-independent.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "planarmom/geometry/layout.hpp"

namespace pmom::geometry {

// Grid indices of a cell: cell (i, j) covers [x0 + i*dx, x0 + (i+1)*dx] in x, the same with
// dy in y.
struct Cell {
  int i = 0, j = 0;
};

// A cell's sides (mm): square cells by default; dx != dy where a layout's x and y edges fall
// on different grids (`mesh: {cell_mm: [dx, dy]}` or `cell_mm: auto`).
struct CellSize {
  double dx_mm = 0, dy_mm = 0;
  [[nodiscard]] bool square() const { return dx_mm == dy_mm; }
};
// A cell's sides as messages and the log write them, in mm without the unit: "0.4", or
// "0.4 x 0.2" for an oblong one.
[[nodiscard]] std::string cell_text(CellSize cell);

// The grid covers the layout's bounding box exactly; its origin is the box's lower-left
// corner. Vertical grid lines are numbered 0..nx, horizontal ones 0..ny.
struct Grid {
  double x0 = 0, y0 = 0;        // origin, mm
  double dx_mm = 0, dy_mm = 0;  // cell sides along x and y
  int nx = 0, ny = 0;           // cells along x and y

  [[nodiscard]] double x_line(int i) const { return x0 + i * dx_mm; }
  [[nodiscard]] double y_line(int j) const { return y0 + j * dy_mm; }
  [[nodiscard]] CellSize cell() const { return {dx_mm, dy_mm}; }
  [[nodiscard]] bool square() const { return cell().square(); }
  [[nodiscard]] bool contains(Cell c) const { return c.i >= 0 && c.i < nx && c.j >= 0 && c.j < ny; }
};

// Where the metal ends beside a cell along one axis: `low` when there is no metal on the side
// of smaller coordinate but there is on the other, `high` the reverse, `none` otherwise
// (metal on both sides, or on neither). The charge and current densities there have the edge
// singularity (mom/ gives such cells an edge-weighted shape).
enum class Edge : std::uint8_t { none, low, high };

// A rooftop spans two adjacent metal cells and carries current across their shared edge in
// +axis, from `minus` to `plus`; its amplitude is the current density (A/m) on that edge.
//
// A cell bubble (bubble true) is a current inside one cell (minus = plus = that cell) along
// `axis`, with no flux through the cell's sides: it moves charge across the cell between the
// uniform shape and the edge-weighted one. Why: mom/ gives a cell beside a metal edge an
// edge-weighted charge shape and the rooftops touching it the matching profile across
// (mom/edge_profile.hpp), but a rooftop joining two cells whose edges across differ (at a step
// or corner of the metal) must stay uniform across, so a current flowing through it leaves
// the difference of the two shapes behind as a spurious charge that no rooftop can remove.
// The bubble can: with bubbles the coupler's S converges on refinement, without them it did not
// (docs/VALIDATION.md, "Cell bubbles"). A bubble's minus_along is its cell's edge along the
// axis (low or high), `across` the cell's edge across it.
struct Rooftop {
  Axis axis = Axis::x;
  Cell minus, plus;  // plus = minus + one cell along axis; a bubble's cell, twice
  Point centre;      // centre of the shared edge (a bubble: of its cell), mm
  // Edges of the minus and plus cells along the axis, and across it: the cells' common edge
  // across the axis (none when the two cells differ, at a step or corner of the metal).
  Edge minus_along = Edge::none, plus_along = Edge::none, across = Edge::none;
  bool bubble = false;
  int layer = 0;  // its metal layer: an index into Mesh::layers()
};

// What makes two feeds (or two gaps' strips) the same line on the mesh: cells across, the
// cell's sides along and across, and the metal layer (an index into Mesh::layers()).
using StripKey = std::tuple<int, double, double, int>;

// The rooftops on one grid line across a feed line's full width, ordered by increasing
// across-coordinate. Total current into the circuit there = sign * across_mm * sum(amplitudes)
// (sign is -1 for feeds running in -x or -y, where into the circuit is against the rooftops).
struct CrossSection {
  double distance_mm = 0;  // from the port edge, along the feed
  std::vector<int> basis;
};

// A port located on the mesh. Its edge is the whole run of boundary cell edges on the port's
// grid line that contains the given point; the feed line is the strip of that width running
// from the edge in `direction`.
struct MeshPort {
  int port = 0;              // index into Layout::ports
  Direction direction = Direction::pos_x;
  int line = 0;              // grid line of the port edge: vertical (x) for ±x, else horizontal
  int first = 0, count = 0;  // cells across the feed: rows j (±x) or columns i (±y)
  double sign = 1;           // +1 for +x/+y feeds, -1 for -x/-y
  Point edge_centre;         // midpoint of the port edge, mm
  double width_mm = 0;
  double along_mm = 0, across_mm = 0;  // the cell's sides along the feed and across it
  // One cross-section per cell step k = 1..K, K = floor(feed_length / along_mm), one fewer where
  // narrower metal joins the feed's end (its last edge is not all rooftops); K >= 2. These
  // are the current samples the de-embedding fits. An internal port's: its gap alone.
  std::vector<CrossSection> samples;
  // An internal port (Port::Kind::internal): a gap across a strip inside the metal, no feed;
  // direction +x or +y (its axis), sign +1, edge_centre the gap's midpoint.
  bool internal = false;
  int layer = 0;  // its metal layer: an index into Mesh::layers()

  // The delta-gap source: the cross-section one cell in from the port edge (samples[0]), the
  // nearest interior edges to the port; the half-cell stub behind it is the open line end.
  [[nodiscard]] const CrossSection& delta_gap() const { return samples.front(); }
  // Feeds with equal keys are the same line on the mesh (cells across, and the cell's sides
  // along and across): one γ, one Z0, one line check.
  [[nodiscard]] StripKey line_key() const { return {count, along_mm, across_mm, layer}; }
};

// A gap across a strip on one grid line: the rooftops crossing the line over the whole run of
// metal there that holds a given point (a lumped element's, an internal port's).
struct GapLine {
  Axis axis = Axis::x;       // of its rooftops: the current's
  int line = 0;              // grid line: vertical (x) for axis x, else horizontal
  int first = 0, count = 0;  // the rows j (axis x) or columns i (axis y) it spans
  double along_mm = 0, across_mm = 0;  // the cell's sides along its rooftops and across them
  CrossSection section;      // its rooftops, ordered across
  // Gaps with equal keys sit on the same strip (as MeshPort::line_key): one gap check.
  [[nodiscard]] StripKey strip_key() const { return {count, along_mm, across_mm, 0}; }
};

// A lumped element located on the mesh (LumpedElement).
struct MeshLumped : GapLine {
  int element = 0;  // index into Layout::lumped
};

// The strips whose zero-width gap needs a gap check (mom/gap_checks.hpp): the distinct strip keys
// of the lumped elements and the internal ports, and which of them each one sits on.
struct GapStrips {
  std::vector<StripKey> keys;  // GapLine::strip_key, each once
  std::vector<int> of_element;                        // per lumped element: index into keys
  std::vector<int> of_port;                           // per port: an internal one's, else -1
};

// A via located on the mesh (Via): the column under its footprint, the metal cells whose centre
// lies inside its disk (distance from its centre < diameter / 2), or, where no cell centre does
// (a via narrower than a cell), the one cell holding its centre (the one on the high side where
// the centre sits on a grid line). Each cell carries one unknown: the vertical current from
// that cell's metal down to the ground, uniform along the via (Mesh::unknowns).
struct MeshVia {
  int via = 0;              // index into Layout::vias
  std::vector<Cell> cells;  // row-major by (j, i); at least one
};

// A cross-section of rooftops that carries a lumped impedance in Z (mom/port_loads.hpp): a
// port's delta gap or a lumped element.
struct LoadedGap {
  const std::vector<int>* basis = nullptr;
  double across_mm = 0;
  std::string name;  // for messages: "port 'in'", "lumped element 'R1'"
};

class Mesh {
 public:
  // The layout as drawn but for its layers: each an interface number (none 0), and the
  // substrate seen from the lowest interface with metal (Substrate::with_strips_on), so that
  // what reads the substrate's strips reads a one-layer layout's own interface.
  [[nodiscard]] const Layout& layout() const { return layout_; }
  [[nodiscard]] const Grid& grid() const { return grid_; }

  // The interfaces that hold metal (Substrate's numbering), ascending: one for a one-layer
  // layout. Everything below that takes a `layer` means an index into them.
  [[nodiscard]] const std::vector<int>& layers() const { return layers_; }
  [[nodiscard]] int layer_count() const { return static_cast<int>(layers_.size()); }
  // The index of interface k in layers(), or -1.
  [[nodiscard]] int layer_index(int interface) const;

  // False outside the grid.
  [[nodiscard]] bool is_metal(Cell c, int layer = 0) const {
    return grid_.contains(c) && metal_[cell_index(c, layer)] != 0;
  }
  // Over all layers.
  [[nodiscard]] int metal_cell_count() const { return metal_cells_; }
  // Where the metal ends beside a metal cell of a layer, along x and along y.
  [[nodiscard]] Edge x_edge_of(Cell c, int layer = 0) const;
  [[nodiscard]] Edge y_edge_of(Cell c, int layer = 0) const;

  // All x-rooftops first, by layer and in each row-major by (j, i), then all y-rooftops, the
  // same, then the cell bubbles, by layer and row-major by cell (a cell's y-bubble before its
  // x-bubble).
  [[nodiscard]] const std::vector<Rooftop>& basis() const { return basis_; }
  [[nodiscard]] int x_rooftop_count() const { return x_count_; }
  [[nodiscard]] int y_rooftop_count() const { return y_end_ - x_count_; }
  [[nodiscard]] int bubble_count() const { return static_cast<int>(basis_.size()) - y_end_; }

  // The rooftop on vertical grid line i in row j (between cells (i-1, j) and (i, j)), or -1.
  [[nodiscard]] int x_edge_basis(int i, int j, int layer = 0) const;
  // The rooftop on horizontal grid line j in column i (between cells (i, j-1) and (i, j)), or -1.
  [[nodiscard]] int y_edge_basis(int i, int j, int layer = 0) const;

  [[nodiscard]] const std::vector<MeshPort>& ports() const { return ports_; }
  [[nodiscard]] const std::vector<MeshLumped>& lumped() const { return lumped_; }
  // Every loaded cross-section: the ports' delta gaps in port order, then the lumped elements
  // in element order (the order of the loads that port_loads.hpp adds).
  [[nodiscard]] std::vector<LoadedGap> loaded_gaps() const;
  // The strips of the lumped elements' and internal ports' gaps, elements' first.
  [[nodiscard]] GapStrips gap_strips() const;

  // The vias in Layout::vias order, each with its cells (no cell is in two vias).
  [[nodiscard]] const std::vector<MeshVia>& vias() const { return vias_; }
  // The cells of all vias together: one vertical current unknown each.
  [[nodiscard]] int via_cell_count() const { return via_cells_; }
  // The unknowns of the MoM system: the rooftops and bubbles in basis() order, unknowns
  // 0..basis().size()-1, then one vertical current per via cell, in vias() order and each
  // via's cells in their (row-major) order: via cell k, counting over all vias in order, is
  // unknown basis().size() + k. Without vias, basis().size().
  [[nodiscard]] std::size_t unknowns() const {
    return basis_.size() + static_cast<std::size_t>(via_cells_);
  }

  // What the mesh suspects in the drawing, one line each for the log: pieces of metal that touch
  // only at a corner (no current crosses a corner), pieces of one cell (no rooftop: they carry
  // no current at this cell size), vias narrower than a cell (modelled as one cell's column).
  [[nodiscard]] const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  friend Mesh make_mesh(const Layout& layout, CellSize cell, bool cell_bubbles);
  Mesh(Layout layout, Grid grid, std::vector<int> layers, std::vector<std::uint8_t> metal,
       bool cell_bubbles);

  [[nodiscard]] std::size_t cell_index(Cell c, int layer) const {
    return (static_cast<std::size_t>(layer) * static_cast<std::size_t>(grid_.ny) +
            static_cast<std::size_t>(c.j)) * static_cast<std::size_t>(grid_.nx) +
           static_cast<std::size_t>(c.i);
  }
  void number_basis();
  void add_bubbles(int layer);

  Layout layout_;
  Grid grid_;
  std::vector<int> layers_;
  std::vector<std::uint8_t> metal_;  // per layer nx*ny, row-major by (j, i)
  int metal_cells_ = 0;
  std::vector<Rooftop> basis_;
  int x_count_ = 0, y_end_ = 0;
  std::vector<int> x_edge_;  // per layer (nx+1)*ny, row-major by (j, i)
  std::vector<int> y_edge_;  // per layer nx*(ny+1), row-major by (j, i)
  std::vector<MeshPort> ports_;
  std::vector<MeshLumped> lumped_;
  std::vector<MeshVia> vias_;
  int via_cells_ = 0;
  std::vector<std::string> warnings_;
};

// Validates the layout, meshes it with cells of `cell`, numbers the rooftops and
// locates the ports. Throws GeometryError naming the item when: a rectangle is narrower than
// a cell or has an edge off the grid (the message suggests a cell that divides the layout),
// the mesh would have more than 1e8 cells, or a port is not on the metal's outer edge, shares its edge with
// another port, or its feed is not a straight uniform strip at least two cells long, or a
// lumped element is off the grid, not inside the metal, on a port's feed or on another element,
// or a via reaches off the metal (a cell of its footprint is bare or off the grid), sits on an
// edge port's feed line or shares a cell with another via.
// The metal may be any number of pieces (4-neighbour connectivity of cells): coupled lines, gaps
// and floating metal; the rooftops of each piece keep its charge neutral, as a floating
// conductor's is. Mesh::warnings() names what looks like a drawing error, and polygons that
// run at an angle to the grid on too few cells across for their staircase.
// cell_bubbles false leaves the cell bubbles out (for plain rooftops, which need none, and to
// show what they change).
[[nodiscard]] Mesh make_mesh(const Layout& layout, CellSize cell, bool cell_bubbles = true);
// Square cells of cell_mm.
[[nodiscard]] inline Mesh make_mesh(const Layout& layout, double cell_mm,
                                    bool cell_bubbles = true) {
  return make_mesh(layout, CellSize{cell_mm, cell_mm}, cell_bubbles);
}

}  // namespace pmom::geometry
