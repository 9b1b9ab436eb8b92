// DeviceConvolution in a build without CUDA (PLANARMOM_WITH_CUDA=OFF): constructing one says so.
#include <stdexcept>

#include "planarmom/mom/device_convolution.hpp"

namespace pmom::mom {

struct DeviceConvolution::Impl {};

DeviceConvolution::DeviceConvolution(std::shared_ptr<const ConvolutionLayout>) {
  throw std::runtime_error(
      "DeviceConvolution: this build has no CUDA (configured with PLANARMOM_WITH_CUDA=OFF)");
}
DeviceConvolution::~DeviceConvolution() = default;
void DeviceConvolution::update(const TableView&, const Csr<std::complex<double>>&) {}
void DeviceConvolution::set_border(const ViaBorder&) {}
void DeviceConvolution::reserve(int) {}
void DeviceConvolution::apply(const std::complex<double>*, std::complex<double>*, int,
                              std::complex<double>, std::complex<double>, void*, bool) const {}
int DeviceConvolution::size() const { return 0; }
ConvolutionFootprint DeviceConvolution::footprint(int) const { return {}; }

}  // namespace pmom::mom
