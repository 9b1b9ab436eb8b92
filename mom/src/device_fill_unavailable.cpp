// DeviceFill in a build without CUDA (PLANARMOM_WITH_CUDA=OFF): constructing one says so.
#include <stdexcept>

#include "planarmom/mom/device_fill.hpp"

namespace pmom::mom {

struct DeviceFill::Impl {};

DeviceFill::DeviceFill(const geometry::Mesh&, const TablePlan&, FillPattern,
                       std::span<const GramEntry>) {
  throw std::runtime_error(
      "DeviceFill: this build has no CUDA (configured with PLANARMOM_WITH_CUDA=OFF)");
}
DeviceFill::~DeviceFill() = default;

void DeviceFill::fill(const GreensTable&, std::span<const std::complex<double>>,
                      std::complex<double>*, const StripImpedance&) {}
void DeviceFill::start_tables(const GreensTable&) {}
void DeviceFill::assemble(std::span<const std::complex<double>>, std::complex<double>*,
                          const StripImpedance&) {}
std::size_t DeviceFill::nnz() const { return 0; }
TableView DeviceFill::device_tables() const { return {}; }
std::vector<std::complex<double>> DeviceFill::tables() const { return {}; }
InteractionTables DeviceFill::charge_tables() const { return {}; }
void upload_via_border(const ViaBorder&, std::complex<double>*, index_t) {
  throw std::runtime_error("upload_via_border: this build has no CUDA");
}

}  // namespace pmom::mom
