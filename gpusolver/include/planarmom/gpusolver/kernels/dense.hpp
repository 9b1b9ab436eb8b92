// Dense factorizations on a backend, where the matrix lives: a square matrix's LU as an
// operator (its inverse) or solved in place, a batch of small blocks inverted, and the folding
// of a mirror-symmetric matrix onto one parity of its unknowns before its LU.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include "planarmom/gpusolver/block.hpp"
#include "planarmom/gpusolver/operator.hpp"

namespace pmom {

// The precision in which DenseKernels::make_dense_inverse keeps a matrix's factors: the
// matrix's own, or single (see there).
enum class FactorPrecision { working, single };

template <class T> class DenseKernels {
 public:
  virtual ~DenseKernels() = default;

  // Square blocks stored one after another in `blocks`, block b row-major in sizes[b]²
  // entries, each replaced by its inverse where it lives (block Jacobi inverts a matrix's
  // diagonal blocks so, preconditioners/block_jacobi.hpp). Returns the index of the first block
  // found singular, −1 when none was; then the blocks' contents are unspecified.
  virtual long long invert_blocks(Block<T>& blocks, std::span<const index_t> sizes) = 0;
  // A⁻¹ of the n x n matrix in `a` (backend memory, column-major: a row-major symmetric matrix
  // reads the same) as a FunctionOperator on this backend, y = alpha A⁻¹ x + beta y, for
  // Solver::set_preconditioner: A is LU-factored with partial pivoting where it lives, taking
  // a's storage over (the CUDA backend multiplies by the explicit inverse, which a matrix
  // product applies faster than two triangular solves; the host substitutes). An LU at one
  // system preconditions its neighbours (preconditioners/recycled_lu.hpp). With
  // FactorPrecision::single the host factors and substitutes in single precision (A rounded to
  // it: A⁻¹ to ~1e-7 κ(A), which a preconditioner can take; the LU and the substitutions cost
  // half); the CUDA backend, whose double LU is cheap, keeps A's precision either way. Throws
  // std::invalid_argument for a block that is not square, std::runtime_error naming the pivot
  // when A is singular.
  virtual std::shared_ptr<const Operator<T>> make_dense_inverse(Block<T> a,
                                                                FactorPrecision precision) = 0;
  std::shared_ptr<const Operator<T>> make_dense_inverse(Block<T> a) {
    return make_dense_inverse(std::move(a), FactorPrecision::working);
  }
  // b = A⁻¹ b for the n x n matrix in `a` (as make_dense_inverse takes it) and the columns of
  // b: one LU with partial pivoting where A lives, taking a's storage over, and the
  // substitutions, no inverse (for a few right-hand sides solved once). Throws as
  // make_dense_inverse, and std::invalid_argument when b has not n rows.
  virtual void solve_dense(Block<T> a, Block<T>& b) = 0;
  // out (k x k, column-major) = a at the kept rows and columns, each column p plus weight[p]
  // times a's column partner[p] at the same rows: out(q, p) = a(kept[q], kept[p]) + weight[p]
  // a(kept[q], partner[p]), the second term left out where partner[p] < 0 (a: n x n,
  // column-major, in backend memory; kept, partner and weight k x 1 there). How a matrix that
  // commutes with a mirror is folded onto one parity of its unknowns, half their number, so
  // that its LU is made in two halves. Throws std::invalid_argument for sizes that disagree.
  virtual void fold_dense(const Block<T>& a, const Block<index_t>& kept,
                          const Block<index_t>& partner, const Block<real_t<T>>& weight,
                          Block<T>& out) = 0;
  // out (out_rows x columns, column-major) = alpha (c1[r] x[i1[r]] + c2[r] x[i2[r]]) + beta out
  // per column, a term left out where its index is < 0 (x: x_rows x columns; i1, c1, i2, c2
  // out_rows x 1; all in backend memory, queued on the backend's stream; out unread where beta
  // is 0). How vectors are folded onto a mirror's parity and spread back
  // (preconditioners/folded_inverse.hpp).
  virtual void combine_rows(const T* x, index_t x_rows, const Block<index_t>& i1,
                            const Block<real_t<T>>& c1, const Block<index_t>& i2,
                            const Block<real_t<T>>& c2, T* out, index_t columns, T alpha,
                            T beta) = 0;

 protected:
  // What every invert_blocks checks: positive sizes whose squares add up to the blocks' entries.
  static void check_blocks_input(const Block<T>& blocks, std::span<const index_t> sizes) {
    std::size_t entries = 0;
    for (const index_t k : sizes) {
      if (k < 1) throw std::invalid_argument("invert_blocks: a block of size " + std::to_string(k));
      entries += static_cast<std::size_t>(k) * static_cast<std::size_t>(k);
    }
    if (entries != blocks.size())
      throw std::invalid_argument("invert_blocks: " + std::to_string(sizes.size()) +
                                  " blocks of " + std::to_string(entries) + " entries in all, " +
                                  std::to_string(blocks.size()) + " given");
  }
  // What every make_dense_inverse and solve_dense checks: a square matrix of at least one row
  // (and right-hand sides of its rows).
  static void check_dense_input(const Block<T>& a, const Block<T>* b = nullptr) {
    if (a.rows() < 1 || a.rows() != a.cols())
      throw std::invalid_argument(std::string(b ? "solve_dense" : "make_dense_inverse") +
                                  ": a square matrix, got " + std::to_string(a.rows()) + " x " +
                                  std::to_string(a.cols()));
    if (b && b->rows() != a.rows())
      throw std::invalid_argument("solve_dense: the right-hand sides have " +
                                  std::to_string(b->rows()) + " rows, the matrix " +
                                  std::to_string(a.rows()));
  }
  // What every fold_dense checks: a square, kept, partner and weight single columns of out's
  // size, out square. (The indices' range is the caller's: they are in backend memory.)
  static void check_fold_input(const Block<T>& a, const Block<index_t>& kept,
                               const Block<index_t>& partner, const Block<real_t<T>>& weight,
                               const Block<T>& out) {
    const index_t k = out.rows();
    if (a.rows() != a.cols() || out.cols() != k || kept.rows() != k || partner.rows() != k ||
        weight.rows() != k || kept.cols() != 1 || partner.cols() != 1 || weight.cols() != 1 ||
        k > a.rows())
      throw std::invalid_argument(
          "fold_dense: a square matrix and k x k out with k kept rows, partners and weights (k "
          "at most the matrix's rows), got a " + std::to_string(a.rows()) + " x " +
          std::to_string(a.cols()) + ", out " + std::to_string(out.rows()) + " x " +
          std::to_string(out.cols()) + ", " + std::to_string(kept.size()) + " kept, " +
          std::to_string(partner.size()) + " partners, " + std::to_string(weight.size()) +
          " weights");
  }
};

}  // namespace pmom
