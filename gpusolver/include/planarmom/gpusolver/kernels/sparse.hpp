// Sparse products on a backend: operators built in its memory from a CSR (or over a CSR that
// lives there already), their products y = alpha op(A) x + beta y, and reads of a matrix's
// entries there.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>

#include "planarmom/gpusolver/block.hpp"
#include "planarmom/gpusolver/csr.hpp"
#include "planarmom/gpusolver/operator.hpp"

namespace pmom {

template <class T> class SparseKernels {
 public:
  virtual ~SparseKernels() = default;

  virtual std::unique_ptr<Operator<T>> make_operator(const Csr<T>& a,
                                                     const OperatorOptions& options) = 0;
  // An operator in Format::csr (options.format must be csr; no stored adjoint: BiCG needs
  // AdjointMode::transposed_kernel) over a CSR matrix a producer built in backend memory (the
  // GPU thresholding): row_ptr rows + 1, col_idx and values nnz, columns sorted in each row.
  // The blocks are shared, not copied.
  virtual std::unique_ptr<Operator<T>> make_csr_operator(index_t cols, Block<index_t> row_ptr,
                                                         Block<index_t> col_idx,
                                                         Block<T> values,
                                                         const OperatorOptions& options) = 0;
  // The values of an operator built in Format::csr without a stored adjoint, in backend
  // memory, in the order of the matrix it was built from: a producer on the backend (the GPU
  // fill) rewrites them in place between solves, keeping the pattern. Throws std::logic_error
  // for any other operator.
  virtual T* csr_values(Operator<T>& a) = 0;
  // out (n x 1) = 1/a_ii of the CSR operator's current values, 1 where a_ii is 0 or not stored
  // (the Jacobi preconditioner of a matrix that lives on the backend). Throws as csr_values.
  virtual void inverse_diagonal(const Operator<T>& a, Block<T>& out) = 0;
  // out[k] = values[positions[k]] (0 where positions[k] < 0), all in backend memory: entries
  // of a matrix that lives on the backend read back in a chosen order (block Jacobi reads the
  // diagonal blocks so, preconditioners/block_jacobi.hpp).
  virtual void gather(const T* values, const Block<std::int64_t>& positions, Block<T>& out) = 0;
  // y = alpha op(A) x + beta y, column by column of the blocks.
  virtual void spmv(const Operator<T>& a, Transpose op, const Block<T>& x, Block<T>& y,
                    T alpha = T(1), T beta = T(0)) = 0;

 protected:
  // What every make_csr_operator checks: one column each, rows + 1 >= 1 row pointers, as many
  // column indices as values, CSR format, no stored adjoint.
  static void check_csr_operator_input(const Block<index_t>& row_ptr,
                                       const Block<index_t>& col_idx, const Block<T>& values,
                                       const OperatorOptions& options) {
    if (row_ptr.cols() != 1 || col_idx.cols() != 1 || values.cols() != 1 || row_ptr.rows() < 1 ||
        col_idx.rows() != values.rows())
      throw std::invalid_argument("make_csr_operator: row_ptr (rows + 1), col_idx and values "
                                  "(nnz each) must be single columns");
    if (options.format != Format::csr ||
        (options.need_adjoint && options.adjoint == AdjointMode::stored))
      throw std::invalid_argument("make_csr_operator: CSR format without a stored adjoint only");
  }
};

}  // namespace pmom
