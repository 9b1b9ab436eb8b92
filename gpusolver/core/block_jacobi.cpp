// BlockJacobi (preconditioners/block_jacobi.hpp).
#include "planarmom/gpusolver/preconditioners/block_jacobi.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace pmom {
namespace {

// f(i, j) for every entry of every block, block after block and row-major in each: the order
// of the entries update and set_positions read and invert expects.
template <class F>
auto in_block_order(const std::vector<std::vector<index_t>>& blocks, std::size_t entries, F f) {
  std::vector<decltype(f(index_t{0}, index_t{0}))> out;
  out.reserve(entries);
  for (const auto& b : blocks)
    for (const index_t i : b)
      for (const index_t j : b) out.push_back(f(i, j));
  return out;
}

}  // namespace

BlockJacobi::BlockJacobi(Backend<cd>& backend, std::vector<std::vector<index_t>> blocks,
                         index_t n)
    : backend_(backend), blocks_(std::move(blocks)) {
  // M's pattern: row i holds the columns of its block, sorted.
  std::vector<index_t> block_of(static_cast<std::size_t>(n), -1), rank(static_cast<std::size_t>(n));
  for (std::size_t b = 0; b < blocks_.size(); ++b)
    for (std::size_t k = 0; k < blocks_[b].size(); ++k) {
      const auto i = static_cast<std::size_t>(blocks_[b][k]);
      if (i >= block_of.size() || block_of[i] >= 0)
        throw std::invalid_argument("BlockJacobi: the blocks must hold every index below n once");
      block_of[i] = static_cast<index_t>(b);
      rank[i] = static_cast<index_t>(k);
    }
  if (std::count(block_of.begin(), block_of.end(), -1) > 0)
    throw std::invalid_argument("BlockJacobi: the blocks must hold every index below n once");
  Csr<cd> m;
  m.rows = m.cols = n;
  m.row_ptr.assign(1, 0);
  for (index_t i = 0; i < n; ++i) {
    const auto& b = blocks_[static_cast<std::size_t>(block_of[static_cast<std::size_t>(i)])];
    m.col_idx.insert(m.col_idx.end(), b.begin(), b.end());
    m.row_ptr.push_back(static_cast<index_t>(m.col_idx.size()));
  }
  m.values.assign(m.col_idx.size(), cd(0.0));
  entries_ = m.col_idx.size();
  // Where M's CSR values come from in the blocks' order: row i's entries of block b.
  std::vector<std::int64_t> from(entries_);
  std::size_t e = 0;
  for (const auto& b : blocks_) {
    sizes_.push_back(static_cast<index_t>(b.size()));
    for (const index_t i : b)
      for (std::size_t c = 0; c < b.size(); ++c)
        from[static_cast<std::size_t>(m.row_ptr[static_cast<std::size_t>(i)]) + c] =
            static_cast<std::int64_t>(e++);
  }
  csr_order_ = backend_.allocate<std::int64_t>(static_cast<index_t>(entries_), 1);
  backend_.upload<std::int64_t>(from, csr_order_);
  gathered_ = backend_.allocate<cd>(static_cast<index_t>(entries_), 1);
  inverted_ = backend_.allocate<cd>(static_cast<index_t>(entries_), 1);
  OperatorOptions o;
  o.format = Format::csr;
  o.need_adjoint = false;
  op_ = backend_.make_operator(m, o);
}

std::size_t BlockJacobi::largest() const {
  std::size_t most = 0;
  for (const auto& b : blocks_) most = std::max(most, b.size());
  return most;
}

void BlockJacobi::update(const std::function<cd(index_t, index_t)>& entry) {
  backend_.upload<cd>(in_block_order(blocks_, entries_, entry), gathered_);
  invert();
}

void BlockJacobi::set_positions(const std::function<std::int64_t(index_t, index_t)>& position) {
  const std::vector<std::int64_t> at = in_block_order(blocks_, entries_, position);
  device_positions_ = backend_.allocate<std::int64_t>(static_cast<index_t>(at.size()), 1);
  backend_.upload<std::int64_t>(at, device_positions_);
}

void BlockJacobi::update_on_backend(const cd* values) {
  if (device_positions_.size() != entries_)
    throw std::logic_error("BlockJacobi: update_on_backend before set_positions");
  backend_.gather(values, device_positions_, gathered_);
  invert();
}

void BlockJacobi::invert() {
  const long long singular = backend_.invert_blocks(gathered_, sizes_);
  if (singular >= 0)
    throw std::runtime_error("block preconditioner: diagonal block " + std::to_string(singular) +
                             " of the matrix is singular");
  backend_.gather(gathered_.data(), csr_order_, inverted_);
  backend_.copy_bytes(backend_.csr_values(*op_), inverted_.data(), inverted_.bytes(),
                      CopyKind::within_backend);
}

}  // namespace pmom
