// The reference backend: host memory, OpenMP kernels. make_cpu_backend is its only way out.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <type_traits>

#include <Eigen/Dense>

#include "cpu_dense.hpp"
#include "host_lu.hpp"
#include "planarmom/gpusolver/precision.hpp"
#include "cpu_kernels.hpp"
#include "cpu_operator.hpp"
#include "cpu_relaxation.hpp"
#include "planarmom/gpusolver/backends.hpp"

namespace pmom {

namespace {

// Cache-line alignment keeps each column's start aligned for vector loads and keeps blocks
// from sharing lines between threads.
constexpr std::size_t alignment = 64;

template <class T> class CpuBackend final : public Backend<T> {
  using Kernels = cpu::VectorKernels<T>;

 public:
  using typename Backend<T>::real;

  [[nodiscard]] std::string name() const override { return "cpu"; }
  [[nodiscard]] bool on_device() const override { return false; }

  std::shared_ptr<void> allocate_bytes(std::size_t bytes) override {
    if (bytes > std::numeric_limits<std::size_t>::max() - alignment) throw std::bad_alloc();
    // Empty blocks still get a line of their own, so every block has a valid, distinct address.
    const std::size_t size = std::max(alignment, (bytes + alignment - 1) / alignment * alignment);
    void* memory = std::aligned_alloc(alignment, size);
    if (memory == nullptr) throw std::bad_alloc();
    std::memset(memory, 0, size);
    return {memory, std::free};
  }

  void copy_bytes(void* dst, const void* src, std::size_t bytes, CopyKind) override {
    if (bytes > 0) std::memcpy(dst, src, bytes);
  }

  void synchronize() override {}

  std::unique_ptr<Operator<T>> make_operator(const Csr<T>& a,
                                             const OperatorOptions& options) override {
    a.validate();
    return std::make_unique<cpu::CpuOperator<T>>(a, options);
  }

  std::unique_ptr<Operator<T>> make_csr_operator(index_t cols, Block<index_t> row_ptr,
                                                 Block<index_t> col_idx, Block<T> values,
                                                 const OperatorOptions& options) override {
    this->check_csr_operator_input(row_ptr, col_idx, values, options);
    // Backend memory is host memory here: the blocks become a Csr as they are.
    Csr<T> a;
    a.rows = row_ptr.rows() - 1;
    a.cols = cols;
    a.row_ptr.assign(row_ptr.data(), row_ptr.data() + row_ptr.size());
    a.col_idx.assign(col_idx.data(), col_idx.data() + col_idx.size());
    a.values.assign(values.data(), values.data() + values.size());
    return make_operator(a, options);
  }

  T* csr_values(Operator<T>& a) override { return cpu_operator(a).csr_values(); }
  void inverse_diagonal(const Operator<T>& a, Block<T>& out) override {
    if (out.rows() != a.rows() || out.cols() != 1)
      throw std::invalid_argument("inverse_diagonal: out is " + dims(out.rows(), out.cols()) +
                                  " for " + std::to_string(a.rows()) + " rows");
    if (const auto* f = dynamic_cast<const FunctionOperator<T>*>(&a)) {
      const std::vector<T> inverse = f->inverse_diagonal();
      std::copy(inverse.begin(), inverse.end(), out.data());
      return;
    }
    cpu_operator(a).inverse_diagonal(out.data());
  }

  void gather(const T* values, const Block<std::int64_t>& positions, Block<T>& out) override {
    if (out.size() != positions.size())
      throw std::invalid_argument("gather: " + std::to_string(positions.size()) +
                                  " positions for " + std::to_string(out.size()) + " values");
    const std::int64_t* at = positions.data();
    T* o = out.data();
    for (std::size_t k = 0; k < positions.size(); ++k) o[k] = at[k] < 0 ? T(0) : values[at[k]];
  }

  long long invert_blocks(Block<T>& blocks, std::span<const index_t> sizes) override {
    DenseKernels<T>::check_blocks_input(blocks, sizes);
    std::vector<std::size_t> first(sizes.size() + 1, 0);
    for (std::size_t b = 0; b < sizes.size(); ++b)
      first[b + 1] = first[b] + static_cast<std::size_t>(sizes[b]) * sizes[b];
    using Dense = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    long long singular = -1;
#pragma omp parallel for schedule(dynamic)
    for (std::size_t b = 0; b < sizes.size(); ++b) {
      Eigen::Map<Dense> block(blocks.data() + first[b], sizes[b], sizes[b]);
      const Dense inverse = Eigen::PartialPivLU<Dense>(block).inverse();
      if (inverse.allFinite()) {
        block = inverse;
      } else {
#pragma omp critical
        if (singular < 0 || static_cast<long long>(b) < singular) singular = static_cast<long long>(b);
      }
    }
    return singular;
  }

  using DenseKernels<T>::make_dense_inverse;
  std::shared_ptr<const Operator<T>> make_dense_inverse(Block<T> a,
                                                        FactorPrecision precision) override {
    DenseKernels<T>::check_dense_input(a);
    if (precision == FactorPrecision::single && !std::is_same_v<single_t<T>, T>)
      return single_precision_inverse(a);
    const index_t n = a.rows();
    // Factored in place (host_lu.hpp): the block holds the factors. An explicit inverse, as the
    // CUDA backend makes, costs several LUs' time here (docs/PERFORMANCE.md), so the host
    // substitutes instead.
    struct Factor {
      Block<T> lu;
      std::vector<int> row_of;
    };
    auto factor = std::make_shared<Factor>();
    factor->row_of = cpu::factor_lu(a.data(), n, "make_dense_inverse");
    factor->lu = std::move(a);
    return std::make_shared<FunctionOperator<T>>(
        n,
        host_apply<T>(n,
                      [factor, n](const T* x, T* y, index_t columns) {
                        cpu::lu_substitute(factor->lu.data(), factor->row_of.data(), n, x, y,
                                           columns);
                      }),
        std::vector<T>{}, static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
  }

  void solve_dense(Block<T> a, Block<T>& b) override {
    DenseKernels<T>::check_dense_input(a, &b);
    const std::vector<int> row_of = cpu::factor_lu(a.data(), a.rows(), "solve_dense");
    const std::vector<T> rhs(b.data(), b.data() + b.size());
    cpu::lu_substitute(a.data(), row_of.data(), a.rows(), rhs.data(), b.data(), b.cols());
  }

  void combine_rows(const T* x, index_t x_rows, const Block<index_t>& i1, const Block<real>& c1,
                    const Block<index_t>& i2, const Block<real>& c2, T* out, index_t columns,
                    T alpha, T beta) override {
    const index_t rows = i1.rows();
#pragma omp parallel for schedule(static)
    for (index_t r = 0; r < rows; ++r) {
      const index_t a = i1.data()[r], b = i2.data()[r];
      for (index_t col = 0; col < columns; ++col) {
        const T* xc = x + static_cast<std::size_t>(col) * static_cast<std::size_t>(x_rows);
        T v(0);
        if (a >= 0) v += c1.data()[r] * xc[a];
        if (b >= 0) v += c2.data()[r] * xc[b];
        T& o = out[static_cast<std::size_t>(col) * static_cast<std::size_t>(rows) +
                   static_cast<std::size_t>(r)];
        o = beta == T(0) ? alpha * v : alpha * v + beta * o;
      }
    }
  }

  void fold_dense(const Block<T>& a, const Block<index_t>& kept, const Block<index_t>& partner,
                  const Block<real>& weight, Block<T>& out) override {
    DenseKernels<T>::check_fold_input(a, kept, partner, weight, out);
    const auto n = static_cast<std::size_t>(a.rows());
    const index_t k = out.rows();
#pragma omp parallel for schedule(static)
    for (index_t p = 0; p < k; ++p) {
      const T* column = a.data() + n * static_cast<std::size_t>(kept.data()[p]);
      const index_t j = partner.data()[p];
      const T* other = j < 0 ? nullptr : a.data() + n * static_cast<std::size_t>(j);
      T* o = out.column(p);
      for (index_t q = 0; q < k; ++q) {
        const auto row = static_cast<std::size_t>(kept.data()[q]);
        o[q] = other ? column[row] + weight.data()[p] * other[row] : column[row];
      }
    }
  }

  void spmv(const Operator<T>& a, Transpose op, const Block<T>& x, Block<T>& y, T alpha,
            T beta) override {
    const auto* function = dynamic_cast<const FunctionOperator<T>*>(&a);
    const cpu::CpuOperator<T>* cpu_op = function ? nullptr : &cpu_operator(a);
    const bool adjoint = op == Transpose::conj_trans;
    const index_t in = adjoint ? a.rows() : a.cols();
    const index_t out = adjoint ? a.cols() : a.rows();
    if (x.rows() != in || y.rows() != out || x.cols() != y.cols())
      throw std::invalid_argument("spmv: op(A) is " + dims(out, in) + " but x is " +
                                  dims(x.rows(), x.cols()) + " and y " +
                                  dims(y.rows(), y.cols()));
    if (x.size() > 0 && x.data() == y.data())
      throw std::invalid_argument("spmv: x and y must be different blocks");
    if (function) {
      if (adjoint)
        function->apply_adjoint(x.data(), y.data(), x.cols(), alpha, beta, nullptr);
      else
        function->apply(x.data(), y.data(), x.cols(), alpha, beta, nullptr);
      return;
    }
    cpu_op->apply(op, x.data(), y.data(), x.cols(), alpha, beta);
  }

  void dot(const Block<T>& x, const Block<T>& y, Block<T>& out, bool conjugated,
           Summation summation) override {
    Kernels::dot(x, y, out, conjugated, summation);
  }
  void norm2_squared(const Block<T>& x, Block<real>& out, Summation summation) override {
    Kernels::norm2_squared(x, out, summation);
  }
  void bicg_reduce(BicgVectors<T>& v) override { Kernels::bicg_reduce(v); }
  void bicg_directions(BicgVectors<T>& v) override { Kernels::bicg_directions(v); }
  void bicg_update(BicgVectors<T>& v) override { Kernels::bicg_update(v); }
  void bicgstab_directions(BicgstabVectors<T>& v) override { Kernels::bicgstab_directions(v); }
  void bicgstab_half_step(BicgstabVectors<T>& v) override { Kernels::bicgstab_half_step(v); }
  void bicgstab_update(BicgstabVectors<T>& v) override { Kernels::bicgstab_update(v); }
  void bicgstab_omega_dots(BicgstabVectors<T>& v) override { Kernels::bicgstab_omega_dots(v); }

  std::unique_ptr<Sweeper<T>> make_sweeper(const Csr<T>& a, std::span<const T> inv_diag,
                                           std::span<const index_t> colour_ptr) override {
    RelaxationKernels<T>::check_sweep_input(a, inv_diag, colour_ptr);
    return std::make_unique<cpu::CpuSweeper<T>>(a, inv_diag, colour_ptr);
  }
  void sor_sweep(const Sweeper<T>& s, SweepDirection direction, bool from_zero, real omega,
                 const Block<T>& b, Block<T>& x, const Block<int>& status) override {
    const auto* sweeper = dynamic_cast<const cpu::CpuSweeper<T>*>(&s);
    if (sweeper == nullptr)
      throw std::invalid_argument("sor_sweep: the sweeper was not made by the CPU backend");
    sweeper->sweep(direction, from_zero, omega, b, x, status);
  }
  void diagonal_update(const Block<T>& d, const Block<T>& r, Block<T>& x,
                       const Block<int>& status) override {
    cpu::diagonal_update(d, r, x, status);
  }

 private:
  // make_dense_inverse's single-precision factors: A rounded, factored, and each application's
  // columns rounded, substituted and widened again (the substitutions read half the bytes).
  static std::shared_ptr<const Operator<T>> single_precision_inverse(const Block<T>& a) {
    using S = single_t<T>;
    const index_t n = a.rows();
    struct Factor {
      std::vector<S> lu;
      std::vector<int> row_of;
      std::vector<S> in, out;  // an application's columns in S
    };
    auto factor = std::make_shared<Factor>();
    factor->lu.assign(a.data(), a.data() + a.size());
    factor->row_of = cpu::factor_lu(factor->lu.data(), n, "make_dense_inverse");
    return std::make_shared<FunctionOperator<T>>(
        n,
        host_apply<T>(n,
                      [factor, n](const T* x, T* y, index_t columns) {
                        Factor& f = *factor;
                        const std::size_t size =
                            static_cast<std::size_t>(n) * static_cast<std::size_t>(columns);
                        f.in.resize(size);
                        f.out.resize(size);
                        for (std::size_t k = 0; k < size; ++k) f.in[k] = static_cast<S>(x[k]);
                        cpu::lu_substitute(f.lu.data(), f.row_of.data(), n, f.in.data(),
                                           f.out.data(), columns);
                        for (std::size_t k = 0; k < size; ++k) y[k] = static_cast<T>(f.out[k]);
                      }),
        std::vector<T>{}, static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
  }
  static std::string dims(index_t rows, index_t cols) {
    return std::to_string(rows) + " x " + std::to_string(cols);
  }
  // The operator as this backend made it (const as given).
  template <class Op> static auto& cpu_operator(Op& a) {
    using Cpu = std::conditional_t<std::is_const_v<Op>, const cpu::CpuOperator<T>,
                                   cpu::CpuOperator<T>>;
    auto* op = dynamic_cast<Cpu*>(&a);
    if (op == nullptr) throw std::invalid_argument("the operator was not made by the CPU backend");
    return *op;
  }
};

}  // namespace

template <class T> std::unique_ptr<Backend<T>> make_cpu_backend() {
  return std::make_unique<CpuBackend<T>>();
}

#define PMOM_INSTANTIATE(T) template std::unique_ptr<Backend<T>> make_cpu_backend<T>();
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

}  // namespace pmom
