// Ports on the mesh: the port edge, the straight feed strip behind it, its current samples
// and its delta-gap edges.
#include <algorithm>
#include <cmath>
#include <span>
#include <string>

#include "format.hpp"
#include "mesh_detail.hpp"
#include "planarmom/geometry/cell_size.hpp"
#include "planarmom/geometry/error.hpp"

namespace pmom::geometry::detail {

namespace {

// Feed coordinates: step s along the feed (s = 0 is the cell at the port edge, s = -1 the
// cell outside it) and t across it (a row j for ±x feeds, a column i for ±y feeds).
struct Frame {
  Direction d;
  int line;   // grid line of the port edge
  int layer;  // its metal's: an index into Mesh::layers()

  [[nodiscard]] Cell cell(int s, int t) const {
    switch (d) {
      case Direction::pos_x: return {line + s, t};
      case Direction::neg_x: return {line - 1 - s, t};
      case Direction::pos_y: return {t, line + s};
      case Direction::neg_y: return {t, line - 1 - s};
    }
    return {};
  }
  // The rooftop on the grid line k cells in from the port edge, at across-index t.
  [[nodiscard]] int edge(const Mesh& mesh, int k, int t) const {
    switch (d) {
      case Direction::pos_x: return mesh.x_edge_basis(line + k, t, layer);
      case Direction::neg_x: return mesh.x_edge_basis(line - k, t, layer);
      case Direction::pos_y: return mesh.y_edge_basis(t, line + k, layer);
      case Direction::neg_y: return mesh.y_edge_basis(t, line - k, layer);
    }
    return -1;
  }
};

bool along_x(Direction d) { return d == Direction::pos_x || d == Direction::neg_x; }

// Empty cells of a layer that are not enclosed by its metal: a port must face one of these (or
// the space beyond the grid), not a hole.
std::vector<std::uint8_t> exterior_cells(const Mesh& mesh, int layer) {
  const Grid& g = mesh.grid();
  std::vector<std::uint8_t> metal(static_cast<std::size_t>(g.nx) * static_cast<std::size_t>(g.ny));
  for (int j = 0; j < g.ny; ++j) {
    for (int i = 0; i < g.nx; ++i) {
      metal[static_cast<std::size_t>(j) * static_cast<std::size_t>(g.nx) +
            static_cast<std::size_t>(i)] = mesh.is_metal({i, j}, layer) ? 1 : 0;
    }
  }
  const Components empty = label_components(g, metal, 0);
  std::vector<std::uint8_t> touches_border(static_cast<std::size_t>(empty.count), 0);
  for (int j = 0; j < g.ny; ++j) {
    for (int i = 0; i < g.nx; ++i) {
      const int label = empty.label[static_cast<std::size_t>(j) * static_cast<std::size_t>(g.nx) +
                                    static_cast<std::size_t>(i)];
      if (label >= 0 && (i == 0 || j == 0 || i == g.nx - 1 || j == g.ny - 1)) {
        touches_border[static_cast<std::size_t>(label)] = 1;
      }
    }
  }
  std::vector<std::uint8_t> exterior(metal.size(), 0);
  for (std::size_t c = 0; c < metal.size(); ++c) {
    exterior[c] = empty.label[c] >= 0 && touches_border[static_cast<std::size_t>(empty.label[c])];
  }
  return exterior;
}

MeshPort locate(const Mesh& mesh, int index, int layer, const std::vector<std::uint8_t>& exterior) {
  const Port& port = mesh.layout().ports[static_cast<std::size_t>(index)];
  const Grid& g = mesh.grid();
  const bool x_feed = along_x(port.direction);
  // The cell's sides along the feed (h) and across it (w).
  const double h = x_feed ? g.dx_mm : g.dy_mm, w = x_feed ? g.dy_mm : g.dx_mm;
  const std::string name =
      "port '" + port.name + "' at (" + num(port.x_mm) + ", " + num(port.y_mm) + ") mm" +
      (mesh.layer_count() > 1 ? " on layer " + std::to_string(mesh.layers()[static_cast<std::size_t>(layer)])
                              : std::string());
  auto fail = [&](const std::string& what, const char* field = "") {
    throw GeometryError(what, Item::port, index, field);
  };
  const std::string off_edge = name + " is not on a metal edge (it needs metal on its " +
                               std::string(to_string(port.direction)) +
                               " side and none on the other)";

  const double along = x_feed ? port.x_mm : port.y_mm, across = x_feed ? port.y_mm : port.x_mm;
  const double along0 = x_feed ? g.x0 : g.y0, across0 = x_feed ? g.y0 : g.x0;
  const int along_n = x_feed ? g.nx : g.ny, across_n = x_feed ? g.ny : g.nx;
  const double line_steps = std::round((along - along0) / h);
  if (std::abs(along - along0 - line_steps * h) > kGridToleranceMm || line_steps < 0 ||
      line_steps > along_n) {
    fail(off_edge);
  }
  const Frame frame{port.direction, static_cast<int>(line_steps), layer};
  const auto metal = [&](Cell c) { return mesh.is_metal(c, layer); };
  const auto boundary = [&](int t) {
    return t >= 0 && t < across_n && metal(frame.cell(0, t)) && !metal(frame.cell(-1, t));
  };
  // The point may sit on a grid line between two cells: either may carry the port edge.
  const double u = (across - across0) / w;
  if (u < -1 || u > across_n + 1) fail(off_edge);  // also keeps the casts below in range
  int t0 = -1;
  for (const double candidate : {std::floor(u), std::ceil(u) - 1, std::floor(u) - 1}) {
    const int t = static_cast<int>(candidate);
    const double lo = across0 + t * w, hi = lo + w;
    if (across >= lo - kGridToleranceMm && across <= hi + kGridToleranceMm && boundary(t)) {
      t0 = t;
      break;
    }
  }
  if (t0 < 0) fail(off_edge);
  const Cell outside = frame.cell(-1, t0);
  if (g.contains(outside) &&
      !exterior[static_cast<std::size_t>(outside.j) * static_cast<std::size_t>(g.nx) +
                static_cast<std::size_t>(outside.i)]) {
    fail(name + " faces a hole in the metal, not the metal's outer edge");
  }

  MeshPort mp;
  mp.port = index;
  mp.layer = layer;
  mp.direction = port.direction;
  mp.line = frame.line;
  mp.sign = (port.direction == Direction::pos_x || port.direction == Direction::pos_y) ? 1 : -1;
  mp.first = t0;
  while (boundary(mp.first - 1)) --mp.first;
  int last = t0;
  while (boundary(last + 1)) ++last;
  mp.count = last - mp.first + 1;
  if (mp.count < 2)
    fail(name + " is on a strip one cell across (" + num(w) + " mm): its feed's line checks need "
         "two cells across or more; use a finer cell or a wider feed");
  mp.width_mm = mp.count * w;
  mp.along_mm = h;
  mp.across_mm = w;
  const double edge_along = along0 + frame.line * h;
  const double edge_across = across0 + (mp.first + 0.5 * mp.count) * w;
  mp.edge_centre = x_feed ? Point{edge_along, edge_across} : Point{edge_across, edge_along};

  const double feed_cells = std::floor((port.feed_length_mm + kGridToleranceMm) / h);
  if (feed_cells < 2) {
    fail(name + " has a " + num(port.feed_length_mm) +
         " mm feed line, shorter than two cells (" + num(2 * h) + " mm)", "feed_length_mm");
  }
  // Capped one cell beyond the grid, where the check below finds the feed off the metal anyway,
  // so that the count fits an int whatever the feed length.
  const int steps = static_cast<int>(std::min(feed_cells, along_n + 1.0));
  // The feed must be a straight strip of the port's width: its cells metal, and bare beside it
  // (else the line is not uniform and the standing-wave fit is meaningless).
  const auto leaves = [&](int s) {
    fail(name + ": its " + num(port.feed_length_mm) + " mm feed line leaves the metal " +
         num(s * h) + " mm from the port edge", "feed_length_mm");
  };
  for (int s = 0; s < steps; ++s) {
    for (int t = mp.first; t <= last; ++t)
      if (!metal(frame.cell(s, t))) leaves(s);
    if (metal(frame.cell(s, mp.first - 1)) || metal(frame.cell(s, last + 1))) {
      fail(name + ": its " + num(port.feed_length_mm) + " mm feed line is not a uniform " +
           num(mp.width_mm) + " mm strip: metal joins it " + num(s * h) +
           " mm from the port edge (shorten feed_length_mm)", "feed_length_mm");
    }
  }
  // The circuit joins the feed's end: its row of cells there is metal across the feed's whole
  // width (a wider or equal strip, a junction), and the edge there is the last sample's; or in
  // part (a narrower strip: feed_length the feed's drawn length), and the sample edges end one
  // cell before, inside the strip. A row with no metal: the strip ends there.
  int across_metal = 0;
  for (int t = mp.first; t <= last; ++t) across_metal += metal(frame.cell(steps, t));
  if (across_metal == 0) leaves(steps);
  const int samples = across_metal == mp.count ? steps : steps - 1;
  if (samples < 2) {
    fail(name + " has a " + num(port.feed_length_mm) + " mm feed line meeting narrower metal: " +
         "it needs three cells (" + num(3 * h) + " mm) for two sample edges inside it",
         "feed_length_mm");
  }
  for (int k = 1; k <= samples; ++k) {
    CrossSection section{k * h, {}};
    for (int t = mp.first; t <= last; ++t) section.basis.push_back(frame.edge(mesh, k, t));
    mp.samples.push_back(std::move(section));
  }
  return mp;
}

// An internal port: its gap line, as a lumped element's (lumped.cpp), clear of the feeds and
// the other internal ports located so far.
MeshPort locate_internal(const Mesh& mesh, int index, std::span<const MeshPort> placed) {
  const Port& port = mesh.layout().ports[static_cast<std::size_t>(index)];
  const GapLine l = locate_gap_line(
      mesh, port.x_mm, port.y_mm, port.axis,
      "internal port '" + port.name + "' at (" + num(port.x_mm) + ", " + num(port.y_mm) + ") mm",
      Item::port, index);
  if (const std::string other = gap_occupant(mesh, placed, {}, l); !other.empty())
    throw GeometryError("internal port '" + port.name + "' sits on " + other, Item::port, index);
  const Grid& g = mesh.grid();
  const bool x = port.axis == Axis::x;
  MeshPort mp;
  mp.port = index;
  mp.internal = true;
  mp.direction = x ? Direction::pos_x : Direction::pos_y;
  mp.line = l.line;
  mp.first = l.first;
  mp.count = l.count;
  mp.sign = 1;
  mp.width_mm = l.count * l.across_mm;
  mp.along_mm = l.along_mm;
  mp.across_mm = l.across_mm;
  const double edge_along = (x ? g.x0 : g.y0) + l.line * l.along_mm;
  const double edge_across = (x ? g.y0 : g.x0) + (l.first + 0.5 * l.count) * l.across_mm;
  mp.edge_centre = x ? Point{edge_along, edge_across} : Point{edge_across, edge_along};
  mp.samples.push_back(l.section);
  return mp;
}

}  // namespace

std::vector<MeshPort> locate_ports(const Mesh& mesh) {
  std::vector<std::vector<std::uint8_t>> exterior;
  for (int l = 0; l < mesh.layer_count(); ++l) exterior.push_back(exterior_cells(mesh, l));
  std::vector<MeshPort> ports;
  const auto& layout_ports = mesh.layout().ports;
  // The edge ports first: an internal port must keep off their feeds.
  for (std::size_t p = 0; p < layout_ports.size(); ++p) {
    if (layout_ports[p].kind == Port::Kind::internal) continue;
    const int interface = mesh.layout().substrate.interface_of(layout_ports[p].layer);
    const int layer = mesh.layer_index(interface);
    if (layer < 0)
      throw GeometryError("port '" + layout_ports[p].name + "' is on layer " +
                          std::to_string(interface) + ", which has no metal", Item::port,
                          static_cast<int>(p), "layer");
    MeshPort mp = locate(mesh, static_cast<int>(p), layer, exterior[static_cast<std::size_t>(layer)]);
    for (const MeshPort& other : ports) {
      if (other.direction == mp.direction && other.line == mp.line && other.first == mp.first &&
          other.layer == mp.layer) {
        throw GeometryError("ports '" + layout_ports[static_cast<std::size_t>(other.port)].name +
                            "' and '" + layout_ports[p].name + "' share one feed line end",
                            Item::port, static_cast<int>(p));
      }
    }
    ports.push_back(std::move(mp));
  }
  for (std::size_t p = 0; p < layout_ports.size(); ++p)
    if (layout_ports[p].kind == Port::Kind::internal)
      ports.push_back(locate_internal(mesh, static_cast<int>(p), ports));
  // In the layout's order.
  std::sort(ports.begin(), ports.end(),
            [](const MeshPort& a, const MeshPort& b) { return a.port < b.port; });
  return ports;
}

}  // namespace pmom::geometry::detail
