// The device thresholding against sparsify() on the host (GPU test, skipped without a device):
// the same Z in gives the same threshold and the same CSR, bit for bit, since both compute
// the magnitudes without fused multiply-adds and pick the exact k-th largest pair.
#include <gtest/gtest.h>

#include <complex>
#include <random>

#include "planarmom/gpusolver/backends.hpp"
#include "planarmom/sparsify/device_threshold.hpp"
#include "planarmom/sparsify/sparsify.hpp"
#include "support/gpu.hpp"

namespace pmom::sparsify {
namespace {

using cd = std::complex<double>;

// Complex symmetric with a spread of magnitudes, and repeated values, so that pairs tie at
// the threshold.
std::vector<cd> symmetric_dense(index_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g;
  std::vector<cd> z(static_cast<std::size_t>(n) * n);
  for (index_t i = 0; i < n; ++i)
    for (index_t j = i; j < n; ++j) {
      const double scale = std::exp(-0.05 * std::abs(i - j));
      const cd v = (j % 7 == 0 ? cd(0.25, -0.25) : cd(g(rng), g(rng))) * scale;
      z[static_cast<std::size_t>(i) * n + j] = z[static_cast<std::size_t>(j) * n + i] = v;
    }
  return z;
}

TEST(DeviceThreshold, EqualsSparsifyOnTheHost) {
  PMOM_REQUIRE_GPU();
  auto backend = make_cuda_backend<cd>();
  for (const auto& [n, density] : {std::pair<index_t, double>{300, 0.2}, {517, 0.05}, {64, 1.0},
                                   {50, 0.01}}) {
    SCOPED_TRACE("n " + std::to_string(n) + ", density " + std::to_string(density));
    const std::vector<cd> z = symmetric_dense(n, static_cast<std::uint64_t>(n));
    const Sparsified host = sparsify(z, n, ThresholdPolicy::target_density(density));
    Block<cd> dz = backend->allocate<cd>(n, n);
    backend->upload<cd>(z, dz);
    backend->synchronize();
    const DeviceThreshold device(dz.data(), n, density);
    EXPECT_EQ(device.threshold(), host.report.threshold);
    ASSERT_EQ(device.nnz(), host.matrix.nnz());
    Block<index_t> row_ptr = backend->allocate<index_t>(n + 1, 1);
    Block<index_t> col_idx = backend->allocate<index_t>(device.nnz(), 1);
    Block<cd> values = backend->allocate<cd>(device.nnz(), 1);
    backend->synchronize();
    device.write(row_ptr.data(), col_idx.data(), values.data());
    EXPECT_EQ(backend->download(row_ptr), host.matrix.row_ptr);
    EXPECT_EQ(backend->download(col_idx), host.matrix.col_idx);
    EXPECT_EQ(backend->download(values), host.matrix.values);
  }
}

TEST(DeviceThreshold, RefusesADensityOutsideTheUnitInterval) {
  PMOM_REQUIRE_GPU();
  auto backend = make_cuda_backend<cd>();
  Block<cd> dz = backend->allocate<cd>(4, 4);
  EXPECT_THROW(DeviceThreshold(dz.data(), 4, 0.0), std::invalid_argument);
  EXPECT_THROW(DeviceThreshold(dz.data(), 4, 1.5), std::invalid_argument);
}

}  // namespace
}  // namespace pmom::sparsify
