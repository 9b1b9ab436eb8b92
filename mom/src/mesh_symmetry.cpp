// The mirror symmetries of a mesh (mesh_symmetry.hpp).
#include "planarmom/mom/mesh_symmetry.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

namespace pmom::mom {

MeshMirror rooftop_mirror(const geometry::Mesh& mesh, Mirror mirror) {
  const int nx = mesh.grid().nx, ny = mesh.grid().ny;
  const bool flip_x = mirror != Mirror::y, flip_y = mirror != Mirror::x;
  // The cell bubbles by (axis, cell, layer): a bubble's image is its cell's image's bubble along
  // the same axis on the same layer, its current reversed where that axis is flipped, as a
  // rooftop's.
  std::map<std::tuple<bool, int, int, int>, int> bubble_at;
  for (std::size_t n = 0; n < mesh.basis().size(); ++n) {
    const geometry::Rooftop& r = mesh.basis()[n];
    if (r.bubble)
      bubble_at[{r.axis == geometry::Axis::x, r.minus.i, r.minus.j, r.layer}] =
          static_cast<int>(n);
  }
  MeshMirror m;
  for (const geometry::Rooftop& r : mesh.basis()) {
    const bool along_x = r.axis == geometry::Axis::x;
    const int i = r.minus.i, j = r.minus.j;
    int image = -1;
    if (r.bubble) {
      const auto found =
          bubble_at.find({along_x, flip_x ? nx - 1 - i : i, flip_y ? ny - 1 - j : j, r.layer});
      if (found != bubble_at.end()) image = found->second;
    } else {
      // The rooftop's grid line and the cell index across it, each mirrored where flipped.
      image = along_x
                  ? mesh.x_edge_basis(flip_x ? nx - (i + 1) : i + 1, flip_y ? ny - 1 - j : j,
                                      r.layer)
                  : mesh.y_edge_basis(flip_x ? nx - 1 - i : i, flip_y ? ny - (j + 1) : j + 1,
                                      r.layer);
    }
    if (image < 0) return {};
    m.image.push_back(image);
    m.sign.push_back((along_x ? flip_x : flip_y) ? -1 : 1);
  }
  return m;
}

bool LayoutMirror::keeps(std::span<const std::complex<double>> loads) const {
  if (loads.size() != gap_image.size()) return false;
  for (std::size_t g = 0; g < loads.size(); ++g)
    if (loads[g] != loads[static_cast<std::size_t>(gap_image[g])]) return false;
  return true;
}

namespace {

// The mirror of every unknown, or none where a via cell or a loaded gap has no image.
std::optional<LayoutMirror> mirror_of(const geometry::Mesh& mesh, Mirror mirror) {
  LayoutMirror out{mirror, rooftop_mirror(mesh, mirror), {}};
  if (out.unknowns.image.empty()) return std::nullopt;
  const int nx = mesh.grid().nx, ny = mesh.grid().ny;
  std::map<std::pair<int, int>, int> via_unknown;  // cell (i, j) → its unknown
  int next = static_cast<int>(mesh.basis().size());
  for (const geometry::MeshVia& v : mesh.vias())
    for (const geometry::Cell& c : v.cells) via_unknown[{c.i, c.j}] = next++;
  for (const geometry::MeshVia& v : mesh.vias())
    for (const geometry::Cell& c : v.cells) {
      const auto image = via_unknown.find({mirror == Mirror::y ? c.i : nx - 1 - c.i,
                                           mirror == Mirror::x ? c.j : ny - 1 - c.j});
      if (image == via_unknown.end()) return std::nullopt;
      out.unknowns.image.push_back(image->second);
      out.unknowns.sign.push_back(1);
    }
  const std::vector<geometry::LoadedGap> gaps = mesh.loaded_gaps();
  std::map<std::vector<int>, int> gap_of;  // a gap's rooftops, sorted → the gap
  for (std::size_t g = 0; g < gaps.size(); ++g) {
    std::vector<int> set = *gaps[g].basis;
    std::sort(set.begin(), set.end());
    gap_of[set] = static_cast<int>(g);
  }
  for (const geometry::LoadedGap& gap : gaps) {
    std::vector<int> set;
    for (const int m : *gap.basis) set.push_back(out.unknowns.image[static_cast<std::size_t>(m)]);
    std::sort(set.begin(), set.end());
    const auto image = gap_of.find(set);
    if (image == gap_of.end()) return std::nullopt;
    out.gap_image.push_back(image->second);
  }
  return out;
}

}  // namespace

std::vector<LayoutMirror> layout_mirrors(const geometry::Mesh& mesh) {
  std::vector<LayoutMirror> found;
  for (const Mirror m : {Mirror::x, Mirror::y})
    if (std::optional<LayoutMirror> mirror = mirror_of(mesh, m))
      found.push_back(std::move(*mirror));
  if (found.empty())
    if (std::optional<LayoutMirror> turn = mirror_of(mesh, Mirror::half_turn))
      found.push_back(std::move(*turn));
  return found;
}

const char* name(Mirror mirror) {
  switch (mirror) {
    case Mirror::x: return "the mirror x -> W - x";
    case Mirror::y: return "the mirror y -> H - y";
    case Mirror::half_turn: return "the half turn";
  }
  return "";
}

}  // namespace pmom::mom
