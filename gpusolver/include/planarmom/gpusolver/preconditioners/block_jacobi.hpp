// Block Jacobi: M is the block diagonal of A on groups of unknowns the caller chooses, and M⁻¹
// (each block inverted where A lives, DenseKernels::invert_blocks) an operator on the backend
// for Solver::set_preconditioner. Blocks couple what point Jacobi cannot see; M is complex
// symmetric where A is, as COCG needs.
#pragma once

#include <complex>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "planarmom/gpusolver/backend.hpp"

namespace pmom {

class BlockJacobi {
 public:
  using cd = std::complex<double>;
  // `blocks`: the groups, each sorted, together every index below n once.
  BlockJacobi(Backend<cd>& backend, std::vector<std::vector<index_t>> blocks, index_t n);

  // M⁻¹ from A's entries: read through `entry` on the host (a(i, j)), or gathered on the
  // backend from A's values there, at the positions in them that `position` gave (−1: not
  // stored, 0); the positions are set once per pattern. Throws std::runtime_error naming the
  // block when a block is singular, std::logic_error when no positions were set.
  void update(const std::function<cd(index_t, index_t)>& entry);
  void set_positions(const std::function<std::int64_t(index_t, index_t)>& position);
  void update_on_backend(const cd* values);

  [[nodiscard]] std::shared_ptr<const Operator<cd>> inverse() const { return op_; }
  [[nodiscard]] std::size_t blocks() const { return blocks_.size(); }
  // The unknowns of each block.
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
  Block<std::int64_t> device_positions_;  // set_positions: where A's blocks are read
  Block<std::int64_t> csr_order_;         // where M's CSR values are in the blocks' order
  Block<cd> gathered_, inverted_;         // the blocks, block after block and row-major in each
};

}  // namespace pmom
