// The operators a backend multiplies by: stored sparse matrices in one of the storage formats,
// which a backend builds from a CSR (SparseKernels::make_operator), and matrix-free ones given
// by their product (FunctionOperator), with the options that choose how Aᴴ is done.
#pragma once

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "planarmom/gpusolver/dia.hpp"
#include "planarmom/gpusolver/scalar.hpp"
#include "planarmom/gpusolver/sellp.hpp"

namespace pmom {

// function: a matrix-free operator (FunctionOperator), not a storage format: not in
// all_formats, and no operator is made from a CSR in it.
enum class Format { csr, hyb, ellr, sellp, dia, function };
inline constexpr Format all_formats[] = {Format::csr, Format::hyb, Format::ellr, Format::sellp,
                                         Format::dia};
// "csr", "hyb", "ellr", "sellp", "dia"; parse_format throws std::invalid_argument naming them.
std::string to_string(Format f);
Format parse_format(const std::string& name);

enum class Transpose { none, conj_trans };

// How the Aᴴ product is done: a stored conjugate transpose, or a transposed kernel on A.
enum class AdjointMode { stored, transposed_kernel };

struct OperatorOptions {
  Format format = Format::csr;
  AdjointMode adjoint = AdjointMode::stored;
  bool need_adjoint = true;  // false lets a backend skip building Aᴴ (COCG, BiCGSTAB, CG)
  SellpOptions sellp;        // Format::sellp only
  DiaOptions dia;            // Format::dia only
};

template <class T> class Operator {
 public:
  virtual ~Operator() = default;
  [[nodiscard]] virtual index_t rows() const = 0;
  [[nodiscard]] virtual index_t cols() const = 0;
  [[nodiscard]] virtual std::size_t nnz() const = 0;
  [[nodiscard]] virtual Format format() const = 0;
};

// A matrix-free square operator: apply(x, y, k, alpha, beta, stream) sets the n x k
// column-major block y to alpha A x + beta y (y's old values unread when beta is 0), x and y
// in the memory of the backend that multiplies it: the host for the reference backend, the
// device for CUDA, which passes its cudaStream_t as `stream` (the work is queued on it, may be
// captured into a CUDA graph, and must not synchronise); null on the host. Its diagonal (host
// memory) serves Jacobi preconditioning; an operator given without one (a preconditioner's
// M⁻¹, DenseKernels::make_dense_inverse) cannot be. `work` is what one product costs in
// multiply-adds (reported as nnz). `adjoint`, where given, is the same for Aᴴ (BiCG's second
// product; for a complex symmetric A, Aᴴx = conj(A conj(x)): host_symmetric_adjoint); without
// it spmv refuses Transpose::conj_trans.
template <class T> class FunctionOperator final : public Operator<T> {
 public:
  using Apply = std::function<void(const T* x, T* y, index_t columns, T alpha, T beta,
                                   void* stream)>;
  FunctionOperator(index_t n, Apply apply, std::vector<T> diagonal, std::size_t work,
                   Apply adjoint = {})
      : n_(n),
        apply_(std::move(apply)),
        adjoint_(std::move(adjoint)),
        diagonal_(std::move(diagonal)),
        work_(work) {
    if (n < 1 || (!diagonal_.empty() && diagonal_.size() != static_cast<std::size_t>(n)) ||
        !apply_)
      throw std::invalid_argument("FunctionOperator: need n >= 1, a product and n diagonal "
                                  "entries or none, got n = " + std::to_string(n) + " and " +
                                  std::to_string(diagonal_.size()) + " entries");
  }
  [[nodiscard]] index_t rows() const override { return n_; }
  [[nodiscard]] index_t cols() const override { return n_; }
  [[nodiscard]] std::size_t nnz() const override { return work_; }
  [[nodiscard]] Format format() const override { return Format::function; }
  void apply(const T* x, T* y, index_t columns, T alpha, T beta, void* stream) const {
    apply_(x, y, columns, alpha, beta, stream);
  }
  [[nodiscard]] bool has_adjoint() const { return static_cast<bool>(adjoint_); }
  // y = alpha Aᴴ x + beta y; throws std::invalid_argument for an operator given without it.
  void apply_adjoint(const T* x, T* y, index_t columns, T alpha, T beta, void* stream) const {
    if (!adjoint_)
      throw std::invalid_argument("a matrix-free operator given without its Aᴴ product: COCG "
                                  "and CG need none, BiCG does");
    adjoint_(x, y, columns, alpha, beta, stream);
  }
  [[nodiscard]] const std::vector<T>& diagonal() const { return diagonal_; }
  // Jacobi's D⁻¹, a zero diagonal entry left unscaled (1), as for a stored matrix. Throws
  // std::logic_error for an operator given without its diagonal.
  [[nodiscard]] std::vector<T> inverse_diagonal() const {
    if (diagonal_.empty())
      throw std::logic_error("FunctionOperator: made without its diagonal, no Jacobi "
                             "preconditioning on it");
    std::vector<T> inverse(diagonal_.size());
    for (std::size_t i = 0; i < inverse.size(); ++i)
      inverse[i] = diagonal_[i] == T(0) ? T(1) : T(1) / diagonal_[i];
    return inverse;
  }

 private:
  index_t n_;
  Apply apply_, adjoint_;
  std::vector<T> diagonal_;
  std::size_t work_;
};

// A host FunctionOperator's Apply from a product(x, y, columns) that sets y = A x (n rows):
// alpha and beta applied around it.
template <class T, class Product>
typename FunctionOperator<T>::Apply host_apply(index_t n, Product product) {
  return [n, product = std::move(product), scratch = std::vector<T>()](
             const T* x, T* y, index_t columns, T alpha, T beta, void*) mutable {
    scratch.resize(static_cast<std::size_t>(n) * static_cast<std::size_t>(columns));
    product(x, scratch.data(), columns);
    for (std::size_t k = 0; k < scratch.size(); ++k)
      y[k] = alpha * scratch[k] + (beta == T(0) ? T(0) : beta * y[k]);
  };
}

// The Aᴴ product of a complex symmetric host operator (Aᵀ = A, as the MoM's Z) from its own
// product: Aᴴx = conj(A) x = conj(A conj(x)).
template <class T>
typename FunctionOperator<T>::Apply host_symmetric_adjoint(index_t n,
                                                           typename FunctionOperator<T>::Apply apply) {
  return [n, apply = std::move(apply), scratch = std::vector<T>(), product = std::vector<T>()](
             const T* x, T* y, index_t columns, T alpha, T beta, void* stream) mutable {
    const std::size_t size = static_cast<std::size_t>(n) * static_cast<std::size_t>(columns);
    scratch.resize(size);
    product.resize(size);
    for (std::size_t k = 0; k < size; ++k) scratch[k] = conjugate(x[k]);
    apply(scratch.data(), product.data(), columns, T(1), T(0), stream);
    for (std::size_t k = 0; k < size; ++k)
      y[k] = alpha * conjugate(product[k]) + (beta == T(0) ? T(0) : beta * y[k]);
  };
}

}  // namespace pmom
