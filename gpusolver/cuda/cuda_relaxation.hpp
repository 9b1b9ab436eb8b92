// The CUDA backend's relaxation pieces: the sweeper (A in CSR with its inverse diagonal, and
// the colours as host row ranges, one launch each) and the launchers of cuda_relaxation.cu.
#pragma once

#include <vector>

#include "cuda_backend.hpp"

namespace pmom::cuda {

template <class T> class CudaSweeper final : public Sweeper<T> {
 public:
  DeviceMatrix<T> a;  // CSR, rows in sweep order
  Block<T> inv_diag;
  std::vector<index_t> colour_ptr;

  [[nodiscard]] index_t rows() const override { return a.rows; }
};

template <class T>
void launch_sor_sweep(const CudaSweeper<T>& s, SweepDirection direction, bool from_zero, T omega,
                      const Block<T>& b, Block<T>& x, const Block<int>& status,
                      cudaStream_t stream);
template <class T>
void launch_diagonal_update(const Block<T>& d, const Block<T>& r, Block<T>& x,
                            const Block<int>& status, cudaStream_t stream);

}  // namespace pmom::cuda
