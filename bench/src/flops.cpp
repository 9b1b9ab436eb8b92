// Per-iteration flop counts, derived from the fused kernels of gpusolver's backend interface.
#include "planarmom/bench/flops.hpp"

#include <stdexcept>

namespace pmom::bench {
namespace {

struct Costs {
  double mul, add, fma, norm;
};

Costs costs(bool complex_values) {
  return complex_values ? Costs{6, 2, 8, 4} : Costs{1, 1, 2, 2};
}

// Operation counts of one iteration: sparse products, and per-element vector operations.
struct Count {
  double spmv = 0, mul = 0, add = 0, fma = 0, norm = 0;
};

Count count(Method m) {
  switch (m) {
    // directions: p = Dr + βp (2 mul, 1 add), twice; σ dot (fma); update x, r, r̃ (3 fma);
    // next ρ = Σ r̃·(D r) (mul + fma); ‖r‖².
    case Method::bicg: return {2, 2 * 2 + 1, 2 * 1, 1 + 3 + 1, 1};
    // the same without the shadow vectors and with one product.
    case Method::cocg:
    case Method::cg: return {1, 2 + 1, 1, 1 + 2 + 1, 1};
    // p = r + β(p − ωv) (2 mul, 2 add), p̂ = Dp (mul), r̂ᴴv (fma), s = r − αv (fma),
    // ŝ = Ds (mul), tᴴs and tᴴt (2 fma), x += αp̂ + ωŝ (2 fma), r = s − ωt (fma),
    // ρ = r̂ᴴr (fma), ‖r‖².
    case Method::bicgstab: return {2, 2 + 1 + 1, 2, 1 + 1 + 2 + 2 + 1 + 1, 1};
    // x += d r (fma), r = b − Ax (the product, and its add of b).
    case Method::jacobi: return {1, 0, 1, 1, 0};
    // one pass over A; per row b_i − s (add), ω d_i times it (2 mul), added to x_i.
    case Method::gauss_seidel: return {1, 2, 2, 0, 0};
    case Method::automatic: break;
  }
  throw std::invalid_argument("flops_per_iteration: method must be resolved");
}

// SSOR's forward sweep from zero reads the strictly lower entries (about half of a symmetric
// pattern), the backward sweep all of them; per row each sweep does 2 mul and 1 or 2 adds,
// and ρ = r̃ᴴz is one more fma.
Count with_ssor(Count k) {
  k.spmv += 1.5;
  k.mul += 4;
  k.add += 3;
  k.fma += 1;
  return k;
}

}  // namespace

double flops_per_iteration(Method method, std::size_t n, std::size_t nnz, bool complex_values,
                           Preconditioner preconditioner) {
  const Costs c = costs(complex_values);
  const bool ssor = preconditioner == Preconditioner::ssor &&
                    (method == Method::cg || method == Method::cocg);
  const Count k = ssor ? with_ssor(count(method)) : count(method);
  const auto nd = static_cast<double>(n);
  return k.spmv * spmv_flops(nnz, complex_values) +
         nd * (k.mul * c.mul + k.add * c.add + k.fma * c.fma + k.norm * c.norm);
}

double spmv_flops(std::size_t nnz, bool complex_values) {
  return static_cast<double>(nnz) * costs(complex_values).fma;
}

}  // namespace pmom::bench
