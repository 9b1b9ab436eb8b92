// DeviceThreshold in a build without CUDA (PLANARMOM_WITH_CUDA=OFF): constructing one says so.
#include <stdexcept>

#include "planarmom/sparsify/device_threshold.hpp"

namespace pmom::sparsify {

struct DeviceThreshold::Impl {};

DeviceThreshold::DeviceThreshold(const std::complex<double>*, index_t, double) {
  throw std::runtime_error(
      "DeviceThreshold: this build has no CUDA (configured with PLANARMOM_WITH_CUDA=OFF)");
}
DeviceThreshold::~DeviceThreshold() = default;
index_t DeviceThreshold::nnz() const { return 0; }
double DeviceThreshold::threshold() const { return 0; }
void DeviceThreshold::write(index_t*, index_t*, std::complex<double>*) const {}

}  // namespace pmom::sparsify
