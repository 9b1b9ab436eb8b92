// Floating-point operation counts of one solver iteration, for GFLOP/s figures.
//
// Counted per element as the kernels do the work: a complex multiply is 6 flops, a complex add
// 2, a complex multiply-add 8, |z|² 4 (real: 1, 1, 2 and 2). SpMV costs one multiply-add per
// stored entry. The EM BiCG paper's count of 2·nnz + c·n per product is the real-valued count;
// for complex values every term carries the complex factors above.
#pragma once

#include <cstddef>

#include "planarmom/gpusolver/solver.hpp"

namespace pmom::bench {

// SSOR adds its two sweeps to CG and COCG; Gauss-Seidel's count leaves out the residual
// b − Ax formed at each stopping test.
double flops_per_iteration(Method method, std::size_t n, std::size_t nnz, bool complex_values,
                           Preconditioner preconditioner = Preconditioner::jacobi);

// One SpMV: a multiply-add per stored entry.
double spmv_flops(std::size_t nnz, bool complex_values);

}  // namespace pmom::bench
