// Lumped elements on the mesh: the grid line each sits on and the rooftops it loads, and the
// mesh's loaded cross-sections (ports' gaps and elements) in the order of their loads.
#include <algorithm>
#include <cmath>
#include <string>

#include "format.hpp"
#include "mesh_detail.hpp"
#include "planarmom/geometry/cell_size.hpp"
#include "planarmom/geometry/error.hpp"

namespace pmom::geometry {

std::vector<LoadedGap> Mesh::loaded_gaps() const {
  std::vector<LoadedGap> gaps;
  for (const MeshPort& p : ports_) gaps.push_back({&p.delta_gap().basis, p.across_mm});
  for (const MeshLumped& l : lumped_) gaps.push_back({&l.section.basis, l.across_mm});
  return gaps;
}

namespace detail {
namespace {

MeshLumped locate(const Mesh& mesh, int index) {
  const LumpedElement& e = mesh.layout().lumped[static_cast<std::size_t>(index)];
  const Grid& g = mesh.grid();
  const bool x = e.along_x;
  const std::string name = "lumped element '" + e.name + "' at (" + num(e.x_mm) + ", " +
                           num(e.y_mm) + ") mm";
  auto fail = [&](const std::string& what) { throw GeometryError(what, Item::lumped, index); };
  const std::string outside =
      name + " is not inside the metal: it needs metal on both sides of its grid line there";
  // Along its current: the grid line; across: the row (axis x) or column (axis y) of the point.
  const double along = x ? e.x_mm : e.y_mm, across = x ? e.y_mm : e.x_mm;
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
  MeshLumped l;
  l.element = index;
  l.axis = x ? Axis::x : Axis::y;
  l.line = line;
  l.first = t0;
  while (rooftop(l.first - 1) >= 0) --l.first;
  int last = t0;
  while (rooftop(last + 1) >= 0) ++last;
  l.count = last - l.first + 1;
  l.across_mm = w;
  for (int t = l.first; t <= last; ++t) l.section.basis.push_back(rooftop(t));
  return l;
}

// The name of what else loads or samples rooftop m (a port's feed, another element), or "".
std::string occupant(const Mesh& mesh, const std::vector<MeshLumped>& placed, int m) {
  for (const MeshPort& p : mesh.ports())
    for (const CrossSection& s : p.samples)
      if (std::find(s.basis.begin(), s.basis.end(), m) != s.basis.end())
        return "port '" + mesh.layout().ports[static_cast<std::size_t>(p.port)].name +
               "''s feed line (its gap and the de-embedding's samples): move the element "
               "past the feed's end or shorten feed_length_mm";
  for (const MeshLumped& l : placed)
    if (std::find(l.section.basis.begin(), l.section.basis.end(), m) != l.section.basis.end())
      return "lumped element '" +
             mesh.layout().lumped[static_cast<std::size_t>(l.element)].name + "'";
  return {};
}

}  // namespace

std::vector<MeshLumped> locate_lumped(const Mesh& mesh) {
  std::vector<MeshLumped> placed;
  const auto& elements = mesh.layout().lumped;
  for (std::size_t e = 0; e < elements.size(); ++e) {
    MeshLumped l = locate(mesh, static_cast<int>(e));
    for (const int m : l.section.basis)
      if (const std::string other = occupant(mesh, placed, m); !other.empty())
        throw GeometryError("lumped element '" + elements[e].name + "' sits on " + other,
                            Item::lumped, static_cast<int>(e));
    placed.push_back(std::move(l));
  }
  return placed;
}

}  // namespace detail
}  // namespace pmom::geometry
