// A rows x cols column-major array living in one backend's memory (host for the reference
// backend, device for CUDA). Column k holds right-hand side k of a multi-RHS solve; a 1 x k
// block holds one scalar per right-hand side. Host code must not dereference data() unless
// the owning backend says its memory is host memory.
#pragma once

#include <memory>

#include "planarmom/gpusolver/scalar.hpp"

namespace pmom {

template <class U> class Block {
 public:
  Block() = default;
  Block(std::shared_ptr<void> storage, index_t rows, index_t cols)
      : storage_(std::move(storage)), rows_(rows), cols_(cols) {}

  [[nodiscard]] U* data() { return static_cast<U*>(storage_.get()); }
  [[nodiscard]] const U* data() const { return static_cast<const U*>(storage_.get()); }
  [[nodiscard]] U* column(index_t k) { return data() + static_cast<std::size_t>(k) * rows_; }
  [[nodiscard]] const U* column(index_t k) const {
    return data() + static_cast<std::size_t>(k) * rows_;
  }
  [[nodiscard]] index_t rows() const { return rows_; }
  [[nodiscard]] index_t cols() const { return cols_; }
  [[nodiscard]] std::size_t size() const { return static_cast<std::size_t>(rows_) * cols_; }
  [[nodiscard]] std::size_t bytes() const { return size() * sizeof(U); }

  friend void swap(Block& a, Block& b) noexcept {
    std::swap(a.storage_, b.storage_);
    std::swap(a.rows_, b.rows_);
    std::swap(a.cols_, b.cols_);
  }

 private:
  std::shared_ptr<void> storage_;
  index_t rows_ = 0;
  index_t cols_ = 0;
};

}  // namespace pmom
