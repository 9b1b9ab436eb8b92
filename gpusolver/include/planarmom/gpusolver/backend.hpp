// The backend interface the solvers are written against (Ginkgo's executor idea): memory,
// sparse products, the few fused vector kernels of the BiCG family and BiCGSTAB, and the
// relaxation sweeps of Gauss-Seidel and SSOR.
// Scalars stay in backend memory as 1 x k blocks so a device backend never has to round-trip
// them through the host; the solver reads only the monitor blocks for its stopping test.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "planarmom/gpusolver/block.hpp"
#include "planarmom/gpusolver/csr.hpp"
#include "planarmom/gpusolver/dia.hpp"
#include "planarmom/gpusolver/sellp.hpp"
#include "planarmom/gpusolver/summation.hpp"

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

// How the BiCG family's shadow (left) vectors relate to the primal ones. One kernel set thus
// serves BiCG (explicit r̃, p̃), COCG (r̃ = conj(r) for Aᵀ = A) and CG (r̃ = r for Aᴴ = A).
enum class Shadow { explicit_vectors, conjugate, same };

// Per right-hand-side state the kernels set; the solver maps it to an outcome.
enum RhsStatus : int { rhs_running = 0, rhs_stopped = 1, rhs_breakdown_rho = 2,
                       rhs_breakdown_sigma = 3, rhs_breakdown_omega = 4 };

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
// M⁻¹, Backend::make_dense_inverse) cannot be. `work` is what one product costs in multiply-adds
// (reported as nnz). `adjoint`, where given, is the same for Aᴴ (BiCG's second product; for a
// complex symmetric A, Aᴴx = conj(A conj(x)): host_symmetric_adjoint); without it spmv refuses
// Transpose::conj_trans. The MoM's exact operator is one (mom/convolution_operator.hpp on the
// host, mom/device_convolution.hpp on the device).
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

enum class CopyKind { to_backend, to_host, within_backend };

// SOR sweeps over the rows of a square A (Gauss-Seidel, SSOR), in a fixed order of colours:
// colour c is a range of rows no two of which are coupled (a_ij = a_ji = 0), so a backend may
// update them together. The natural order is row after row.
template <class T> class Sweeper {
 public:
  virtual ~Sweeper() = default;
  [[nodiscard]] virtual index_t rows() const = 0;
};

enum class SweepDirection { forward, backward };

// The precision in which Backend::make_dense_inverse keeps a matrix's factors: the matrix's
// own, or single (see there).
enum class FactorPrecision { working, single };

// Blocks of the BiCG family (BiCG, COCG, CG), n x k unless marked 1 x k.
template <class T> struct BicgVectors {
  Shadow shadow = Shadow::explicit_vectors;
  Summation summation = Summation::plain;  // of rho and rnorm2
  const Block<T>* inv_diag = nullptr;  // n x 1, Jacobi
  Block<T>* x = nullptr;
  Block<T>* r = nullptr;
  Block<T>* rt = nullptr;  // shadow residual, explicit_vectors only
  Block<T>* p = nullptr;
  Block<T>* pt = nullptr;  // shadow direction, explicit_vectors only
  Block<T>* q = nullptr;   // A p
  Block<T>* qt = nullptr;  // Aᴴ p̃, explicit_vectors only
  Block<T>* rho = nullptr;      // 1 x k, r̃ᴴ M⁻¹ r of this iteration
  Block<T>* rho_old = nullptr;  // 1 x k, previous iteration's rho
  Block<T>* sigma = nullptr;    // 1 x k, p̃ᴴ A p
  Block<real_t<T>>* rnorm2 = nullptr;  // 1 x k, ‖r‖², written by bicg_update / bicg_reduce
  Block<int>* status = nullptr;        // 1 x k, RhsStatus
};

// Blocks of Jacobi-preconditioned BiCGSTAB (right preconditioning). Without inv_diag the
// method runs unpreconditioned: then phat must be p and shat must be s (the same storage), and
// the kernels neither read a diagonal nor write p̂, ŝ, which keeps an iteration at the 18
// vector passes of the BiCGSTAB paper's merged form (Jacobi adds 5; docs/PERFORMANCE.md).
template <class T> struct BicgstabVectors {
  Summation summation = Summation::plain;  // of every 1 x k reduction below
  const Block<T>* inv_diag = nullptr;  // n x 1, or nullptr: no preconditioner
  Block<T>* x = nullptr;
  Block<T>* r = nullptr;
  Block<T>* rhat = nullptr;  // fixed shadow residual
  Block<T>* p = nullptr;
  Block<T>* phat = nullptr;  // M⁻¹ p
  Block<T>* v = nullptr;     // A p̂
  Block<T>* s = nullptr;
  Block<T>* shat = nullptr;  // M⁻¹ s
  Block<T>* t = nullptr;     // A ŝ
  Block<T>* rho = nullptr;      // 1 x k, r̂ᴴr of this iteration
  Block<T>* rho_old = nullptr;  // 1 x k, previous iteration's rho
  Block<T>* alpha = nullptr;    // 1 x k
  Block<T>* omega = nullptr;    // 1 x k
  Block<T>* rhat_v = nullptr;   // 1 x k, r̂ᴴ v
  Block<T>* t_s = nullptr;      // 1 x k, tᴴ s
  Block<T>* t_t = nullptr;      // 1 x k, tᴴ t
  Block<real_t<T>>* rnorm2 = nullptr;
  Block<int>* status = nullptr;
};

// Runs a solver iteration `count` times. The plain loop calls it; a device backend may record
// the iteration's launches once and replay them (CUDA graphs), which is valid because the
// solvers keep every pointer and size of an iteration fixed for the whole solve.
class StepLoop {
 public:
  virtual ~StepLoop() = default;
  virtual void run(int count) = 0;
};

class PlainStepLoop final : public StepLoop {
 public:
  explicit PlainStepLoop(std::function<void()> step) : step_(std::move(step)) {}
  void run(int count) override {
    for (int i = 0; i < count; ++i) step_();
  }

 private:
  std::function<void()> step_;
};

template <class T> class Backend {
 public:
  using real = real_t<T>;
  virtual ~Backend() = default;

  [[nodiscard]] virtual std::string name() const = 0;
  // Whether its memory is a device's (not the host's): callers choose device-side routes by
  // this, never by the name.
  [[nodiscard]] virtual bool on_device() const = 0;

  // ---- memory --------------------------------------------------------------------------
  // Zero-filled storage of the given size.
  virtual std::shared_ptr<void> allocate_bytes(std::size_t bytes) = 0;
  virtual void copy_bytes(void* dst, const void* src, std::size_t bytes, CopyKind kind) = 0;
  // Waits for all queued work (timing, host reads).
  virtual void synchronize() = 0;
  // Bytes of a device's memory free now; 0 for a backend whose memory is the host's, which
  // callers size by time, not by this.
  [[nodiscard]] virtual std::size_t device_memory_free() const { return 0; }

  template <class U> Block<U> allocate(index_t rows, index_t cols) {
    return Block<U>(allocate_bytes(static_cast<std::size_t>(rows) * cols * sizeof(U)), rows,
                    cols);
  }
  template <class U> void upload(std::span<const U> host, Block<U>& dst) {
    check_size(host.size(), dst.size());
    copy_bytes(dst.data(), host.data(), dst.bytes(), CopyKind::to_backend);
  }
  template <class U> std::vector<U> download(const Block<U>& src) {
    std::vector<U> host(src.size());
    copy_bytes(host.data(), src.data(), src.bytes(), CopyKind::to_host);
    return host;
  }
  template <class U> void copy(const Block<U>& src, Block<U>& dst) {
    check_size(src.size(), dst.size());
    copy_bytes(dst.data(), src.data(), src.bytes(), CopyKind::within_backend);
  }

  // Iterations between the solver's stopping tests when the options leave it to the backend.
  [[nodiscard]] virtual int default_check_interval() const { return 1; }

  // The iteration loop; see StepLoop. The default is the plain loop.
  virtual std::unique_ptr<StepLoop> make_step_loop(std::function<void()> step) {
    return std::make_unique<PlainStepLoop>(std::move(step));
  }

  // ---- sparse products -----------------------------------------------------------------
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
  // of a matrix that lives on the backend read back in a chosen order (the sweep's block
  // preconditioner reads the diagonal blocks of Z so).
  virtual void gather(const T* values, const Block<std::int64_t>& positions, Block<T>& out) = 0;
  // Square blocks stored one after another in `blocks`, block b row-major in sizes[b]²
  // entries, each replaced by its inverse where it lives (the sweep's block preconditioner
  // inverts Z's diagonal blocks so, every frequency). Returns the index of the first block found
  // singular, −1 when none was; then the blocks' contents are unspecified.
  virtual long long invert_blocks(Block<T>& blocks, std::span<const index_t> sizes) = 0;
  // A⁻¹ of the n x n matrix in `a` (backend memory, column-major: a row-major symmetric matrix
  // such as Z reads the same) as a FunctionOperator on this backend, y = alpha A⁻¹ x + beta y,
  // for Solver::set_preconditioner: A is LU-factored with partial pivoting where it lives,
  // taking a's storage over (the CUDA backend multiplies by the explicit inverse, which a
  // matrix product applies faster than two triangular solves; the host substitutes). The
  // sweep factors Z at one frequency and preconditions the next ones with it. With
  // FactorPrecision::single the host factors and substitutes in single precision (A rounded
  // to it: A⁻¹ to ~1e-7 κ(A), which a preconditioner can take; the LU and the substitutions
  // cost half); the CUDA backend, whose double LU is cheap, keeps A's precision either way.
  // Throws std::invalid_argument for a block that is not square, std::runtime_error naming
  // the pivot when A is singular.
  virtual std::shared_ptr<const Operator<T>> make_dense_inverse(Block<T> a,
                                                                FactorPrecision precision) = 0;
  std::shared_ptr<const Operator<T>> make_dense_inverse(Block<T> a) {
    return make_dense_inverse(std::move(a), FactorPrecision::working);
  }
  // b = A⁻¹ b for the n x n matrix in `a` (as make_dense_inverse takes it) and the columns of
  // b: one LU with partial pivoting where A lives, taking a's storage over, and the
  // substitutions, no inverse (a line check solves its few right-hand sides once so). Throws
  // as make_dense_inverse, and std::invalid_argument when b has not n rows.
  virtual void solve_dense(Block<T> a, Block<T>& b) = 0;
  // out (k x k, column-major) = a at the kept rows and columns, each column p plus weight[p]
  // times a's column partner[p] at the same rows: out(q, p) = a(kept[q], kept[p]) + weight[p]
  // a(kept[q], partner[p]), the second term left out where partner[p] < 0 (a: n x n,
  // column-major, in backend memory; kept, partner and weight k x 1 there). How a matrix that
  // commutes with a mirror is folded onto one parity of its unknowns, half their number
  // (mom/line_mirror.hpp: the sweep's line checks LU-factor a line's Z so, in two halves).
  // Throws std::invalid_argument for sizes that disagree.
  virtual void fold_dense(const Block<T>& a, const Block<index_t>& kept,
                          const Block<index_t>& partner, const Block<real>& weight,
                          Block<T>& out) = 0;
  // y = alpha op(A) x + beta y, column by column of the blocks.
  virtual void spmv(const Operator<T>& a, Transpose op, const Block<T>& x, Block<T>& y,
                    T alpha = T(1), T beta = T(0)) = 0;

  // ---- reductions ----------------------------------------------------------------------
  // out[k] = Σ_i conj(x_ik) y_ik (conjugated) or Σ_i x_ik y_ik, summed in T's reals.
  virtual void dot(const Block<T>& x, const Block<T>& y, Block<T>& out, bool conjugated,
                   Summation summation = Summation::plain) = 0;
  virtual void norm2_squared(const Block<T>& x, Block<real>& out,
                             Summation summation = Summation::plain) = 0;

  // ---- fused BiCG family kernels (columns with status != running are left alone) -------
  // rho = r̃ᴴ M⁻¹ r and rnorm2 = ‖r‖² (start-up and restarts).
  virtual void bicg_reduce(BicgVectors<T>& v) = 0;
  // β = rho/rho_old; p = M⁻¹r + βp; p̃ = M⁻ᴴr̃ + β̄p̃. Flags rho == 0 as breakdown.
  virtual void bicg_directions(BicgVectors<T>& v) = 0;
  // α = rho/sigma; x += αp; r -= αq; r̃ -= ᾱq̃; then rho_old = rho, rho = r̃ᴴ M⁻¹ r of the
  // new r, and rnorm2 = ‖r‖². Rotating the scalars here, not on the host, keeps every
  // pointer of an iteration fixed, so a device backend can replay it as a captured graph.
  // Flags sigma == 0 as breakdown and leaves that column unchanged.
  virtual void bicg_update(BicgVectors<T>& v) = 0;

  // ---- fused BiCGSTAB kernels -----------------------------------------------------------
  // β = (rho/rho_old)(α/ω); p = r + β(p - ωv); p̂ = M⁻¹p.
  virtual void bicgstab_directions(BicgstabVectors<T>& v) = 0;
  // α = rho / rhat_v; s = r - αv; ŝ = M⁻¹s. Flags rhat_v == 0 as breakdown.
  virtual void bicgstab_half_step(BicgstabVectors<T>& v) = 0;
  // ω = t_s / t_t; x += αp̂ + ωŝ; r = s - ωt; rho_old = rho; rho = r̂ᴴr; rnorm2 = ‖r‖².
  virtual void bicgstab_update(BicgstabVectors<T>& v) = 0;
  // t_s = tᴴs and t_t = tᴴt in one pass.
  virtual void bicgstab_omega_dots(BicgstabVectors<T>& v) = 0;

  // ---- relaxation (columns with status != running are left alone) ----------------------
  // Whether natural-order sweeps run here; a backend without them sweeps colours only.
  [[nodiscard]] virtual bool sequential_sweeps() const { return true; }
  // A sweeper over A with inv_diag = 1/a_ii (all finite). colour_ptr: colour c holds rows
  // [colour_ptr[c], colour_ptr[c + 1]); empty: the natural order.
  virtual std::unique_ptr<Sweeper<T>> make_sweeper(const Csr<T>& a, std::span<const T> inv_diag,
                                                   std::span<const index_t> colour_ptr) = 0;
  // One SOR sweep on A x = b: row by row in the sweeper's order (reversed for backward),
  // x_i += ω (b_i − Σ_j a_ij x_j) / a_ii. from_zero (forward only) takes x as zero on entry
  // without reading it, so the sweep is the triangular solve x = ω (D + ωL)⁻¹ b.
  virtual void sor_sweep(const Sweeper<T>& s, SweepDirection direction, bool from_zero,
                         real omega, const Block<T>& b, Block<T>& x,
                         const Block<int>& status) = 0;
  // x += d ∘ r column by column (d: n x 1); the Jacobi iteration with d = ω D⁻¹.
  virtual void diagonal_update(const Block<T>& d, const Block<T>& r, Block<T>& x,
                               const Block<int>& status) = 0;

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
                               const Block<index_t>& partner, const Block<real>& weight,
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
  // What every make_sweeper checks: A valid and square, inv_diag of its size, colour_ptr
  // empty or non-decreasing from 0 to the row count.
  static void check_sweep_input(const Csr<T>& a, std::span<const T> inv_diag,
                                std::span<const index_t> colour_ptr) {
    a.validate();
    const auto fail = [](const std::string& what) {
      throw std::invalid_argument("make_sweeper: " + what);
    };
    if (a.rows != a.cols)
      fail("A is " + std::to_string(a.rows) + " x " + std::to_string(a.cols) + ", not square");
    if (inv_diag.size() != static_cast<std::size_t>(a.rows))
      fail(std::to_string(inv_diag.size()) + " diagonal entries for " + std::to_string(a.rows) +
           " rows");
    if (colour_ptr.empty()) return;
    bool ordered = colour_ptr.front() == 0 && colour_ptr.back() == a.rows;
    for (std::size_t c = 1; c < colour_ptr.size(); ++c)
      ordered = ordered && colour_ptr[c - 1] <= colour_ptr[c];
    if (!ordered) fail("colour_ptr must rise from 0 to " + std::to_string(a.rows));
  }

 private:
  static void check_size(std::size_t have, std::size_t want) {
    if (have != want)
      throw std::invalid_argument("block copy: " + std::to_string(have) + " values given, " +
                                  std::to_string(want) + " expected");
  }
};

}  // namespace pmom
