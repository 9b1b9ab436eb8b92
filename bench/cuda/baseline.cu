// The cuSPARSE/cuBLAS baseline (baseline.hpp): BiCG exactly as DESIGN §4 gives it, every vector
// operation one library call and every scalar a round trip through the host, as in the
// BiCGSTAB paper's library route. Nothing is fused or kept on the device, deliberately: this
// is what the project's own kernels are measured against.
#include <cublas_v2.h>
#include <cuComplex.h>
#include <cusparse.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

#include "cuda_support.hpp"
#include "planarmom/bench/baseline.hpp"
#include "planarmom/gpusolver/convert.hpp"

namespace pmom::bench {
namespace gpu {

// cuBLAS has named its statuses itself since 11.4; no switch of our own to keep in step.
inline void check(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    fail(call, std::string(cublasGetStatusName(status)) + " (" +
                   cublasGetStatusString(status) + ")");
}

}  // namespace gpu

namespace {

using gpu::DeviceArray;
using gpu::Owned;

// The libraries' element type for a host value type (same layout) and its cudaDataType.
template <class T> struct Lib;
template <> struct Lib<double> {
  using type = double;
  static constexpr cudaDataType data_type = CUDA_R_64F;
};
template <> struct Lib<std::complex<double>> {
  using type = cuDoubleComplex;
  static constexpr cudaDataType data_type = CUDA_C_64F;
};
template <class T> using lib_t = typename Lib<T>::type;

// Host scalars are converted by value, not reinterpreted: cuDoubleComplex is 16-byte aligned
// and std::complex<double> only 8, so a cast pointer could be misaligned for the library.
double to_lib(double v) { return v; }
cuDoubleComplex to_lib(std::complex<double> v) { return make_cuDoubleComplex(v.real(), v.imag()); }
double from_lib(double v) { return v; }
std::complex<double> from_lib(cuDoubleComplex v) { return {cuCreal(v), cuCimag(v)}; }

// The cuBLAS routine for each element type; the real ones are the complex ones' counterparts
// (Ddot for Zdotc: the real dot needs no conjugation).
namespace routines {
void copy(cublasHandle_t h, int n, const double* x, double* y) {
  PMOM_CHECKED(cublasDcopy, h, n, x, 1, y, 1);
}
void copy(cublasHandle_t h, int n, const cuDoubleComplex* x, cuDoubleComplex* y) {
  PMOM_CHECKED(cublasZcopy, h, n, x, 1, y, 1);
}
void scal(cublasHandle_t h, int n, double a, double* x) {
  PMOM_CHECKED(cublasDscal, h, n, &a, x, 1);
}
void scal(cublasHandle_t h, int n, cuDoubleComplex a, cuDoubleComplex* x) {
  PMOM_CHECKED(cublasZscal, h, n, &a, x, 1);
}
void axpy(cublasHandle_t h, int n, double a, const double* x, double* y) {
  PMOM_CHECKED(cublasDaxpy, h, n, &a, x, 1, y, 1);
}
void axpy(cublasHandle_t h, int n, cuDoubleComplex a, const cuDoubleComplex* x,
          cuDoubleComplex* y) {
  PMOM_CHECKED(cublasZaxpy, h, n, &a, x, 1, y, 1);
}
void dot(cublasHandle_t h, int n, const double* x, const double* y, double* out) {
  PMOM_CHECKED(cublasDdot, h, n, x, 1, y, 1, out);
}
void dot(cublasHandle_t h, int n, const cuDoubleComplex* x, const cuDoubleComplex* y,
         cuDoubleComplex* out) {
  PMOM_CHECKED(cublasZdotc, h, n, x, 1, y, 1, out);
}
void nrm2(cublasHandle_t h, int n, const double* x, double* out) {
  PMOM_CHECKED(cublasDnrm2, h, n, x, 1, out);
}
void nrm2(cublasHandle_t h, int n, const cuDoubleComplex* x, double* out) {
  PMOM_CHECKED(cublasDznrm2, h, n, x, 1, out);
}
// z = diag(d) r, r and z seen as n x 1 matrices.
void dgmm(cublasHandle_t h, int n, const double* d, const double* r, double* z) {
  PMOM_CHECKED(cublasDdgmm, h, CUBLAS_SIDE_LEFT, n, 1, r, n, d, 1, z, n);
}
void dgmm(cublasHandle_t h, int n, const cuDoubleComplex* d, const cuDoubleComplex* r,
          cuDoubleComplex* z) {
  PMOM_CHECKED(cublasZdgmm, h, CUBLAS_SIDE_LEFT, n, 1, r, n, d, 1, z, n);
}
// y = op(x) for x seen as n x 1 and y as 1 x n, which share a layout: a conjugating copy for
// op = C, a plain one for op = T. y must be finite (beta = 0 still multiplies it, in place).
void geam(cublasHandle_t h, cublasOperation_t op, int n, const double* x, double* y) {
  const double one = 1, zero = 0;
  PMOM_CHECKED(cublasDgeam, h, op, CUBLAS_OP_N, 1, n, &one, x, n, &zero, y, 1, y, 1);
}
void geam(cublasHandle_t h, cublasOperation_t op, int n, const cuDoubleComplex* x,
          cuDoubleComplex* y) {
  const cuDoubleComplex one = make_cuDoubleComplex(1, 0), zero = make_cuDoubleComplex(0, 0);
  PMOM_CHECKED(cublasZgeam, h, op, CUBLAS_OP_N, 1, n, &one, x, n, &zero, y, 1, y, 1);
}
}  // namespace routines

// cuBLAS on whole vectors of one length in host pointer mode: scalars go in from host memory
// and dots and norms come back to it, so each of those waits for the device.
template <class T> class Blas {
 public:
  using Vec = DeviceArray<lib_t<T>>;

  explicit Blas(index_t n) : n_(n) {
    cublasHandle_t h = nullptr;
    PMOM_CHECKED(cublasCreate, &h);
    handle_.reset(h);
    PMOM_CHECKED(cublasSetPointerMode, h, CUBLAS_POINTER_MODE_HOST);
  }

  void copy(const Vec& x, Vec& y) const { routines::copy(h(), n_, x.get(), y.get()); }
  void scal(T a, Vec& x) const { routines::scal(h(), n_, to_lib(a), x.get()); }
  void axpy(T a, const Vec& x, Vec& y) const {
    routines::axpy(h(), n_, to_lib(a), x.get(), y.get());
  }
  [[nodiscard]] T dot(const Vec& x, const Vec& y) const {  // xᴴy
    lib_t<T> out{};
    routines::dot(h(), n_, x.get(), y.get(), &out);
    return from_lib(out);
  }
  [[nodiscard]] double nrm2(const Vec& x) const {
    double out = 0;
    routines::nrm2(h(), n_, x.get(), &out);
    return out;
  }
  void dgmm(const Vec& d, const Vec& r, Vec& z) const {
    routines::dgmm(h(), n_, d.get(), r.get(), z.get());
  }
  void geam(cublasOperation_t op, const Vec& x, Vec& y) const {
    routines::geam(h(), op, n_, x.get(), y.get());
  }

 private:
  [[nodiscard]] cublasHandle_t h() const { return handle_.get(); }
  Owned<cublasHandle_t, cublasDestroy> handle_;
  int n_;
};

using SpMat = Owned<cusparseSpMatDescr_t, cusparseDestroySpMat>;
using DnVec = Owned<cusparseDnVecDescr_t, cusparseDestroyDnVec>;

template <class T> struct DeviceCsr {
  explicit DeviceCsr(const Csr<T>& m)
      : row_ptr(std::span<const index_t>(m.row_ptr)),
        col_idx(std::span<const index_t>(m.col_idx)),
        values(std::span<const T>(m.values)) {
    cusparseSpMatDescr_t d = nullptr;
    PMOM_CHECKED(cusparseCreateCsr, &d, m.rows, m.cols, m.nnz(), row_ptr.get(), col_idx.get(),
                 values.get(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                 Lib<T>::data_type);
    descr.reset(d);
  }
  DeviceArray<index_t> row_ptr, col_idx;
  DeviceArray<lib_t<T>> values;
  SpMat descr;
};

// CSR_ALG1 is cuSPARSE's default and fastest CSR SpMV; it also takes the (conjugate)
// transposed operation, which it runs as a scatter with atomics: that route's sums, and so
// BiCG's iteration counts on ill-conditioned systems, vary from run to run.
constexpr cusparseSpMVAlg_t spmv_alg = CUSPARSE_SPMV_CSR_ALG1;

// y = α op(M) x + β y for the few (op, M, x, y) combinations one solve uses, sharing one
// workspace sized for all of them. No cusparseSpMV_preprocess: on an H200 it changed no
// timing (N = 4000 to 2·10⁶, A and Aᴴ), and it would need a workspace per product.
template <class T> class Sparse {
 public:
  struct Product {
    cusparseOperation_t op;
    cusparseSpMatDescr_t matrix;
    cusparseDnVecDescr_t x, y;
  };

  Sparse() {
    cusparseHandle_t h = nullptr;
    PMOM_CHECKED(cusparseCreate, &h);
    handle_.reset(h);
    PMOM_CHECKED(cusparseSetPointerMode, h, CUSPARSE_POINTER_MODE_HOST);
  }

  void reserve(std::initializer_list<Product> products) {
    std::size_t bytes = 0;
    for (const Product& p : products) {
      const lib_t<T> one = to_lib(T(1));
      std::size_t size = 0;
      PMOM_CHECKED(cusparseSpMV_bufferSize, handle_.get(), p.op, &one, p.matrix, p.x, &one, p.y,
                   Lib<T>::data_type, spmv_alg, &size);
      bytes = std::max(bytes, size);
    }
    buffer_ = DeviceArray<std::byte>(bytes);
  }

  void spmv(T alpha, const Product& p, T beta) const {
    const lib_t<T> a = to_lib(alpha), b = to_lib(beta);
    PMOM_CHECKED(cusparseSpMV, handle_.get(), p.op, &a, p.matrix, p.x, &b, p.y, Lib<T>::data_type,
                 spmv_alg, buffer_.get());
  }

  template <class D> static DnVec vector(const DeviceArray<D>& v) {
    cusparseDnVecDescr_t d = nullptr;
    PMOM_CHECKED(cusparseCreateDnVec, &d, static_cast<std::int64_t>(v.size()), v.get(),
                 Lib<T>::data_type);
    return DnVec(d);
  }

 private:
  Owned<cusparseHandle_t, cusparseDestroy> handle_;
  DeviceArray<std::byte> buffer_;
};

// The project's stopping order for one column (Monitor in gpusolver/core/solver.cpp), so that
// outcomes and iteration counts compare one to one with its solvers.
class StopTest {
 public:
  explicit StopTest(const SolverOptions& options) : options_(options) {}

  std::optional<Outcome> operator()(int iteration, double rel) {
    if (!std::isfinite(rel)) return Outcome::not_finite;
    if (rel <= options_.tolerance) return Outcome::converged;
    if (rel < 0.99 * best_) {
      best_ = rel;
      best_at_ = iteration;
    } else if (iteration - best_at_ >= options_.stagnation_window) {
      return Outcome::stagnation;
    }
    if (iteration >= options_.max_iterations) return Outcome::max_iterations;
    return std::nullopt;
  }

 private:
  const SolverOptions& options_;
  double best_ = std::numeric_limits<double>::infinity();
  int best_at_ = 0;
};

// ρ and σ are exactly zero only at a breakdown; a non-finite one means the iteration overflowed.
template <class T> std::optional<Outcome> scalar_outcome(T v, Outcome if_zero) {
  if (!is_finite(v)) return Outcome::not_finite;
  if (v == T(0)) return if_zero;
  return std::nullopt;
}

// D⁻¹ with 1 where the diagonal is zero (or Jacobi is off), as the project's solver does.
template <class T> std::vector<T> inverse_diagonal(const Csr<T>& a, bool jacobi) {
  std::vector<T> d = diagonal(a);
  for (T& v : d) v = !jacobi || v == T(0) ? T(1) : T(1) / v;
  return d;
}

}  // namespace

template <class T>
BaselineResult baseline_bicg(const Csr<T>& a, std::span<const T> b, std::vector<T>& x,
                             const SolverOptions& options) {
  const index_t n = a.rows;
  const auto size = static_cast<std::size_t>(n);
  if (a.rows != a.cols || b.size() != size || (!x.empty() && x.size() != size))
    throw std::invalid_argument("baseline_bicg: A is " + std::to_string(a.rows) + " x " +
                                std::to_string(a.cols) + ", b has " + std::to_string(b.size()) +
                                " and x " + std::to_string(x.size()) +
                                " values; a square A and n values (x may be empty) are needed");
  if (options.tolerance <= 0 || options.max_iterations < 0)
    throw std::invalid_argument("baseline_bicg: tolerance must be > 0 and max_iterations >= 0");
  if (x.empty()) x.assign(size, T(0));

  double bnorm2 = 0;
  for (const T& v : b) bnorm2 += abs2(v);
  const double bnorm = std::sqrt(bnorm2);
  BaselineResult result;
  if (bnorm == 0) {  // the exact solution, with nothing to iterate on
    std::fill(x.begin(), x.end(), T(0));
    result.outcome = Outcome::converged;
    return result;
  }
  if (!std::isfinite(bnorm)) {
    result.outcome = Outcome::not_finite;
    result.recurrence_residual = result.true_residual = std::numeric_limits<double>::quiet_NaN();
    return result;
  }

  using Vec = typename Blas<T>::Vec;
  const Blas<T> blas(n);
  Sparse<T> sparse;
  const DeviceCsr<T> a_dev(a);
  // Aᴴ either stored as a second CSR (the EM BiCG paper's choice: a gather SpMV like A's) or
  // taken from A by cuSPARSE's transposed SpMV (a scatter with atomics, no second copy).
  const bool stored_adjoint = options.adjoint == AdjointMode::stored;
  const std::optional<DeviceCsr<T>> ah_dev =
      stored_adjoint ? std::optional<DeviceCsr<T>>(std::in_place, conj_transpose(a)) : std::nullopt;
  // For real values Aᴴ = Aᵀ; TRANSPOSE spares cuSPARSE a conjugation of a real type.
  const cusparseOperation_t adjoint_op =
      stored_adjoint ? CUSPARSE_OPERATION_NON_TRANSPOSE
                     : (is_complex_v<T> ? CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE
                                        : CUSPARSE_OPERATION_TRANSPOSE);
  const cusparseSpMatDescr_t adjoint_matrix = stored_adjoint ? ah_dev->descr.get()
                                                             : a_dev.descr.get();

  // M⁻ᴴ = conj(D⁻¹): its own vector for complex values, D⁻¹ itself for real ones.
  if (options.preconditioner == Preconditioner::ssor)
    throw std::invalid_argument("baseline: the library route has Jacobi preconditioning or "
                                "none, not SSOR");
  const std::vector<T> inv_diag =
      inverse_diagonal(a, options.preconditioner == Preconditioner::jacobi);
  std::vector<T> inv_diag_adj;
  if constexpr (is_complex_v<T>)
    for (const T& v : inv_diag) inv_diag_adj.push_back(conjugate(v));
  const Vec d_inv(std::span<const T>{inv_diag});
  const Vec d_inv_adj_own(std::span<const T>{inv_diag_adj});
  const Vec& d_inv_adj = is_complex_v<T> ? d_inv_adj_own : d_inv;

  const Vec b_dev(b);
  Vec x_dev(std::span<const T>{x});
  Vec r(size), rt(size), z(size), zt(size), p(size), pt(size), q(size), qt(size);
  const DnVec x_vec = Sparse<T>::vector(x_dev), r_vec = Sparse<T>::vector(r),
              p_vec = Sparse<T>::vector(p), q_vec = Sparse<T>::vector(q),
              pt_vec = Sparse<T>::vector(pt), qt_vec = Sparse<T>::vector(qt);
  const typename Sparse<T>::Product ap{CUSPARSE_OPERATION_NON_TRANSPOSE, a_dev.descr.get(),
                                       p_vec.get(), q_vec.get()};
  const typename Sparse<T>::Product ahpt{adjoint_op, adjoint_matrix, pt_vec.get(), qt_vec.get()};
  const typename Sparse<T>::Product ax{CUSPARSE_OPERATION_NON_TRANSPOSE, a_dev.descr.get(),
                                       x_vec.get(), r_vec.get()};
  sparse.reserve({ap, ahpt, ax});

  // r = b − Ax; returns ‖r‖/‖b‖.
  const auto residual = [&] {
    blas.copy(b_dev, r);
    sparse.spmv(T(-1), ax, T(1));
    return blas.nrm2(r) / bnorm;
  };

  PMOM_CHECKED(cudaDeviceSynchronize);
  const auto start = std::chrono::steady_clock::now();
  StopTest stop(options);
  double rel = residual();
  blas.geam(options.shadow_start == ShadowStart::conj_residual ? CUBLAS_OP_C : CUBLAS_OP_T, r,
            rt);
  std::optional<Outcome> outcome = stop(0, rel);
  int it = 0;
  T rho_old(1);
  while (!outcome) {
    ++it;
    blas.dgmm(d_inv, r, z);        // z = M⁻¹r
    blas.dgmm(d_inv_adj, rt, zt);  // z̃ = M⁻ᴴr̃
    const T rho = blas.dot(rt, z);
    if ((outcome = scalar_outcome(rho, Outcome::breakdown_rho))) break;
    if (it == 1) {
      blas.copy(z, p);
      blas.copy(zt, pt);
    } else {
      const T beta = rho / rho_old;
      blas.scal(beta, p);
      blas.axpy(T(1), z, p);
      blas.scal(conjugate(beta), pt);
      blas.axpy(T(1), zt, pt);
    }
    sparse.spmv(T(1), ap, T(0));    // q = Ap
    sparse.spmv(T(1), ahpt, T(0));  // q̃ = Aᴴp̃
    const T sigma = blas.dot(pt, q);
    if ((outcome = scalar_outcome(sigma, Outcome::breakdown_sigma))) break;
    const T alpha = rho / sigma;
    blas.axpy(alpha, p, x_dev);
    blas.axpy(-alpha, q, r);
    blas.axpy(-conjugate(alpha), qt, rt);
    rho_old = rho;
    rel = blas.nrm2(r) / bnorm;
    outcome = stop(it, rel);
  }
  PMOM_CHECKED(cudaDeviceSynchronize);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  result.outcome = *outcome;
  result.iterations = it;
  result.recurrence_residual = rel;
  result.true_residual = residual();
  x_dev.download(std::span<T>{x});
  return result;
}

bool baseline_available() { return true; }

template BaselineResult baseline_bicg<double>(const Csr<double>&, std::span<const double>,
                                              std::vector<double>&, const SolverOptions&);
template BaselineResult baseline_bicg<std::complex<double>>(
    const Csr<std::complex<double>>&, std::span<const std::complex<double>>,
    std::vector<std::complex<double>>&, const SolverOptions&);

}  // namespace pmom::bench
