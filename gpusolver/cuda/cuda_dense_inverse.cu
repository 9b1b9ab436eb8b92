// Backend<T>::make_dense_inverse on the device: cuSOLVER's LU (getrf) where the matrix lives,
// the explicit inverse by getrs on the identity, and an operator multiplying by it with cuBLAS's
// gemm on the stream the solver gives (so that it is captured into the solver's graph); and
// Backend<T>::solve_dense: the same LU, getrs on the right-hand sides themselves; and
// Backend<T>::fold_dense, which readies a mirror-symmetric matrix's halves for it.
#include <cublas_v2.h>
#include <cusolverDn.h>

#include <algorithm>
#include <memory>
#include <type_traits>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_backend.hpp"
#include "cuda_error.hpp"
#include "cuda_library_error.hpp"

namespace pmom::cuda {
namespace {

// cuSOLVER's and cuBLAS's routines for each device value type.
cusolverStatus_t getrf_work(cusolverDnHandle_t h, int n, float* a, int* lwork) {
  return cusolverDnSgetrf_bufferSize(h, n, n, a, n, lwork);
}
cusolverStatus_t getrf_work(cusolverDnHandle_t h, int n, double* a, int* lwork) {
  return cusolverDnDgetrf_bufferSize(h, n, n, a, n, lwork);
}
cusolverStatus_t getrf_work(cusolverDnHandle_t h, int n, fcomplex* a, int* lwork) {
  return cusolverDnCgetrf_bufferSize(h, n, n, reinterpret_cast<cuComplex*>(a), n, lwork);
}
cusolverStatus_t getrf_work(cusolverDnHandle_t h, int n, dcomplex* a, int* lwork) {
  return cusolverDnZgetrf_bufferSize(h, n, n, reinterpret_cast<cuDoubleComplex*>(a), n, lwork);
}
cusolverStatus_t getrf(cusolverDnHandle_t h, int n, float* a, float* work, int* p, int* info) {
  return cusolverDnSgetrf(h, n, n, a, n, work, p, info);
}
cusolverStatus_t getrf(cusolverDnHandle_t h, int n, double* a, double* work, int* p, int* info) {
  return cusolverDnDgetrf(h, n, n, a, n, work, p, info);
}
cusolverStatus_t getrf(cusolverDnHandle_t h, int n, fcomplex* a, fcomplex* work, int* p,
                       int* info) {
  return cusolverDnCgetrf(h, n, n, reinterpret_cast<cuComplex*>(a), n,
                          reinterpret_cast<cuComplex*>(work), p, info);
}
cusolverStatus_t getrf(cusolverDnHandle_t h, int n, dcomplex* a, dcomplex* work, int* p,
                       int* info) {
  return cusolverDnZgetrf(h, n, n, reinterpret_cast<cuDoubleComplex*>(a), n,
                          reinterpret_cast<cuDoubleComplex*>(work), p, info);
}
cusolverStatus_t getrs(cusolverDnHandle_t h, int n, int k, const float* a, const int* p, float* b,
                       int* info) {
  return cusolverDnSgetrs(h, CUBLAS_OP_N, n, k, a, n, p, b, n, info);
}
cusolverStatus_t getrs(cusolverDnHandle_t h, int n, int k, const double* a, const int* p,
                       double* b, int* info) {
  return cusolverDnDgetrs(h, CUBLAS_OP_N, n, k, a, n, p, b, n, info);
}
cusolverStatus_t getrs(cusolverDnHandle_t h, int n, int k, const fcomplex* a, const int* p,
                       fcomplex* b, int* info) {
  return cusolverDnCgetrs(h, CUBLAS_OP_N, n, k, reinterpret_cast<const cuComplex*>(a), n, p,
                          reinterpret_cast<cuComplex*>(b), n, info);
}
cusolverStatus_t getrs(cusolverDnHandle_t h, int n, int k, const dcomplex* a, const int* p,
                       dcomplex* b, int* info) {
  return cusolverDnZgetrs(h, CUBLAS_OP_N, n, k, reinterpret_cast<const cuDoubleComplex*>(a), n,
                          p, reinterpret_cast<cuDoubleComplex*>(b), n, info);
}
// y = alpha A x + beta y, A n x n, x and y n x k, all column-major.
cublasStatus_t gemm(cublasHandle_t h, int n, int k, const float* alpha, const float* a,
                    const float* x, const float* beta, float* y) {
  return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, k, n, alpha, a, n, x, n, beta, y, n);
}
cublasStatus_t gemm(cublasHandle_t h, int n, int k, const double* alpha, const double* a,
                    const double* x, const double* beta, double* y) {
  return cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, k, n, alpha, a, n, x, n, beta, y, n);
}
cublasStatus_t gemm(cublasHandle_t h, int n, int k, const fcomplex* alpha, const fcomplex* a,
                    const fcomplex* x, const fcomplex* beta, fcomplex* y) {
  return cublasCgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, k, n,
                     reinterpret_cast<const cuComplex*>(alpha), reinterpret_cast<const cuComplex*>(a),
                     n, reinterpret_cast<const cuComplex*>(x), n,
                     reinterpret_cast<const cuComplex*>(beta), reinterpret_cast<cuComplex*>(y), n);
}
cublasStatus_t gemm(cublasHandle_t h, int n, int k, const dcomplex* alpha, const dcomplex* a,
                    const dcomplex* x, const dcomplex* beta, dcomplex* y) {
  return cublasZgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, k, n,
                     reinterpret_cast<const cuDoubleComplex*>(alpha),
                     reinterpret_cast<const cuDoubleComplex*>(a), n,
                     reinterpret_cast<const cuDoubleComplex*>(x), n,
                     reinterpret_cast<const cuDoubleComplex*>(beta),
                     reinterpret_cast<cuDoubleComplex*>(y), n);
}

template <class D> __global__ void identity_kernel(long long n, D* a) {
  const long long k = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < n * n) a[k] = k % (n + 1) == 0 ? from_real<D>(1) : zero<D>();
}

// cuSOLVER's info: < 0 a bad argument (a bug here), > 0 the LU's first zero pivot.
template <class T>
void check_info(Backend<T>& be, const Block<int>& info, const char* call, const char* who) {
  const int i = be.download(info)[0];
  if (i < 0)
    throw std::logic_error(std::string(call) + ": argument " + std::to_string(-i) + " is invalid");
  if (i > 0)
    throw std::runtime_error(std::string(who) + ": the matrix is singular (" + std::string(call) +
                             " found pivot " + std::to_string(i) + " zero)");
}

// A's LU in place (cuSOLVER on `stream`), its pivots returned; throws as check_info.
template <class T>
Block<int> factor_in_place(Backend<T>& be, cusolverDnHandle_t h, Block<T>& a, Block<int>& info,
                           const char* who) {
  const int n = static_cast<int>(a.rows());
  int lwork = 0;
  check_cusolver(getrf_work(h, n, dev(a.data()), &lwork), "getrf_bufferSize");
  Block<T> work = be.template allocate<T>(std::max(lwork, 1), 1);
  Block<int> pivots = be.template allocate<int>(n, 1);
  check_cusolver(getrf(h, n, dev(a.data()), dev(work.data()), pivots.data(), info.data()),
                 "getrf");
  check_info(be, info, "getrf", who);
  return pivots;
}

// A cuSOLVER handle on `stream`, destroyed with its owner.
using SolverHandle =
    std::unique_ptr<std::remove_pointer_t<cusolverDnHandle_t>, decltype(&cusolverDnDestroy)>;
SolverHandle solver_on(cudaStream_t stream) {
  cusolverDnHandle_t raw = nullptr;
  check_cusolver(cusolverDnCreate(&raw), "cusolverDnCreate");
  SolverHandle h(raw, &cusolverDnDestroy);
  check_cusolver(cusolverDnSetStream(raw, stream), "cusolverDnSetStream");
  return h;
}

// What the operator holds: the inverse and a cuBLAS handle whose workspace is its own, so that
// gemm allocates nothing while a graph is captured.
template <class T> struct DenseInverse {
  Block<T> inverse;
  std::shared_ptr<void> workspace;
  std::unique_ptr<std::remove_pointer_t<cublasHandle_t>, decltype(&cublasDestroy)> handle{
      nullptr, &cublasDestroy};
};
constexpr std::size_t kCublasWorkspace = std::size_t{32} << 20;  // Hopper's recommended size

}  // namespace

template <class T>
std::shared_ptr<const Operator<T>> launch_dense_inverse(Backend<T>& be, Block<T> a,
                                                        cudaStream_t stream) {
  using D = device_t<T>;
  const int n = static_cast<int>(a.rows());
  auto state = std::make_shared<DenseInverse<T>>();
  {
    const SolverHandle h = solver_on(stream);
    Block<int> info = be.template allocate<int>(1, 1);
    const Block<int> pivots = factor_in_place(be, h.get(), a, info, "make_dense_inverse");
    state->inverse = be.template allocate<T>(n, n);
    const long long total = static_cast<long long>(n) * n;
    constexpr int threads = 256;
    identity_kernel<D><<<static_cast<unsigned>((total + threads - 1) / threads), threads, 0,
                         stream>>>(n, dev(state->inverse.data()));
    PMOM_CUDA_LAUNCHED("identity_kernel");
    check_cusolver(getrs(h.get(), n, n, dev(a.data()), pivots.data(),
                         dev(state->inverse.data()), info.data()),
                   "getrs");
    check_info(be, info, "getrs", "make_dense_inverse");  // waits: the factor in `a` may go
  }
  cublasHandle_t raw = nullptr;
  check_cublas(cublasCreate(&raw), "cublasCreate");
  state->handle.reset(raw);
  state->workspace = be.allocate_bytes(kCublasWorkspace);
  check_cublas(cublasSetWorkspace(raw, state->workspace.get(), kCublasWorkspace),
               "cublasSetWorkspace");
  return std::make_shared<FunctionOperator<T>>(
      a.rows(),
      [state, n](const T* x, T* y, index_t columns, T alpha, T beta, void* on) {
        cublasHandle_t h = state->handle.get();
        check_cublas(cublasSetStream(h, static_cast<cudaStream_t>(on)), "cublasSetStream");
        const D da = to_device(alpha), db = to_device(beta);
        check_cublas(gemm(h, n, static_cast<int>(columns), &da, dev(state->inverse.data()),
                          dev(x), &db, dev(y)),
                     "gemm");
      },
      std::vector<T>{}, static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
}

template <class T>
void launch_dense_solve(Backend<T>& be, Block<T> a, Block<T>& b, cudaStream_t stream) {
  const SolverHandle h = solver_on(stream);
  Block<int> info = be.template allocate<int>(1, 1);
  const Block<int> pivots = factor_in_place(be, h.get(), a, info, "solve_dense");
  check_cusolver(getrs(h.get(), static_cast<int>(a.rows()), static_cast<int>(b.cols()),
                       dev(a.data()), pivots.data(), dev(b.data()), info.data()),
                 "getrs");
  check_info(be, info, "getrs", "solve_dense");  // waits: `a` may go
}

// One thread per entry, q fastest: a warp reads one column of a at ascending rows.
template <class D, class R>
__global__ void fold_dense_kernel(const D* a, long long n, const index_t* kept,
                                  const index_t* partner, const R* weight, long long k, D* out) {
  const long long q = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (q >= k) return;
  const long long row = kept[q];
  for (long long p = blockIdx.y; p < k; p += gridDim.y) {
    D v = a[row + n * kept[p]];
    const index_t j = partner[p];
    if (j >= 0) v = v + weight[p] * a[row + n * j];
    out[q + k * p] = v;
  }
}

template <class T>
void launch_fold_dense(const T* a, index_t n, const index_t* kept, const index_t* partner,
                       const real_t<T>* weight, index_t k, T* out, cudaStream_t stream) {
  if (k == 0) return;
  using D = device_t<T>;
  constexpr int block = 256;
  const dim3 grid(static_cast<unsigned>((k + block - 1) / block),
                  static_cast<unsigned>(std::min<index_t>(k, 65535)));
  fold_dense_kernel<<<grid, block, 0, stream>>>(reinterpret_cast<const D*>(a), n, kept, partner,
                                                weight, k, reinterpret_cast<D*>(out));
  PMOM_CUDA(cudaGetLastError());
}

// One thread per row and column.
template <class D, class R>
__global__ void combine_rows_kernel(const D* x, long long x_rows, const index_t* i1, const R* c1,
                                    const index_t* i2, const R* c2, D* out, long long rows,
                                    long long columns, D alpha, D beta) {
  const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= rows * columns) return;
  const long long r = t % rows, col = t / rows;
  const D* xc = x + col * x_rows;
  D v = D{};
  if (i1[r] >= 0) v = v + c1[r] * xc[i1[r]];
  if (i2[r] >= 0) v = v + c2[r] * xc[i2[r]];
  D& o = out[t];
  o = beta == D{} ? alpha * v : alpha * v + beta * o;
}

template <class T>
void launch_combine_rows(const T* x, index_t x_rows, const index_t* i1, const real_t<T>* c1,
                         const index_t* i2, const real_t<T>* c2, T* out, index_t rows,
                         index_t columns, T alpha, T beta, cudaStream_t stream) {
  const long long total = static_cast<long long>(rows) * columns;
  if (total == 0) return;
  using D = device_t<T>;
  constexpr int block = 256;
  combine_rows_kernel<<<static_cast<unsigned>((total + block - 1) / block), block, 0, stream>>>(
      reinterpret_cast<const D*>(x), x_rows, i1, c1, i2, c2, reinterpret_cast<D*>(out), rows,
      columns, to_device(alpha), to_device(beta));
  PMOM_CUDA(cudaGetLastError());
}

#define PMOM_INSTANTIATE(T)                                                                   \
  template void launch_combine_rows(const T*, index_t, const index_t*, const real_t<T>*,      \
                                    const index_t*, const real_t<T>*, T*, index_t, index_t,   \
                                    T, T, cudaStream_t);                                     \
  template std::shared_ptr<const Operator<T>> launch_dense_inverse(Backend<T>&, Block<T>,    \
                                                                   cudaStream_t);             \
  template void launch_dense_solve(Backend<T>&, Block<T>, Block<T>&, cudaStream_t);         \
  template void launch_fold_dense(const T*, index_t, const index_t*, const index_t*,          \
                                  const real_t<T>*, index_t, T*, cudaStream_t);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

}  // namespace pmom::cuda
