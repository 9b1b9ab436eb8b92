// The CUDA backend's vector kernels: dots and norms, and the fused BiCG-family and BiCGSTAB
// steps of backend.hpp, each one pass over the vectors with its reductions finished in the
// same launch (two-stage, deterministic) so scalars never leave the device.
#include "cuda_backend.hpp"
#include "cuda_error.hpp"

namespace pmom::cuda {
namespace {

using Grid = dim3;

Grid vector_grid(index_t n, index_t k, const ReduceScratch& s) {
  const int blocks = static_cast<int>((static_cast<long long>(n) + vector_block - 1) / vector_block);
  return Grid(static_cast<unsigned>(std::max(1, std::min(blocks, s.max_blocks))),
              static_cast<unsigned>(k));
}

void check_columns(index_t k, const ReduceScratch& s) {
  if (k > s.max_columns)
    throw std::invalid_argument("CUDA backend: " + std::to_string(k) +
                                " right-hand sides in one block, at most " +
                                std::to_string(s.max_columns));
}

// An accumulator's parts moved down a warp, and read past L1 (other blocks wrote them).
template <class R> __device__ PlainSum<R> shfl_down(PlainSum<R> a, int off) {
  return {__shfl_down_sync(0xffffffffu, a.sum, off)};
}
template <class R> __device__ CompensatedSum<R> shfl_down(CompensatedSum<R> a, int off) {
  return {__shfl_down_sync(0xffffffffu, a.sum, off), __shfl_down_sync(0xffffffffu, a.error, off)};
}
template <class R> __device__ PlainSum<R> load_cg(const PlainSum<R>* p) { return {__ldcg(&p->sum)}; }
template <class R> __device__ CompensatedSum<R> load_cg(const CompensatedSum<R>* p) {
  return {__ldcg(&p->sum), __ldcg(&p->error)};
}

// Block-wide sum of NV accumulators, then the two-stage finish. Every thread of the block
// must call it. Returns true in thread 0 of the last block, where `total` then holds the sums
// over the whole grid for this column.
template <class Acc, int NV>
__device__ bool reduce_and_finish(Acc (&v)[NV], const ReduceScratch& s, Acc (&total)[NV]) {
  static_assert(sizeof(Acc) <= ReduceScratch::max_accumulator_bytes);
  __shared__ Acc warp_sums[vector_block / 32][NV];
  __shared__ bool is_last;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  auto block_sum = [&](Acc (&x)[NV]) {
#pragma unroll
    for (int i = 0; i < NV; ++i)
      for (int off = 16; off > 0; off >>= 1) x[i].merge(shfl_down(x[i], off));
    if (lane == 0)
#pragma unroll
      for (int i = 0; i < NV; ++i) warp_sums[warp][i] = x[i];
    __syncthreads();
    if (threadIdx.x == 0)
#pragma unroll
      for (int i = 0; i < NV; ++i) {
        Acc t{};
        for (int w = 0; w < vector_block / 32; ++w) t.merge(warp_sums[w][i]);
        x[i] = t;
      }
  };
  block_sum(v);
  const unsigned column = blockIdx.y;
  Acc* partials = static_cast<Acc*>(s.partials) +
                  static_cast<std::size_t>(column) * s.max_blocks * s.max_values;
  if (threadIdx.x == 0) {
#pragma unroll
    for (int i = 0; i < NV; ++i) partials[blockIdx.x * s.max_values + i] = v[i];
    __threadfence();
    is_last = atomicAdd(&s.tickets[column], 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!is_last) return false;
  __threadfence();
  Acc mine[NV] = {};
  for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x)
#pragma unroll
    for (int i = 0; i < NV; ++i) mine[i].merge(load_cg(&partials[b * s.max_values + i]));
  __syncthreads();  // warp_sums is reused
  block_sum(mine);
  if (threadIdx.x != 0) return false;
  s.tickets[column] = 0;
#pragma unroll
  for (int i = 0; i < NV; ++i) total[i] = mine[i];
  return true;
}

// Adds v's parts (one real, or real and imaginary) into acc[0...].
template <class Acc, int N, class D> __device__ void add_parts(Acc (&acc)[N], D v) {
#pragma unroll
  for (int i = 0; i < parts_v<D>; ++i) acc[i].add(part(v, i));
}
// The value whose parts total[at...] hold.
template <class D, class Acc, int N> __device__ D value_at(const Acc (&total)[N], int at) {
  real_of_t<D> p[parts_v<D>];
#pragma unroll
  for (int i = 0; i < parts_v<D>; ++i) p[i] = total[at + i].value();
  return from_parts<D>(p);
}

#define PMOM_GRID_STRIDE(i, n)                                                    \
  for (index_t i = blockIdx.x * blockDim.x + threadIdx.x; i < (n);               \
       i += static_cast<index_t>(gridDim.x * blockDim.x))

template <class Acc, class D, int P = parts_v<D>>
__global__ void __launch_bounds__(vector_block)
dot_kernel(index_t n, const D* x, const D* y, D* out, bool conjugated, ReduceScratch s) {
  const std::size_t off = static_cast<std::size_t>(blockIdx.y) * n;
  Acc acc[P] = {};
  PMOM_GRID_STRIDE(i, n) {
    const D xi = load_ro(x + off + i);
    add_parts(acc, (conjugated ? conj(xi) : xi) * load_ro(y + off + i));
  }
  Acc total[P];
  if (reduce_and_finish(acc, s, total)) out[blockIdx.y] = value_at<D>(total, 0);
}

template <class Acc, class D>
__global__ void __launch_bounds__(vector_block)
norm2_kernel(index_t n, const D* x, real_of_t<D>* out, ReduceScratch s) {
  const std::size_t off = static_cast<std::size_t>(blockIdx.y) * n;
  Acc acc[1] = {};
  PMOM_GRID_STRIDE(i, n) acc[0].add(abs2(load_ro(x + off + i)));
  Acc total[1];
  if (reduce_and_finish(acc, s, total)) out[blockIdx.y] = total[0].value();
}

// r̃ᴴ M⁻¹ r term of row i for each shadow mode (r̃ = rt, conj(r) or r).
template <Shadow S, class D> __device__ D rho_term(D rt, D r, D d) {
  if constexpr (S == Shadow::explicit_vectors) return conj(rt) * (d * r);
  else if constexpr (S == Shadow::conjugate) return r * (d * r);
  else return conj(r) * (d * r);
}

template <class D> struct BicgArgs {
  index_t n;
  const D* d;
  D *x, *r, *rt, *p, *pt, *q, *qt;
  D *rho, *rho_old, *sigma;
  real_of_t<D>* rnorm2;
  int* status;
};

template <Shadow S, class Acc, class D, int P = parts_v<D>>
__global__ void __launch_bounds__(vector_block) bicg_reduce_kernel(BicgArgs<D> a, ReduceScratch s) {
  const index_t k = blockIdx.y;
  if (a.status[k] != rhs_running) return;
  const std::size_t off = static_cast<std::size_t>(k) * a.n;
  Acc acc[P + 1] = {};
  PMOM_GRID_STRIDE(i, a.n) {
    const D r = a.r[off + i];
    D rt = r;
    if constexpr (S == Shadow::explicit_vectors) rt = a.rt[off + i];
    add_parts(acc, rho_term<S>(rt, r, load_ro(a.d + i)));
    acc[P].add(abs2(r));
  }
  Acc total[P + 1];
  if (reduce_and_finish(acc, s, total)) {
    a.rho[k] = value_at<D>(total, 0);
    a.rnorm2[k] = total[P].value();
  }
}

template <Shadow S, class D>
__global__ void __launch_bounds__(vector_block) bicg_directions_kernel(BicgArgs<D> a) {
  const index_t k = blockIdx.y;
  if (a.status[k] != rhs_running) return;
  const D rho = a.rho[k];
  if (rho == zero<D>()) {  // every block sees it; one writes the flag
    if (blockIdx.x == 0 && threadIdx.x == 0) a.status[k] = rhs_breakdown_rho;
    return;
  }
  const D beta = rho / a.rho_old[k];
  const std::size_t off = static_cast<std::size_t>(k) * a.n;
  PMOM_GRID_STRIDE(i, a.n) {
    const D d = load_ro(a.d + i);
    a.p[off + i] = d * a.r[off + i] + beta * a.p[off + i];
    if constexpr (S == Shadow::explicit_vectors)
      a.pt[off + i] = conj(d) * a.rt[off + i] + conj(beta) * a.pt[off + i];
  }
}

template <Shadow S, class Acc, class D, int P = parts_v<D>>
__global__ void __launch_bounds__(vector_block) bicg_update_kernel(BicgArgs<D> a, ReduceScratch s) {
  const index_t k = blockIdx.y;
  if (a.status[k] != rhs_running) return;
  const D sigma = a.sigma[k];
  if (sigma == zero<D>()) {
    if (blockIdx.x == 0 && threadIdx.x == 0) a.status[k] = rhs_breakdown_sigma;
    return;
  }
  // Every block reads rho before it reaches the ticket, so the last block may overwrite it.
  const D alpha = a.rho[k] / sigma;
  const std::size_t off = static_cast<std::size_t>(k) * a.n;
  Acc acc[P + 1] = {};
  PMOM_GRID_STRIDE(i, a.n) {
    a.x[off + i] = a.x[off + i] + alpha * a.p[off + i];
    const D r = a.r[off + i] - alpha * a.q[off + i];
    a.r[off + i] = r;
    D rt = r;
    if constexpr (S == Shadow::explicit_vectors) {
      rt = a.rt[off + i] - conj(alpha) * a.qt[off + i];
      a.rt[off + i] = rt;
    }
    add_parts(acc, rho_term<S>(rt, r, load_ro(a.d + i)));
    acc[P].add(abs2(r));
  }
  Acc total[P + 1];
  if (reduce_and_finish(acc, s, total)) {
    a.rho_old[k] = a.rho[k];
    a.rho[k] = value_at<D>(total, 0);
    a.rnorm2[k] = total[P].value();
  }
}

template <class D> struct StabArgs {
  index_t n;
  const D* d;
  D *x, *r, *rhat, *p, *phat, *v, *s, *shat, *t;
  D *rho, *rho_old, *alpha, *omega, *rhat_v, *t_s, *t_t;
  real_of_t<D>* rnorm2;
  int* status;
};

// Precond: p̂ = M⁻¹p and ŝ = M⁻¹s are separate vectors; without it they are p and s themselves.
template <bool Precond, class D>
__global__ void __launch_bounds__(vector_block) bicgstab_directions_kernel(StabArgs<D> a) {
  const index_t k = blockIdx.y;
  if (a.status[k] != rhs_running) return;
  const D rho = a.rho[k];
  if (rho == zero<D>()) {
    if (blockIdx.x == 0 && threadIdx.x == 0) a.status[k] = rhs_breakdown_rho;
    return;
  }
  const D beta = (rho / a.rho_old[k]) * (a.alpha[k] / a.omega[k]);
  const D omega = a.omega[k];
  const std::size_t off = static_cast<std::size_t>(k) * a.n;
  PMOM_GRID_STRIDE(i, a.n) {
    const D p = a.r[off + i] + beta * (a.p[off + i] - omega * a.v[off + i]);
    a.p[off + i] = p;
    if constexpr (Precond) a.phat[off + i] = load_ro(a.d + i) * p;
  }
}

template <bool Precond, class D>
__global__ void __launch_bounds__(vector_block) bicgstab_half_step_kernel(StabArgs<D> a) {
  const index_t k = blockIdx.y;
  if (a.status[k] != rhs_running) return;
  const D rv = a.rhat_v[k];
  if (rv == zero<D>()) {
    if (blockIdx.x == 0 && threadIdx.x == 0) a.status[k] = rhs_breakdown_sigma;
    return;
  }
  const D alpha = a.rho[k] / rv;
  if (blockIdx.x == 0 && threadIdx.x == 0) a.alpha[k] = alpha;  // no block reads it here
  const std::size_t off = static_cast<std::size_t>(k) * a.n;
  PMOM_GRID_STRIDE(i, a.n) {
    const D s = a.r[off + i] - alpha * a.v[off + i];
    a.s[off + i] = s;
    if constexpr (Precond) a.shat[off + i] = load_ro(a.d + i) * s;
  }
}

template <class Acc, class D, int P = parts_v<D>>
__global__ void __launch_bounds__(vector_block) bicgstab_omega_dots_kernel(StabArgs<D> a, ReduceScratch s) {
  const index_t k = blockIdx.y;
  if (a.status[k] != rhs_running) return;
  const std::size_t off = static_cast<std::size_t>(k) * a.n;
  Acc acc[P + 1] = {};
  PMOM_GRID_STRIDE(i, a.n) {
    const D t = load_ro(a.t + off + i);
    add_parts(acc, conj(t) * load_ro(a.s + off + i));
    acc[P].add(abs2(t));
  }
  Acc total[P + 1];
  if (reduce_and_finish(acc, s, total)) {
    a.t_s[k] = value_at<D>(total, 0);
    a.t_t[k] = from_real<D>(total[P].value());
  }
}

template <bool Precond, class Acc, class D, int P = parts_v<D>>
__global__ void __launch_bounds__(vector_block) bicgstab_update_kernel(StabArgs<D> a, ReduceScratch s) {
  const index_t k = blockIdx.y;
  if (a.status[k] != rhs_running) return;
  const D tt = a.t_t[k];
  const D omega = tt == zero<D>() ? zero<D>() : a.t_s[k] / tt;
  const D alpha = a.alpha[k];
  const std::size_t off = static_cast<std::size_t>(k) * a.n;
  Acc acc[P + 1] = {};
  PMOM_GRID_STRIDE(i, a.n) {
    const D si = a.s[off + i];  // ŝ is s itself without a preconditioner: one load serves both
    const D shat = Precond ? a.shat[off + i] : si;
    a.x[off + i] = a.x[off + i] + alpha * a.phat[off + i] + omega * shat;
    const D r = si - omega * a.t[off + i];
    a.r[off + i] = r;
    add_parts(acc, conj(load_ro(a.rhat + off + i)) * r);
    acc[P].add(abs2(r));
  }
  Acc total[P + 1];
  if (reduce_and_finish(acc, s, total)) {
    a.omega[k] = omega;
    a.rho_old[k] = a.rho[k];
    a.rho[k] = value_at<D>(total, 0);
    a.rnorm2[k] = total[P].value();
    // ω = 0 from a non-zero tᴴt stalls the method: the update above is kept, the column ends.
    if (omega == zero<D>() && !(tt == zero<D>())) a.status[k] = rhs_breakdown_omega;
  }
}

template <class T> device_t<T>* ptr(Block<T>* b) { return b ? dev(b->data()) : nullptr; }

template <class T> void require(const Block<T>* b, const char* what, index_t rows, index_t cols) {
  if (!b) throw std::invalid_argument(std::string("CUDA backend: missing block ") + what);
  if (b->rows() != rows || b->cols() != cols)
    throw std::invalid_argument(std::string("CUDA backend: block ") + what + " is " +
                                std::to_string(b->rows()) + " x " + std::to_string(b->cols()) +
                                ", expected " + std::to_string(rows) + " x " +
                                std::to_string(cols));
}

template <class U> using Named = std::pair<const Block<U>*, const char*>;
template <class U>
void require_all(std::initializer_list<Named<U>> blocks, index_t rows, index_t cols) {
  for (const auto& [b, name] : blocks) require(b, name, rows, cols);
}

template <class T> BicgArgs<device_t<T>> make_bicg_args(BicgVectors<T>& v) {
  const index_t n = v.r ? v.r->rows() : 0, k = v.r ? v.r->cols() : 0;
  require(v.r, "r", n, k);
  require(v.inv_diag, "inv_diag", n, 1);
  require_all<T>({{v.x, "x"}, {v.p, "p"}, {v.q, "q"}}, n, k);
  if (v.shadow == Shadow::explicit_vectors)
    require_all<T>({{v.rt, "rt"}, {v.pt, "pt"}, {v.qt, "qt"}}, n, k);
  require_all<T>({{v.rho, "rho"}, {v.rho_old, "rho_old"}, {v.sigma, "sigma"}}, 1, k);
  require(v.rnorm2, "rnorm2", 1, k);
  require(v.status, "status", 1, k);
  return {n, dev(v.inv_diag->data()), ptr(v.x), ptr(v.r), ptr(v.rt), ptr(v.p), ptr(v.pt),
          ptr(v.q), ptr(v.qt), ptr(v.rho), ptr(v.rho_old), ptr(v.sigma), v.rnorm2->data(),
          v.status->data()};
}

template <class T> StabArgs<device_t<T>> make_stab_args(BicgstabVectors<T>& v) {
  const index_t n = v.r ? v.r->rows() : 0, k = v.r ? v.r->cols() : 0;
  require(v.r, "r", n, k);
  if (v.inv_diag) require(v.inv_diag, "inv_diag", n, 1);
  require_all<T>({{v.x, "x"}, {v.rhat, "rhat"}, {v.p, "p"}, {v.phat, "phat"}, {v.v, "v"},
                  {v.s, "s"}, {v.shat, "shat"}, {v.t, "t"}},
                 n, k);
  if (!v.inv_diag && (v.phat->data() != v.p->data() || v.shat->data() != v.s->data()))
    throw std::invalid_argument("CUDA backend: BiCGSTAB without a preconditioner needs phat = p "
                                "and shat = s (the same blocks)");
  require_all<T>({{v.rho, "rho"}, {v.rho_old, "rho_old"}, {v.alpha, "alpha"}, {v.omega, "omega"},
                  {v.rhat_v, "rhat_v"}, {v.t_s, "t_s"}, {v.t_t, "t_t"}},
                 1, k);
  require(v.rnorm2, "rnorm2", 1, k);
  require(v.status, "status", 1, k);
  return {n, v.inv_diag ? dev(v.inv_diag->data()) : nullptr, ptr(v.x), ptr(v.r), ptr(v.rhat),
          ptr(v.p), ptr(v.phat), ptr(v.v), ptr(v.s), ptr(v.shat), ptr(v.t), ptr(v.rho),
          ptr(v.rho_old), ptr(v.alpha), ptr(v.omega), ptr(v.rhat_v), ptr(v.t_s), ptr(v.t_t),
          v.rnorm2->data(), v.status->data()};
}

// Calls f with the shadow mode as a compile-time constant.
template <class F> void with_shadow(Shadow s, F&& f) {
  switch (s) {
    case Shadow::explicit_vectors: f(std::integral_constant<Shadow, Shadow::explicit_vectors>{}); break;
    case Shadow::conjugate: f(std::integral_constant<Shadow, Shadow::conjugate>{}); break;
    case Shadow::same: f(std::integral_constant<Shadow, Shadow::same>{}); break;
  }
}

// Calls f with the shadow mode as a compile-time constant and the accumulator of v.summation.
template <class T, class F> void with_shadow_and_summation(const BicgVectors<T>& v, F&& f) {
  with_shadow(v.shadow, [&](auto mode) {
    with_summation<real_t<T>>(v.summation, [&](auto acc) { f(mode, acc); });
  });
}

// Calls f with whether a preconditioner is applied, as a compile-time constant.
template <class F> void with_precond(bool precond, F&& f) {
  if (precond) f(std::true_type{});
  else f(std::false_type{});
}

}  // namespace

template <class T>
void launch_dot(const Block<T>& x, const Block<T>& y, Block<T>& out, bool conjugated,
                Summation summation, const ReduceScratch& s, cudaStream_t stream) {
  require(&y, "y", x.rows(), x.cols());
  require(&out, "out", 1, x.cols());
  check_columns(x.cols(), s);
  if (x.cols() == 0) return;
  with_summation<real_t<T>>(summation, [&](auto acc) {
    dot_kernel<decltype(acc)><<<vector_grid(x.rows(), x.cols(), s), vector_block, 0, stream>>>(
        x.rows(), dev(x.data()), dev(y.data()), dev(out.data()), conjugated, s);
  });
  PMOM_CUDA_LAUNCHED("dot_kernel");
}

template <class T>
void launch_norm2(const Block<T>& x, Block<real_t<T>>& out, Summation summation,
                  const ReduceScratch& s, cudaStream_t stream) {
  require(&out, "out", 1, x.cols());
  check_columns(x.cols(), s);
  if (x.cols() == 0) return;
  with_summation<real_t<T>>(summation, [&](auto acc) {
    norm2_kernel<decltype(acc)><<<vector_grid(x.rows(), x.cols(), s), vector_block, 0, stream>>>(
        x.rows(), dev(x.data()), out.data(), s);
  });
  PMOM_CUDA_LAUNCHED("norm2_kernel");
}

template <class T> void launch_bicg_reduce(BicgVectors<T>& v, const ReduceScratch& s, cudaStream_t stream) {
  const auto a = make_bicg_args(v);
  check_columns(v.r->cols(), s);
  with_shadow_and_summation<T>(v, [&](auto mode, auto acc) {
    bicg_reduce_kernel<decltype(mode)::value, decltype(acc)>
        <<<vector_grid(a.n, v.r->cols(), s), vector_block, 0, stream>>>(a, s);
  });
  PMOM_CUDA_LAUNCHED("bicg_reduce_kernel");
}

template <class T> void launch_bicg_directions(BicgVectors<T>& v, const ReduceScratch& s, cudaStream_t stream) {
  const auto a = make_bicg_args(v);
  check_columns(v.r->cols(), s);
  with_shadow(v.shadow, [&](auto mode) {
    bicg_directions_kernel<decltype(mode)::value>
        <<<vector_grid(a.n, v.r->cols(), s), vector_block, 0, stream>>>(a);
  });
  PMOM_CUDA_LAUNCHED("bicg_directions_kernel");
}

template <class T> void launch_bicg_update(BicgVectors<T>& v, const ReduceScratch& s, cudaStream_t stream) {
  const auto a = make_bicg_args(v);
  check_columns(v.r->cols(), s);
  with_shadow_and_summation<T>(v, [&](auto mode, auto acc) {
    bicg_update_kernel<decltype(mode)::value, decltype(acc)>
        <<<vector_grid(a.n, v.r->cols(), s), vector_block, 0, stream>>>(a, s);
  });
  PMOM_CUDA_LAUNCHED("bicg_update_kernel");
}

template <class T> void launch_bicgstab_directions(BicgstabVectors<T>& v, const ReduceScratch& s, cudaStream_t stream) {
  const auto a = make_stab_args(v);
  check_columns(v.r->cols(), s);
  with_precond(a.d != nullptr, [&](auto precond) {
    bicgstab_directions_kernel<decltype(precond)::value>
        <<<vector_grid(a.n, v.r->cols(), s), vector_block, 0, stream>>>(a);
  });
  PMOM_CUDA_LAUNCHED("bicgstab_directions_kernel");
}

template <class T> void launch_bicgstab_half_step(BicgstabVectors<T>& v, const ReduceScratch& s, cudaStream_t stream) {
  const auto a = make_stab_args(v);
  check_columns(v.r->cols(), s);
  with_precond(a.d != nullptr, [&](auto precond) {
    bicgstab_half_step_kernel<decltype(precond)::value>
        <<<vector_grid(a.n, v.r->cols(), s), vector_block, 0, stream>>>(a);
  });
  PMOM_CUDA_LAUNCHED("bicgstab_half_step_kernel");
}

template <class T> void launch_bicgstab_omega_dots(BicgstabVectors<T>& v, const ReduceScratch& s, cudaStream_t stream) {
  const auto a = make_stab_args(v);
  check_columns(v.r->cols(), s);
  with_summation<real_t<T>>(v.summation, [&](auto acc) {
    bicgstab_omega_dots_kernel<decltype(acc)>
        <<<vector_grid(a.n, v.r->cols(), s), vector_block, 0, stream>>>(a, s);
  });
  PMOM_CUDA_LAUNCHED("bicgstab_omega_dots_kernel");
}

template <class T> void launch_bicgstab_update(BicgstabVectors<T>& v, const ReduceScratch& s, cudaStream_t stream) {
  const auto a = make_stab_args(v);
  check_columns(v.r->cols(), s);
  with_precond(a.d != nullptr, [&](auto precond) {
    with_summation<real_t<T>>(v.summation, [&](auto acc) {
      bicgstab_update_kernel<decltype(precond)::value, decltype(acc)>
          <<<vector_grid(a.n, v.r->cols(), s), vector_block, 0, stream>>>(a, s);
    });
  });
  PMOM_CUDA_LAUNCHED("bicgstab_update_kernel");
}

#define PMOM_INSTANTIATE(T)                                                                       \
  template void launch_dot(const Block<T>&, const Block<T>&, Block<T>&, bool, Summation,         \
                           const ReduceScratch&, cudaStream_t);                                   \
  template void launch_norm2(const Block<T>&, Block<real_t<T>>&, Summation,                      \
                             const ReduceScratch&, cudaStream_t);                                 \
  template void launch_bicg_reduce(BicgVectors<T>&, const ReduceScratch&, cudaStream_t);         \
  template void launch_bicg_directions(BicgVectors<T>&, const ReduceScratch&, cudaStream_t);     \
  template void launch_bicg_update(BicgVectors<T>&, const ReduceScratch&, cudaStream_t);         \
  template void launch_bicgstab_directions(BicgstabVectors<T>&, const ReduceScratch&,            \
                                           cudaStream_t);                                         \
  template void launch_bicgstab_half_step(BicgstabVectors<T>&, const ReduceScratch&,             \
                                          cudaStream_t);                                          \
  template void launch_bicgstab_omega_dots(BicgstabVectors<T>&, const ReduceScratch&,            \
                                           cudaStream_t);                                         \
  template void launch_bicgstab_update(BicgstabVectors<T>&, const ReduceScratch&, cudaStream_t);
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

}  // namespace pmom::cuda
