// The sweep's preconditioner: block Jacobi on geometric tiles. The basis functions are grouped
// by the square tile of cells their minus cell lies in, M is the block diagonal of Z on those
// groups, and M⁻¹ (each block inverted where Z lives, Backend::invert_blocks) is an operator on
// the backend that the COCG solver applies every iteration (Solver::set_preconditioner). A tile holds whole loops and
// the charges they move, which point Jacobi cannot see: on the RO4003 coupler at 3 GHz, every
// entry of Z kept, tiles of 8, 16 and 24 cells took COCG from 839 iterations to 270, 141 and 98
// (docs/PERFORMANCE.md v0.12). M is complex symmetric as Z is, as COCG needs.
#pragma once

#include <complex>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/gpusolver/backend.hpp"

namespace pmom::sweep {

// The largest blocks. Larger blocks cut the iterations but cost more in M⁻¹'s product (b
// entries a row) and in its inversion every frequency (~10 b² flops a function). Measured on an
// H200 with the blocks inverted on the host, blocks of at most 160 against 320: the FR-4
// example, every entry kept, 843 against 540 iterations a frequency and 13.8 against 12.1 s of
// solve over 41 frequencies; the two couplers (20% of Z) 1.3 against 3.2 s of solve; the 0.2 mm
// coupler (5%) 0.5 against 2.5 s of fill, where the inversion is counted, for 1.9 against 2.1 s
// of solve. Inverted on the device (cuBLAS's batched LU) the FR-4 example's solve is 9.0 s.
inline constexpr int kLargestDenseBlock = 320;   // every entry of Z kept, and the line checks
inline constexpr int kLargestSparseBlock = 160;  // a thresholded Z
// The exact operator (rule exact) takes the dense limit too. Its product costs the same
// whatever the blocks, but larger tiles are not reliably better: on an H100, the 0.4 mm
// coupler took 106 iterations a frequency with blocks of at most 312 functions (24-cell tiles)
// and 209 with 584 (41-cell tiles); the 0.2 mm one at 2, 3, 4 GHz 1100, 380, 240 and 410
// with 309, 590, 1276 and 2455 (15, 24, 47, 82 cells), 1.6, 0.67, 1.4 and 7.7 s a frequency
// (cuBLAS's batched LU is slow on large blocks). docs/PERFORMANCE.md v0.15.

// Groups of basis functions (each sorted, together every index once) by tiles of `tile`
// cells; tile >= 1.
[[nodiscard]] std::vector<std::vector<index_t>> tile_blocks(const geometry::Mesh& mesh, int tile);
// The largest tile whose biggest group has at most max_block functions (at least 1).
[[nodiscard]] int tile_for(const geometry::Mesh& mesh, int max_block);

class BlockJacobi {
 public:
  using cd = std::complex<double>;
  BlockJacobi(Backend<cd>& backend, std::vector<std::vector<index_t>> blocks, index_t n);

  // M⁻¹ from Z's entries: read through `entry` on the host (z(i, j)), or gathered on the
  // backend from Z's values there, at the positions in them that `position` gave (−1: not
  // stored, 0); the positions are set once per pattern. Throws std::runtime_error naming the
  // block when a block is singular, std::logic_error when no positions were set.
  void update(const std::function<cd(index_t, index_t)>& entry);
  void set_positions(const std::function<std::int64_t(index_t, index_t)>& position);
  void update_on_backend(const cd* values);

  [[nodiscard]] std::shared_ptr<const Operator<cd>> inverse() const { return op_; }
  [[nodiscard]] std::size_t blocks() const { return blocks_.size(); }
  // The functions of each block.
  [[nodiscard]] const std::vector<std::vector<index_t>>& members() const { return blocks_; }
  [[nodiscard]] std::size_t largest() const;

 private:
  // Inverts the blocks in gathered_ where they live and writes M⁻¹'s values in its CSR order.
  void invert();

  Backend<cd>& backend_;
  std::vector<std::vector<index_t>> blocks_;
  std::vector<index_t> sizes_;
  std::size_t entries_ = 0;
  std::shared_ptr<Operator<cd>> op_;
  Block<std::int64_t> device_positions_;  // set_positions: where Z's blocks are read
  Block<std::int64_t> csr_order_;         // where M's CSR values are in the blocks' order
  Block<cd> gathered_, inverted_;         // the blocks, block after block and row-major in each
};

}  // namespace pmom::sweep
