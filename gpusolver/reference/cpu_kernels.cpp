// Reductions and fused Krylov steps of the reference backend. Per-column scalars are read and
// breakdowns flagged on the host first; one sweep over the rows then updates the columns still
// running and gathers their reductions in the same pass.
#include "cpu_kernels.hpp"

#include <numeric>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "cpu_parallel.hpp"

namespace pmom::cpu {

namespace {

std::string dims(index_t rows, index_t cols) {
  return std::to_string(rows) + " x " + std::to_string(cols);
}

// Checks the blocks one kernel call touches: n x k vectors, 1 x k scalars, an n x 1 diagonal.
struct Extent {
  const char* kernel;
  index_t n;
  index_t k;

  template <class B> B& check(B* b, index_t rows, index_t cols, const char* name) const {
    const auto fail = [&](const std::string& problem) {
      throw std::invalid_argument(std::string(kernel) + ": block " + name + problem);
    };
    if (b == nullptr) fail(" not given");
    if (b->rows() != rows || b->cols() != cols)
      fail(" is " + dims(b->rows(), b->cols()) + ", expected " + dims(rows, cols));
    return *b;
  }
  template <class B> B& vector(B* b, const char* name) const { return check(b, n, k, name); }
  template <class B> auto* scalars(B* b, const char* name) const {
    return check(b, 1, k, name).data();
  }
  template <class B> auto* diagonal(B* b) const { return check(b, n, 1, "inv_diag").data(); }
  // BiCGSTAB's diagonal, or nullptr for no preconditioner, where p̂ and ŝ must be p and s.
  template <class T> const T* bicgstab_diagonal(const BicgstabVectors<T>& v) const {
    if (v.inv_diag) return diagonal(v.inv_diag);
    if (vector(v.phat, "phat").data() != vector(v.p, "p").data() ||
        vector(v.shat, "shat").data() != vector(v.s, "s").data())
      throw std::invalid_argument(std::string(kernel) + ": without a preconditioner phat must be "
                                  "p and shat must be s (the same blocks)");
    return nullptr;
  }
};

// n comes from the kernel's first vector, k from the status block.
template <class T>
Extent extent(const char* kernel, const Block<T>* first, const Block<int>* status) {
  if (first == nullptr || status == nullptr)
    throw std::invalid_argument(std::string(kernel) + ": vectors and status not given");
  return {kernel, first->rows(), status->cols()};
}

template <class F> void with_shadow(Shadow shadow, F&& f) {
  switch (shadow) {
    case Shadow::explicit_vectors:
      return f(std::integral_constant<Shadow, Shadow::explicit_vectors>{});
    case Shadow::conjugate: return f(std::integral_constant<Shadow, Shadow::conjugate>{});
    case Shadow::same: return f(std::integral_constant<Shadow, Shadow::same>{});
  }
  throw std::invalid_argument("unknown Shadow mode");
}

// The explicit shadow block, or nullptr where the mode derives r̃, p̃ from r, p.
template <Shadow S, class T>
Block<T>* shadow_block(const Extent& e, Block<T>* b, const char* name) {
  if constexpr (S == Shadow::explicit_vectors) return &e.vector(b, name);
  else return nullptr;
}

template <class T> T* column_or_null(Block<T>* b, index_t k) {
  return b == nullptr ? nullptr : b->column(k);
}

// One term of rho = r̃ᴴ M⁻¹ r: conj(r̃_i) d_i r_i with r̃ = rt, conj(r) or r.
template <Shadow S, class T> T rho_term(const T* rt, const T* r, const T* d, index_t i) {
  const T dr = d[i] * r[i];
  if constexpr (S == Shadow::explicit_vectors) return conjugate(rt[i]) * dr;
  else if constexpr (S == Shadow::conjugate) return r[i] * dr;
  else return conjugate(r[i]) * dr;
}

// The running columns that admit(k) lets through; admit flags a breakdown in status and
// returns false to keep that column out of the sweep.
template <class Admit> std::vector<index_t> running_columns(int* status, index_t k, Admit admit) {
  std::vector<index_t> active;
  for (index_t c = 0; c < k; ++c)
    if (status[c] == rhs_running && admit(c)) active.push_back(c);
  return active;
}

// The running columns whose divisor is non-zero, after `admit(k)` has used it; a zero divisor
// flags `breakdown` in status and keeps the column out of the sweep.
template <class T, class Admit>
std::vector<index_t> nonzero_divisor_columns(int* status, index_t k, const T* divisor,
                                             RhsStatus breakdown, Admit admit) {
  return running_columns(status, k, [&](index_t c) {
    if (divisor[c] == T(0)) {
      status[c] = breakdown;
      return false;
    }
    admit(c);
    return true;
  });
}

// Stores sweeps whose sums hold (Σ rho term, Σ |r_i|²): the layout of the fused updates.
// With rho_old given, the previous rho moves there first (the updates' rotation).
template <class T, std::size_t N>
void store_rho_rnorm2(const std::vector<index_t>& active,
                      const std::vector<std::array<real_t<T>, N>>& sums, T* rho,
                      real_t<T>* rnorm2, T* rho_old = nullptr) {
  for (std::size_t c = 0; c < active.size(); ++c) {
    if (rho_old) rho_old[active[c]] = rho[active[c]];
    rho[active[c]] = sum_at<T>(sums[c], 0);
    rnorm2[active[c]] = sums[c][parts<T>];
  }
}

}  // namespace

template <class T>
void VectorKernels<T>::dot(const Block<T>& x, const Block<T>& y, Block<T>& out, bool conjugated,
                           Summation summation) {
  const Extent e{"dot", x.rows(), x.cols()};
  e.vector(&y, "y");
  T* result = e.scalars(&out, "out");
  std::vector<index_t> all(static_cast<std::size_t>(e.k));
  std::iota(all.begin(), all.end(), 0);
  const auto run = [&]<bool Conj>(std::bool_constant<Conj>) {
    const auto sums = reduce_columns<real_t<T>, parts<T>>(summation, e.n, all, [&](index_t k) {
      return [xk = x.column(k), yk = y.column(k)](index_t i, auto& acc) {
        accumulate(acc, 0, (Conj ? conjugate(xk[i]) : xk[i]) * yk[i]);
      };
    });
    for (index_t k = 0; k < e.k; ++k) result[k] = sum_at<T>(sums[k], 0);
  };
  conjugated ? run(std::true_type{}) : run(std::false_type{});
}

template <class T>
void VectorKernels<T>::norm2_squared(const Block<T>& x, Block<real_t<T>>& out,
                                     Summation summation) {
  const Extent e{"norm2_squared", x.rows(), x.cols()};
  real_t<T>* result = e.scalars(&out, "out");
  std::vector<index_t> all(static_cast<std::size_t>(e.k));
  std::iota(all.begin(), all.end(), 0);
  const auto sums = reduce_columns<real_t<T>, 1>(summation, e.n, all, [&](index_t k) {
    return [xk = x.column(k)](index_t i, auto& acc) { acc[0].add(abs2(xk[i])); };
  });
  for (index_t k = 0; k < e.k; ++k) result[k] = sums[k][0];
}

template <class T> void VectorKernels<T>::bicg_reduce(BicgVectors<T>& v) {
  with_shadow(v.shadow, [&]<Shadow S>(std::integral_constant<Shadow, S>) {
    const Extent e = extent("bicg_reduce", v.r, v.status);
    const T* d = e.diagonal(v.inv_diag);
    Block<T>& r = e.vector(v.r, "r");
    Block<T>* rt = shadow_block<S>(e, v.rt, "rt");
    T* rho = e.scalars(v.rho, "rho");
    real_t<T>* rnorm2 = e.scalars(v.rnorm2, "rnorm2");
    const auto active =
        running_columns(e.scalars(v.status, "status"), e.k, [](index_t) { return true; });
    static constexpr std::size_t P = parts<T>;
    const auto sums = reduce_columns<real_t<T>, P + 1>(v.summation, e.n, active, [&](index_t k) {
      return [d, rk = r.column(k), rtk = column_or_null(rt, k)](index_t i, auto& acc) {
        accumulate(acc, 0, rho_term<S>(rtk, rk, d, i));
        acc[P].add(abs2(rk[i]));
      };
    });
    store_rho_rnorm2(active, sums, rho, rnorm2);
  });
}

template <class T> void VectorKernels<T>::bicg_directions(BicgVectors<T>& v) {
  with_shadow(v.shadow, [&]<Shadow S>(std::integral_constant<Shadow, S>) {
    const Extent e = extent("bicg_directions", v.r, v.status);
    const T* d = e.diagonal(v.inv_diag);
    Block<T>& r = e.vector(v.r, "r");
    Block<T>& p = e.vector(v.p, "p");
    Block<T>* rt = shadow_block<S>(e, v.rt, "rt");
    Block<T>* pt = shadow_block<S>(e, v.pt, "pt");
    const T* rho = e.scalars(v.rho, "rho");
    const T* rho_old = e.scalars(v.rho_old, "rho_old");
    int* status = e.scalars(v.status, "status");
    std::vector<T> beta(static_cast<std::size_t>(e.k));
    const auto active = nonzero_divisor_columns(
        status, e.k, rho, rhs_breakdown_rho, [&](index_t k) { beta[k] = rho[k] / rho_old[k]; });
    sweep_columns<NoSum, 0>(e.n, active, [&](index_t k) {
      return [d, b = beta[k], rk = r.column(k), pk = p.column(k), rtk = column_or_null(rt, k),
              ptk = column_or_null(pt, k)](index_t i, auto&) {
        pk[i] = d[i] * rk[i] + b * pk[i];
        if constexpr (S == Shadow::explicit_vectors)
          ptk[i] = conjugate(d[i]) * rtk[i] + conjugate(b) * ptk[i];
      };
    });
  });
}

template <class T> void VectorKernels<T>::bicg_update(BicgVectors<T>& v) {
  with_shadow(v.shadow, [&]<Shadow S>(std::integral_constant<Shadow, S>) {
    const Extent e = extent("bicg_update", v.r, v.status);
    const T* d = e.diagonal(v.inv_diag);
    Block<T>& x = e.vector(v.x, "x");
    Block<T>& r = e.vector(v.r, "r");
    Block<T>& p = e.vector(v.p, "p");
    Block<T>& q = e.vector(v.q, "q");
    Block<T>* rt = shadow_block<S>(e, v.rt, "rt");
    Block<T>* qt = shadow_block<S>(e, v.qt, "qt");
    T* rho = e.scalars(v.rho, "rho");
    T* rho_old = e.scalars(v.rho_old, "rho_old");
    const T* sigma = e.scalars(v.sigma, "sigma");
    real_t<T>* rnorm2 = e.scalars(v.rnorm2, "rnorm2");
    int* status = e.scalars(v.status, "status");
    std::vector<T> alpha(static_cast<std::size_t>(e.k));
    const auto active = nonzero_divisor_columns(
        status, e.k, sigma, rhs_breakdown_sigma, [&](index_t k) { alpha[k] = rho[k] / sigma[k]; });
    static constexpr std::size_t P = parts<T>;
    const auto sums = reduce_columns<real_t<T>, P + 1>(v.summation, e.n, active, [&](index_t k) {
      return [d, a = alpha[k], xk = x.column(k), rk = r.column(k), pk = p.column(k),
              qk = q.column(k), rtk = column_or_null(rt, k),
              qtk = column_or_null(qt, k)](index_t i, auto& acc) {
        xk[i] += a * pk[i];
        rk[i] -= a * qk[i];
        if constexpr (S == Shadow::explicit_vectors) rtk[i] -= conjugate(a) * qtk[i];
        accumulate(acc, 0, rho_term<S>(rtk, rk, d, i));
        acc[P].add(abs2(rk[i]));
      };
    });
    store_rho_rnorm2(active, sums, rho, rnorm2, rho_old);
  });
}

template <class T> void VectorKernels<T>::bicgstab_directions(BicgstabVectors<T>& v) {
  const Extent e = extent("bicgstab_directions", v.r, v.status);
  const T* d = e.bicgstab_diagonal(v);
  Block<T>& r = e.vector(v.r, "r");
  Block<T>& p = e.vector(v.p, "p");
  Block<T>& phat = e.vector(v.phat, "phat");
  Block<T>& vv = e.vector(v.v, "v");
  const T* rho = e.scalars(v.rho, "rho");
  const T* rho_old = e.scalars(v.rho_old, "rho_old");
  const T* alpha = e.scalars(v.alpha, "alpha");
  const T* omega = e.scalars(v.omega, "omega");
  int* status = e.scalars(v.status, "status");
  std::vector<T> beta(static_cast<std::size_t>(e.k));
  const auto active = nonzero_divisor_columns(status, e.k, rho, rhs_breakdown_rho, [&](index_t k) {
    beta[k] = (rho[k] / rho_old[k]) * (alpha[k] / omega[k]);
  });
  sweep_columns<NoSum, 0>(e.n, active, [&](index_t k) {
    return [d, b = beta[k], w = omega[k], rk = r.column(k), pk = p.column(k),
            phk = phat.column(k), vk = vv.column(k)](index_t i, auto&) {
      pk[i] = rk[i] + b * (pk[i] - w * vk[i]);
      if (d) phk[i] = d[i] * pk[i];
    };
  });
}

template <class T> void VectorKernels<T>::bicgstab_half_step(BicgstabVectors<T>& v) {
  const Extent e = extent("bicgstab_half_step", v.r, v.status);
  const T* d = e.bicgstab_diagonal(v);
  Block<T>& r = e.vector(v.r, "r");
  Block<T>& vv = e.vector(v.v, "v");
  Block<T>& s = e.vector(v.s, "s");
  Block<T>& shat = e.vector(v.shat, "shat");
  const T* rho = e.scalars(v.rho, "rho");
  const T* rhat_v = e.scalars(v.rhat_v, "rhat_v");
  T* alpha = e.scalars(v.alpha, "alpha");
  int* status = e.scalars(v.status, "status");
  const auto active = nonzero_divisor_columns(
      status, e.k, rhat_v, rhs_breakdown_sigma, [&](index_t k) { alpha[k] = rho[k] / rhat_v[k]; });
  sweep_columns<NoSum, 0>(e.n, active, [&](index_t k) {
    return [d, a = alpha[k], rk = r.column(k), vk = vv.column(k), sk = s.column(k),
            shk = shat.column(k)](index_t i, auto&) {
      sk[i] = rk[i] - a * vk[i];
      if (d) shk[i] = d[i] * sk[i];
    };
  });
}

template <class T> void VectorKernels<T>::bicgstab_omega_dots(BicgstabVectors<T>& v) {
  const Extent e = extent("bicgstab_omega_dots", v.s, v.status);
  Block<T>& s = e.vector(v.s, "s");
  Block<T>& t = e.vector(v.t, "t");
  T* t_s = e.scalars(v.t_s, "t_s");
  T* t_t = e.scalars(v.t_t, "t_t");
  const auto active =
      running_columns(e.scalars(v.status, "status"), e.k, [](index_t) { return true; });
  static constexpr std::size_t P = parts<T>;
  const auto sums = reduce_columns<real_t<T>, P + 1>(v.summation, e.n, active, [&](index_t k) {
    return [sk = s.column(k), tk = t.column(k)](index_t i, auto& acc) {
      accumulate(acc, 0, conjugate(tk[i]) * sk[i]);
      acc[P].add(abs2(tk[i]));
    };
  });
  for (std::size_t c = 0; c < active.size(); ++c) {
    t_s[active[c]] = sum_at<T>(sums[c], 0);
    t_t[active[c]] = T(sums[c][P]);
  }
}

template <class T> void VectorKernels<T>::bicgstab_update(BicgstabVectors<T>& v) {
  const Extent e = extent("bicgstab_update", v.r, v.status);
  Block<T>& x = e.vector(v.x, "x");
  Block<T>& r = e.vector(v.r, "r");
  Block<T>& rhat = e.vector(v.rhat, "rhat");
  Block<T>& phat = e.vector(v.phat, "phat");
  Block<T>& s = e.vector(v.s, "s");
  Block<T>& shat = e.vector(v.shat, "shat");
  Block<T>& t = e.vector(v.t, "t");
  const T* alpha = e.scalars(v.alpha, "alpha");
  const T* t_s = e.scalars(v.t_s, "t_s");
  const T* t_t = e.scalars(v.t_t, "t_t");
  T* omega = e.scalars(v.omega, "omega");
  T* rho = e.scalars(v.rho, "rho");
  T* rho_old = e.scalars(v.rho_old, "rho_old");
  real_t<T>* rnorm2 = e.scalars(v.rnorm2, "rnorm2");
  int* status = e.scalars(v.status, "status");
  const auto active = running_columns(status, e.k, [&](index_t k) {
    omega[k] = t_t[k] == T(0) ? T(0) : t_s[k] / t_t[k];
    return true;
  });
  static constexpr std::size_t P = parts<T>;
  const auto sums = reduce_columns<real_t<T>, P + 1>(v.summation, e.n, active, [&](index_t k) {
    return [a = alpha[k], w = omega[k], xk = x.column(k), rk = r.column(k), rhk = rhat.column(k),
            phk = phat.column(k), sk = s.column(k), shk = shat.column(k),
            tk = t.column(k)](index_t i, auto& acc) {
      xk[i] += a * phk[i] + w * shk[i];
      rk[i] = sk[i] - w * tk[i];
      accumulate(acc, 0, conjugate(rhk[i]) * rk[i]);
      acc[P].add(abs2(rk[i]));
    };
  });
  store_rho_rnorm2(active, sums, rho, rnorm2, rho_old);
  // ω = 0 from a non-zero tᴴt stalls the method for good: the update is kept, the column ends.
  for (const index_t k : active)
    if (omega[k] == T(0) && t_t[k] != T(0)) status[k] = rhs_breakdown_omega;
}

#define PMOM_INSTANTIATE(T) template struct VectorKernels<T>;
PMOM_FOR_EACH_VALUE_TYPE(PMOM_INSTANTIATE)
#undef PMOM_INSTANTIATE

}  // namespace pmom::cpu
