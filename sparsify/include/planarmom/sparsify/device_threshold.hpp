// The target-density threshold of sparsify.hpp for a dense Z already on a CUDA device (the GPU
// fill's): the same rule, pairs kept as a whole when max(|Z_ij|, |Z_ji|) >= t, t the exact
// k-th largest pair magnitude, k = round((d·n² − n)/2), the diagonal always kept, magnitudes
// computed as sparsify::magnitude does; by kernels and a radix sort, the CSR written into
// device memory (sorted columns). In a build without CUDA, constructing one throws.
#pragma once

#include <complex>
#include <memory>

#include "planarmom/gpusolver/scalar.hpp"

namespace pmom::sparsify {

class DeviceThreshold {
 public:
  // z: device memory, n x n row-major. Finds t and the kept entries per row; returns when done.
  // Throws std::invalid_argument for n <= 0 or a density outside (0, 1].
  DeviceThreshold(const std::complex<double>* z, index_t n, double density);
  ~DeviceThreshold();
  DeviceThreshold(const DeviceThreshold&) = delete;
  DeviceThreshold& operator=(const DeviceThreshold&) = delete;

  [[nodiscard]] index_t nnz() const;
  [[nodiscard]] double threshold() const;  // +infinity when only the diagonal is kept
  // The CSR into device arrays of n + 1, nnz() and nnz() values; returns when done.
  void write(index_t* row_ptr, index_t* col_idx, std::complex<double>* values) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pmom::sparsify
