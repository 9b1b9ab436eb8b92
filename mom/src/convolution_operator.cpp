// Z·x by FFT per kind channel (convolution_operator.hpp), with FFTW on the host.
#include "planarmom/mom/convolution_operator.hpp"

#include <fftw3.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace pmom::mom {
namespace {

using cd = std::complex<double>;

struct FftwFree {
  void operator()(fftw_complex* p) const { fftw_free(p); }
};
using Buffer = std::unique_ptr<fftw_complex[], FftwFree>;
Buffer buffer(std::size_t n) {
  auto* p = static_cast<fftw_complex*>(fftw_malloc(sizeof(fftw_complex) * n));
  if (p == nullptr) throw std::bad_alloc();
  return Buffer(p);
}
cd* values(const Buffer& b) { return reinterpret_cast<cd*>(b.get()); }

}  // namespace

struct ConvolutionOperator::Impl {
  std::shared_ptr<const ConvolutionLayout> layout;
  std::vector<Buffer> kernels;  // spectra, in the layout's kernel order
  fftw_plan forward = nullptr, backward = nullptr;
  mutable std::vector<Buffer> sources, potentials;  // per channel

  ~Impl() {
    if (forward != nullptr) fftw_destroy_plan(forward);
    if (backward != nullptr) fftw_destroy_plan(backward);
  }
};

ConvolutionOperator::ConvolutionOperator(const geometry::Mesh& mesh,
                                         const InteractionTables& tables)
    : ConvolutionOperator(std::make_shared<const ConvolutionLayout>(make_convolution_layout(
                              mesh, tables.edge_profiles, tables.start)),
                          tables) {}

ConvolutionOperator::ConvolutionOperator(std::shared_ptr<const ConvolutionLayout> layout,
                                         const InteractionTables& tables)
    : impl_(std::make_unique<Impl>()) {
  Impl& d = *impl_;
  const ConvolutionLayout& l = *layout;
  if (tables.nx != l.nx || tables.ny != l.ny)
    throw std::invalid_argument("ConvolutionOperator: the tables are for a " +
                                std::to_string(tables.nx) + " x " + std::to_string(tables.ny) +
                                " grid, the layout's is " + std::to_string(l.nx) + " x " +
                                std::to_string(l.ny));
  d.layout = std::move(layout);
  const std::size_t g = l.points();
  Buffer scratch = buffer(g);
  d.forward = fftw_plan_dft_2d(l.py, l.px, scratch.get(), scratch.get(), FFTW_FORWARD,
                               FFTW_ESTIMATE);
  d.backward = fftw_plan_dft_2d(l.py, l.px, scratch.get(), scratch.get(), FFTW_BACKWARD,
                                FFTW_ESTIMATE);
  const TableView view = host_view(tables);
  const double scale = 1.0 / static_cast<double>(g);
  for (const ConvolutionLayout::Kernel& k : l.kernels) {
    Buffer spectrum = buffer(g);
    cd* out = values(spectrum);
    for (int j = 0; j < l.py; ++j)
      for (int i = 0; i < l.px; ++i)
        out[static_cast<std::size_t>(j) * static_cast<std::size_t>(l.px) + static_cast<std::size_t>(i)] =
            kernel_value(view, k.table, k.charge, l.nx, l.ny, l.px, l.py, i, j, cd(scale));
    fftw_execute_dft(d.forward, spectrum.get(), spectrum.get());
    d.kernels.push_back(std::move(spectrum));
  }
  for (int ch = 0; ch < l.channels; ++ch) {
    d.sources.push_back(buffer(g));
    d.potentials.push_back(buffer(g));
  }
}

ConvolutionOperator::~ConvolutionOperator() = default;

bool ConvolutionOperator::available() { return true; }

int ConvolutionOperator::size() const { return impl_->layout->n; }

void ConvolutionOperator::apply(std::span<const cd> x, std::span<cd> y) const {
  const Impl& d = *impl_;
  const ConvolutionLayout& l = *d.layout;
  if (x.size() != static_cast<std::size_t>(l.n) || y.size() != static_cast<std::size_t>(l.n))
    throw std::invalid_argument("ConvolutionOperator::apply: expected " + std::to_string(l.n) +
                                " values, got x of " + std::to_string(x.size()) + " and y of " +
                                std::to_string(y.size()));
  const std::size_t g = l.points();
  for (const Buffer& s : d.sources) std::fill_n(values(s), g, cd(0.0));
  for (int m = 0; m < l.n; ++m)
    for (int p = l.place_ptr[static_cast<std::size_t>(m)]; p < l.place_ptr[static_cast<std::size_t>(m) + 1]; ++p) {
      const auto q = static_cast<std::size_t>(p);
      values(d.sources[static_cast<std::size_t>(l.place_channel[q])])[l.place_point[q]] +=
          l.place_sign[q] * x[static_cast<std::size_t>(m)];
    }
  // The channels on the cores (FFTW's execute is thread-safe on other arrays).
#pragma omp parallel for schedule(dynamic)
  for (int ch = 0; ch < l.channels; ++ch)
    fftw_execute_dft(d.forward, d.sources[static_cast<std::size_t>(ch)].get(),
                     d.sources[static_cast<std::size_t>(ch)].get());
  // Each observer channel's potential from the source channels of its group, back to space.
#pragma omp parallel for schedule(dynamic)
  for (int o = 0; o < l.channels; ++o) {
    cd* out = values(d.potentials[static_cast<std::size_t>(o)]);
    std::fill_n(out, g, cd(0.0));
    for (int k = l.observer_ptr[static_cast<std::size_t>(o)]; k < l.observer_ptr[static_cast<std::size_t>(o) + 1]; ++k) {
      const cd* kernel = values(d.kernels[static_cast<std::size_t>(k)]);
      const cd* u = values(d.sources[static_cast<std::size_t>(l.kernels[static_cast<std::size_t>(k)].source)]);
      for (std::size_t q = 0; q < g; ++q) out[q] += kernel[q] * u[q];
    }
    fftw_execute_dft(d.backward, d.potentials[static_cast<std::size_t>(o)].get(),
                     d.potentials[static_cast<std::size_t>(o)].get());
  }
  for (int m = 0; m < l.n; ++m) {
    cd sum = 0.0;
    for (int p = l.place_ptr[static_cast<std::size_t>(m)]; p < l.place_ptr[static_cast<std::size_t>(m) + 1]; ++p) {
      const auto q = static_cast<std::size_t>(p);
      sum += l.place_sign[q] * values(d.potentials[static_cast<std::size_t>(l.place_channel[q])])[l.place_point[q]];
    }
    y[static_cast<std::size_t>(m)] = sum;
  }
}

ConvolutionFootprint ConvolutionOperator::footprint() const {
  return mom::footprint(*impl_->layout);
}

}  // namespace pmom::mom
