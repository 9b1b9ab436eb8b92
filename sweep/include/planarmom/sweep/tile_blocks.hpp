// The groups of the sweep's block Jacobi (gpusolver's preconditioners/block_jacobi.hpp): the
// basis functions by the square tile of cells their minus cell lies in, a via cell's unknown by
// its cell's. A tile holds whole
// loops and the charges they move, which point Jacobi cannot see: on the coupler's Z it cuts
// COCG's iterations several times over (docs/PERFORMANCE.md, block Jacobi on geometric tiles).
#pragma once

#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/gpusolver/scalar.hpp"

namespace pmom::sweep {

// The largest blocks. Larger blocks cut the iterations but cost more in M⁻¹'s product (b
// entries a row) and in its inversion every frequency (~10 b² flops a function): they pay
// where Z is dense and large, smaller ones where it is thresholded (docs/PERFORMANCE.md).
inline constexpr int kLargestDenseBlock = 320;   // every entry of Z kept, and the line checks
inline constexpr int kLargestSparseBlock = 160;  // a thresholded Z
// The exact operator (rule exact) takes the dense limit too. Its product costs the same
// whatever the blocks, but larger tiles are not reliably better (cuBLAS's batched LU is slow
// on large blocks; docs/PERFORMANCE.md).

// Groups of the mesh's unknowns (each sorted, together every index once) by tiles of `tile`
// cells; tile >= 1.
[[nodiscard]] std::vector<std::vector<index_t>> tile_blocks(const geometry::Mesh& mesh, int tile);
// The largest tile whose biggest group has at most max_block functions (at least 1).
[[nodiscard]] int tile_for(const geometry::Mesh& mesh, int max_block);

}  // namespace pmom::sweep
