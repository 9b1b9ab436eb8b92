// The shared SuiteSparse matrices in tests: where they are (../shared/matrices, absent from a
// user's clone), which Krylov methods apply to a matrix, and which pairs must converge.
//
// The (matrix, method) pairs of ../shared/matrices that the CPU backend converges on from
// b = A·1 at tol 1e-7 within 3000 iterations, with 1, 2 and 16 OpenMP threads alike (measured on
// the 2-core VM at b4c150e; memplus bicgstab is left out: it breaks down with 2 threads and
// converges with 1 and 16). Tests require each to converge rather than counting how many did.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "planarmom/gpusolver/solver.hpp"
#include "support/gpu.hpp"

namespace pmom::test {

inline const std::filesystem::path shared_matrices =
    std::filesystem::path(PLANARMOM_SOURCE_DIR) / ".." / "shared" / "matrices";

// BiCG and BiCGSTAB always; COCG on complex-symmetric matrices; CG on Hermitian ones with a
// positive real diagonal.
inline std::vector<Method> applicable_methods(const MatrixTraits& t) {
  std::vector<Method> m{Method::bicg};
  if (t.complex_symmetric) m.push_back(Method::cocg);
  m.push_back(Method::bicgstab);
  if (t.hermitian && t.positive_real_diagonal) m.push_back(Method::cg);
  return m;
}

inline const std::set<std::string> cpu_converging_pairs = {
    "494_bus bicg", "494_bus bicgstab", "494_bus cg", "494_bus cocg",
    "add20 bicg", "add20 bicgstab",
    "bcsstk04 bicg", "bcsstk04 bicgstab", "bcsstk04 cg", "bcsstk04 cocg",
    "bcsstk13 bicg", "bcsstk13 bicgstab", "bcsstk13 cg", "bcsstk13 cocg",
    "bcsstk14 bicg", "bcsstk14 bicgstab", "bcsstk14 cg", "bcsstk14 cocg",
    "bloweybq bicg", "bloweybq bicgstab", "bloweybq cg", "bloweybq cocg",
    "dwg961a bicg", "dwg961a cocg",
    "e05r0000 bicg", "e05r0000 bicgstab", "e05r0000 cocg",
    "fs_541_1 bicg", "fs_541_1 bicgstab",
    "memplus bicg",
    "mhd1280b bicg", "mhd1280b bicgstab", "mhd1280b cg",
    "nos4 bicg", "nos4 bicgstab", "nos4 cg", "nos4 cocg",
    "olm1000 bicgstab",
    "orsirr_1 bicg",
    "pde2961 bicg", "pde2961 bicgstab",
    "pde900 bicg", "pde900 bicgstab",
    "qc324 bicg", "qc324 bicgstab", "qc324 cocg",
    "rdb3200l bicg", "rdb3200l bicgstab",
    "rdb800l bicg",
    "sherman1 bicg", "sherman1 bicgstab", "sherman1 cocg",
    "sherman5 bicg", "sherman5 bicgstab",
    "steam1 bicg", "steam1 bicgstab",
    "tols1090 bicg", "tols1090 bicgstab",
    "tols4000 bicg", "tols4000 bicgstab",
    "west0067 bicg",
    "young1c bicg", "young1c bicgstab",
    "young2c bicg", "young2c bicgstab",
};

}  // namespace pmom::test

// For the GPU tests that read the shared matrices: skips where they are absent (a user's clone),
// but fails under PLANARMOM_REQUIRE_GPU=1, where every GPU test must run.
#define PMOM_GPU_SHARED_MATRICES()                                                          \
  do {                                                                                     \
    if (!std::filesystem::is_directory(::pmom::test::shared_matrices)) {                   \
      if (::pmom::test::gpu_required())                                                    \
        FAIL() << "PLANARMOM_REQUIRE_GPU is set, but the shared matrices are not at "      \
               << ::pmom::test::shared_matrices;                                           \
      GTEST_SKIP() << "shared matrices not present at " << ::pmom::test::shared_matrices;  \
    }                                                                                      \
  } while (0)
