// Gaps across a strip on one grid line (lumped elements, internal ports): the rooftops each
// loads and what they must not sit on; the mesh's loaded cross-sections (ports' gaps and
// elements) in the order of their loads.
#include <algorithm>
#include <cmath>
#include <span>
#include <string>

#include "format.hpp"
#include "mesh_detail.hpp"
#include "planarmom/geometry/cell_size.hpp"
#include "planarmom/geometry/error.hpp"

namespace pmom::geometry {

std::vector<LoadedGap> Mesh::loaded_gaps() const {
  std::vector<LoadedGap> gaps;
  for (const MeshPort& p : ports_)
    gaps.push_back({&p.delta_gap().basis, p.across_mm,
                    "port '" + layout_.ports[static_cast<std::size_t>(p.port)].name + "'"});
  for (const MeshLumped& l : lumped_)
    gaps.push_back({&l.section.basis, l.across_mm,
                    "lumped element '" +
                        layout_.lumped[static_cast<std::size_t>(l.element)].name + "'"});
  return gaps;
}

GapStrips Mesh::gap_strips() const {
  GapStrips g;
  const auto index_of = [&g](const StripKey& key) {
    const auto at = std::find(g.keys.begin(), g.keys.end(), key);
    if (at != g.keys.end()) return static_cast<int>(at - g.keys.begin());
    g.keys.push_back(key);
    return static_cast<int>(g.keys.size()) - 1;
  };
  for (const MeshLumped& l : lumped_) g.of_element.push_back(index_of(l.strip_key()));
  for (const MeshPort& p : ports_) g.of_port.push_back(p.internal ? index_of(p.line_key()) : -1);
  return g;
}

namespace detail {

GapLine locate_gap_line(const Mesh& mesh, double x_mm, double y_mm, Axis axis,
                        const std::string& name, Item item, int index) {
  const Grid& g = mesh.grid();
  const bool x = axis == Axis::x;
  auto fail = [&](const std::string& what) { throw GeometryError(what, item, index); };
  const std::string outside =
      name + " is not inside the metal: it needs metal on both sides of its grid line there";
  // Along its current: the grid line; across: the row (axis x) or column (axis y) of the point.
  const double along = x ? x_mm : y_mm, across = x ? y_mm : x_mm;
  const double along0 = x ? g.x0 : g.y0, across0 = x ? g.y0 : g.x0;
  const double h = x ? g.dx_mm : g.dy_mm, w = x ? g.dy_mm : g.dx_mm;
  const int across_n = x ? g.ny : g.nx;
  const double steps = std::round((along - along0) / h);
  if (std::abs(along - along0 - steps * h) > kGridToleranceMm)
    fail(name + ": its " + (x ? "x" : "y") + " is not on a grid line of the " + num(h) +
         " mm cells (it sits on one, across the strip its current runs along " +
         (x ? "x" : "y") + ")");
  if (!(steps >= 0) || steps > (x ? g.nx : g.ny)) fail(outside);
  const int line = static_cast<int>(steps);
  const auto rooftop = [&](int t) {
    return x ? mesh.x_edge_basis(line, t) : mesh.y_edge_basis(t, line);
  };
  const double u = (across - across0) / w;
  if (u < -1 || u > across_n + 1) fail(outside);
  int t0 = -1;
  for (const double candidate : {std::floor(u), std::ceil(u) - 1}) {
    const int t = static_cast<int>(candidate);
    if (rooftop(t) >= 0) {
      t0 = t;
      break;
    }
  }
  if (t0 < 0) fail(outside);
  GapLine l;
  l.axis = axis;
  l.line = line;
  l.first = t0;
  while (rooftop(l.first - 1) >= 0) --l.first;
  int last = t0;
  while (rooftop(last + 1) >= 0) ++last;
  l.count = last - l.first + 1;
  if (l.count < 2)
    fail(name + " sits across a strip of one cell (" + num(w) + " mm): its gap is measured on a "
         "line of two cells across or more; use a finer cell or a wider strip there");
  l.along_mm = h;
  l.across_mm = w;
  for (int t = l.first; t <= last; ++t) l.section.basis.push_back(rooftop(t));
  return l;
}

Box feed_box(const Mesh& mesh, const MeshPort& p) {
  const Grid& g = mesh.grid();
  const bool x = p.direction == Direction::pos_x || p.direction == Direction::neg_x;
  const double edge = x ? g.x0 + p.line * g.dx_mm : g.y0 + p.line * g.dy_mm;
  const double end = edge + p.sign * static_cast<double>(p.samples.size() + 1) * p.along_mm;
  const double a0 = (x ? g.y0 : g.x0) + p.first * p.across_mm, a1 = a0 + p.count * p.across_mm;
  const double lo = std::min(edge, end), hi = std::max(edge, end);
  return x ? Box{lo, hi, a0, a1} : Box{a0, a1, lo, hi};
}

std::string feed_line_text(const Mesh& mesh, const MeshPort& p) {
  return "port '" + mesh.layout().ports[static_cast<std::size_t>(p.port)].name +
         "''s feed line (its gap and the de-embedding's samples): move it past the feed's end "
         "or shorten feed_length_mm";
}

namespace {

bool shares_rooftops(const CrossSection& a, const CrossSection& b) {
  return std::find_first_of(a.basis.begin(), a.basis.end(), b.basis.begin(), b.basis.end()) !=
         a.basis.end();
}

}  // namespace

std::string gap_occupant(const Mesh& mesh, std::span<const MeshPort> ports,
                         std::span<const MeshLumped> lumped, const GapLine& l) {
  const Grid& g = mesh.grid();
  const bool x = l.axis == Axis::x;
  const double at = x ? g.x0 + l.line * g.dx_mm : g.y0 + l.line * g.dy_mm;
  const double from = (x ? g.y0 : g.x0) + l.first * l.across_mm;
  const double to = from + l.count * l.across_mm;
  const double t = kGridToleranceMm;
  for (const MeshPort& p : ports) {
    const std::string name =
        "port '" + mesh.layout().ports[static_cast<std::size_t>(p.port)].name + "'";
    if (p.internal) {
      if (shares_rooftops(p.delta_gap(), l.section)) return name;
      continue;
    }
    const Box b = feed_box(mesh, p);
    const bool crosses = x ? at > b.x0 + t && at < b.x1 - t && to > b.y0 + t && from < b.y1 - t
                           : at > b.y0 + t && at < b.y1 - t && to > b.x0 + t && from < b.x1 - t;
    if (crosses) return feed_line_text(mesh, p);
  }
  for (const MeshLumped& other : lumped)
    if (shares_rooftops(other.section, l.section))
      return "lumped element '" +
             mesh.layout().lumped[static_cast<std::size_t>(other.element)].name + "'";
  return {};
}

std::vector<MeshLumped> locate_lumped(const Mesh& mesh) {
  std::vector<MeshLumped> placed;
  const auto& elements = mesh.layout().lumped;
  for (std::size_t e = 0; e < elements.size(); ++e) {
    const LumpedElement& element = elements[e];
    const int index = static_cast<int>(e);
    MeshLumped l{locate_gap_line(mesh, element.x_mm, element.y_mm, element.axis,
                                 "lumped element '" + element.name + "' at (" +
                                     num(element.x_mm) + ", " + num(element.y_mm) + ") mm",
                                 Item::lumped, index),
                 index};
    if (const std::string other = gap_occupant(mesh, mesh.ports(), placed, l); !other.empty())
      throw GeometryError("lumped element '" + element.name + "' sits on " + other,
                          Item::lumped, index);
    placed.push_back(std::move(l));
  }
  return placed;
}

}  // namespace detail
}  // namespace pmom::geometry
