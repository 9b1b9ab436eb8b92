// The exact operator in a build without FFTW: it says so.
#include <stdexcept>

#include "planarmom/mom/convolution_operator.hpp"

namespace pmom::mom {
namespace {
[[noreturn]] void unavailable() {
  throw std::runtime_error(
      "the exact operator on the host needs FFTW: install libfftw3-dev (tools/install-deps.sh) "
      "and rebuild");
}
}  // namespace

struct ConvolutionOperator::Impl {};

ConvolutionOperator::ConvolutionOperator(const geometry::Mesh&, const InteractionTables&) {
  unavailable();
}
ConvolutionOperator::ConvolutionOperator(std::shared_ptr<const ConvolutionLayout>,
                                         const InteractionTables&) {
  unavailable();
}
ConvolutionOperator::~ConvolutionOperator() = default;
bool ConvolutionOperator::available() { return false; }
int ConvolutionOperator::size() const { return 0; }
void ConvolutionOperator::apply(std::span<const std::complex<double>>,
                                std::span<std::complex<double>>) const {}
ConvolutionFootprint ConvolutionOperator::footprint() const { return {}; }

}  // namespace pmom::mom
