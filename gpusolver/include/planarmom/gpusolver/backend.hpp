// The backend interface the solvers are written against: an Executor (memory, copies, the
// iteration loop) with one kernel interface per concern, as Ginkgo declares its kernels per
// algorithm: sparse products, dense factorizations, reductions, the fused kernels of the BiCG
// family and of BiCGSTAB, and relaxation. A backend (the reference one on the host, CUDA)
// implements them all; code that needs one concern may take that interface alone. Scalars
// stay in backend memory as 1 x k blocks, so a device backend never has to round-trip them
// through the host; the solver reads only the monitor blocks for its stopping test.
#pragma once

#include "planarmom/gpusolver/executor.hpp"
#include "planarmom/gpusolver/kernels/bicg.hpp"
#include "planarmom/gpusolver/kernels/bicgstab.hpp"
#include "planarmom/gpusolver/kernels/dense.hpp"
#include "planarmom/gpusolver/kernels/reduction.hpp"
#include "planarmom/gpusolver/kernels/relaxation.hpp"
#include "planarmom/gpusolver/kernels/sparse.hpp"
#include "planarmom/gpusolver/operator.hpp"

namespace pmom {

template <class T>
class Backend : public Executor,
                public SparseKernels<T>,
                public DenseKernels<T>,
                public ReductionKernels<T>,
                public BicgKernels<T>,
                public BicgstabKernels<T>,
                public RelaxationKernels<T> {
 public:
  using real = real_t<T>;
};

}  // namespace pmom
