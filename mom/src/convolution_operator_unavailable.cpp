// The exact operator in a build without FFTW: it says so.
#include <stdexcept>

#include "planarmom/mom/convolution_operator.hpp"

namespace pmom::mom {

struct ConvolutionOperator::Impl {};

ConvolutionOperator::ConvolutionOperator(const geometry::Mesh&, const InteractionTables&) {
  throw std::runtime_error(
      "the exact operator needs FFTW: install libfftw3-dev (tools/install-deps.sh) and rebuild");
}
ConvolutionOperator::~ConvolutionOperator() = default;
bool ConvolutionOperator::available() { return false; }
int ConvolutionOperator::size() const { return 0; }
void ConvolutionOperator::apply(std::span<const std::complex<double>>,
                                std::span<std::complex<double>>) const {}
ConvolutionOperator::Footprint ConvolutionOperator::footprint() const { return {}; }

}  // namespace pmom::mom
