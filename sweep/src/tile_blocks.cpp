// The sweep's block Jacobi groups by tiles of the mesh (tile_blocks.hpp).
#include "planarmom/sweep/tile_blocks.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

namespace pmom::sweep {

std::vector<std::vector<index_t>> tile_blocks(const geometry::Mesh& mesh, int tile) {
  if (tile < 1) throw std::invalid_argument("tile_blocks: the tile must be at least 1 cell");
  std::map<std::pair<int, int>, std::vector<index_t>> tiles;
  const auto& basis = mesh.basis();
  for (std::size_t k = 0; k < basis.size(); ++k)
    tiles[{basis[k].minus.j / tile, basis[k].minus.i / tile}].push_back(static_cast<index_t>(k));
  // A via cell's unknown with the functions around its cell (they follow the basis: sorted).
  auto via = static_cast<index_t>(basis.size());
  for (const geometry::MeshVia& v : mesh.vias())
    for (const geometry::Cell& c : v.cells) tiles[{c.j / tile, c.i / tile}].push_back(via++);
  std::vector<std::vector<index_t>> out;
  out.reserve(tiles.size());
  for (auto& [where, members] : tiles) out.push_back(std::move(members));  // sorted: k grows
  return out;
}

int tile_for(const geometry::Mesh& mesh, int max_block) {
  const int most = std::max(mesh.grid().nx, mesh.grid().ny);
  int best = 1;
  for (int tile = 2; tile <= most; ++tile) {
    std::size_t biggest = 0;
    for (const auto& b : tile_blocks(mesh, tile)) biggest = std::max(biggest, b.size());
    if (biggest > static_cast<std::size_t>(max_block)) break;
    best = tile;
  }
  return best;
}

}  // namespace pmom::sweep
