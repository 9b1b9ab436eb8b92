// DeviceConvolution (device_convolution.hpp): per product, the sources written to their
// channels' grids (one thread per occupied slot, no atomics), a batched forward cuFFT, the
// kernels' pointwise products per observer channel, a batched inverse cuFFT, and the
// potentials read back at the functions' places with the correction and alpha, beta.
#include <cufft.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

#include "planarmom/mom/device_convolution.hpp"
#include "device_array.cuh"

namespace pmom::mom {
namespace {

void check(cudaError_t status, const char* what) { cuda_check(status, "exact operator", what); }
void check_fft(cufftResult status, const char* what) {
  if (status != CUFFT_SUCCESS)
    throw std::runtime_error(std::string("exact operator: ") + what + ": cuFFT error " +
                             std::to_string(static_cast<int>(status)) +
                             (status == CUFFT_ALLOC_FAILED ? " (out of device memory)" : ""));
}

constexpr int kBlock = 256;
unsigned blocks(long long count) { return static_cast<unsigned>((count + kBlock - 1) / kBlock); }

__global__ void kernel_values(TableViewT<dc> t, const ConvolutionLayout::Kernel* kernels,
                              int count, int nx, int ny, int px, int py, double scale,
                              dc* spectra) {
  const long long g = static_cast<long long>(px) * py;
  const long long k = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (k >= g * count) return;
  const ConvolutionLayout::Kernel kernel = kernels[k / g];
  const auto q = static_cast<int>(k % g);
  spectra[k] = kernel_value(t, kernel.table, kernel.charge, nx, ny, px, py, q % px, q / px,
                            dc(scale));
}

// Grid (channel, column) at (channel · columns + column) · g.
__global__ void scatter(const long long* slot, const int* slot_ptr, const int* function,
                        const double* sign, long long slots, long long g, int ld, int columns,
                        const dc* x, bool conjugate, dc* grids) {
  const long long k = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (k >= slots * columns) return;
  const long long s = k % slots;
  const int c = static_cast<int>(k / slots);
  dc sum(0.0);
  for (int p = slot_ptr[s]; p < slot_ptr[s + 1]; ++p) {
    const dc v = x[static_cast<long long>(c) * ld + function[p]];
    sum += sign[p] * (conjugate ? cuda::std::conj(v) : v);
  }
  const long long channel = slot[s] / g, point = slot[s] % g;
  grids[(channel * columns + c) * g + point] = sum;
}

// Per point, each observer channel's spectrum: the sum over its group's source channels of
// kernel times source. A thread holds up to kChunk sources of four columns in registers, so
// that each source and each kernel value is read once per point (a larger group is done in
// chunks, adding to what the last chunk stored).
constexpr int kChunk = 9, kColumns = 4;
__global__ void pointwise(const dc* spectra, const int* group_first, int groups,
                          const int* observer_ptr, long long g, int columns, const dc* sources,
                          dc* potentials) {
  const long long q = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (q >= g) return;
  for (int group = 0; group < groups; ++group) {
    const int first = group_first[group], size = group_first[group + 1] - first;
    for (int c0 = 0; c0 < columns; c0 += kColumns) {
      const int width = min(kColumns, columns - c0);
      for (int s0 = 0; s0 < size; s0 += kChunk) {
        const int chunk = min(kChunk, size - s0);
        dc u[kChunk][kColumns];
#pragma unroll
        for (int s = 0; s < kChunk; ++s)
#pragma unroll
          for (int c = 0; c < kColumns; ++c)
            u[s][c] = s < chunk && c < width
                          ? sources[(static_cast<long long>(first + s0 + s) * columns + c0 + c) * g + q]
                          : dc(0.0);
        for (int o = first; o < first + size; ++o) {
          dc* v = potentials + (static_cast<long long>(o) * columns + c0) * g + q;
          dc acc[kColumns];
#pragma unroll
          for (int c = 0; c < kColumns; ++c) acc[c] = s0 > 0 && c < width ? v[c * g] : dc(0.0);
          const dc* kernel = spectra + static_cast<long long>(observer_ptr[o] + s0) * g + q;
#pragma unroll
          for (int s = 0; s < kChunk; ++s) {
            if (s < chunk) {
              const dc k = kernel[s * g];
#pragma unroll
              for (int c = 0; c < kColumns; ++c) acc[c] += k * u[s][c];
            }
          }
#pragma unroll
          for (int c = 0; c < kColumns; ++c)
            if (c < width) v[c * g] = acc[c];
        }
      }
    }
  }
}

// x and y: columns of ld rows, the n functions' first (ld − n vias after them: border_*).
__global__ void gather(const int* place_ptr, const int* channel, const long long* point,
                       const double* sign, const index_t* row_ptr, const index_t* col,
                       const dc* values, int n, int ld, long long g, int columns,
                       const dc* potentials, const dc* x, bool conjugate, dc alpha, dc beta,
                       dc* y) {
  const long long k = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (k >= static_cast<long long>(n) * columns) return;
  const int m = static_cast<int>(k % n), c = static_cast<int>(k / n);
  dc sum(0.0);
  for (int p = place_ptr[m]; p < place_ptr[m + 1]; ++p)
    sum += sign[p] * potentials[(static_cast<long long>(channel[p]) * columns + c) * g + point[p]];
  const dc* xc = x + static_cast<long long>(c) * ld;
  for (index_t e = row_ptr[m]; e < row_ptr[m + 1]; ++e)
    sum += values[e] * (conjugate ? cuda::std::conj(xc[col[e]]) : xc[col[e]]);
  // The adjoint: conj of the product of the conjugated x (Z and the correction symmetric).
  if (conjugate) sum = cuda::std::conj(sum);
  dc& out = y[static_cast<long long>(c) * ld + m];
  out = alpha * sum + (beta == dc(0.0) ? dc(0.0) : beta * out);
}

// The functions' rows gain alpha Bᵀ x_v (after gather), B the vias' rows (vias × n, row-major).
__global__ void border_to_functions(const dc* rows, int vias, int n, int ld, int columns,
                                    const dc* x, bool conjugate, dc alpha, dc* y) {
  const long long k = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (k >= static_cast<long long>(n) * columns) return;
  const int m = static_cast<int>(k % n), c = static_cast<int>(k / n);
  const dc* xv = x + static_cast<long long>(c) * ld + n;
  dc sum(0.0);
  for (int v = 0; v < vias; ++v)
    sum += rows[static_cast<long long>(v) * n + m] * (conjugate ? cuda::std::conj(xv[v]) : xv[v]);
  if (conjugate) sum = cuda::std::conj(sum);
  y[static_cast<long long>(c) * ld + m] += alpha * sum;
}

// The vias' rows: alpha (B x_h + Z_vv x_v) + beta y, one block per (via, column), reduced in
// shared memory.
constexpr int kReduce = 256;
__global__ void border_vias(const dc* rows, const dc* block, int vias, int n, int ld,
                            const dc* x, bool conjugate, dc alpha, dc beta, dc* y) {
  const int v = blockIdx.x % vias, c = blockIdx.x / vias;
  const dc* xc = x + static_cast<long long>(c) * ld;
  const dc* row = rows + static_cast<long long>(v) * n;
  dc sum(0.0);
  for (int m = threadIdx.x; m < n; m += blockDim.x)
    sum += row[m] * (conjugate ? cuda::std::conj(xc[m]) : xc[m]);
  for (int u = threadIdx.x; u < vias; u += blockDim.x)
    sum += block[static_cast<long long>(v) * vias + u] *
           (conjugate ? cuda::std::conj(xc[n + u]) : xc[n + u]);
  __shared__ dc partial[kReduce];
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    dc total = conjugate ? cuda::std::conj(partial[0]) : partial[0];
    dc& out = y[static_cast<long long>(c) * ld + n + v];
    out = alpha * total + (beta == dc(0.0) ? dc(0.0) : beta * out);
  }
}

struct Plan {
  cufftHandle handle = 0;
  Plan(int px, int py, int batch) {
    int dims[2] = {py, px};
    const int g = px * py;
    check_fft(cufftPlanMany(&handle, 2, dims, nullptr, 1, g, nullptr, 1, g, CUFFT_Z2Z, batch),
              "cufftPlanMany");
  }
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
  ~Plan() { cufftDestroy(handle); }
};

}  // namespace

struct DeviceConvolution::Impl {
  std::shared_ptr<const ConvolutionLayout> layout;
  DeviceArray<int> place_ptr, place_channel, slot_ptr, slot_function, observer_ptr, group_first;
  DeviceArray<long long> place_point, slot;
  DeviceArray<double> place_sign, slot_sign;
  DeviceArray<ConvolutionLayout::Kernel> kernels;
  DeviceArray<dc> spectra;
  DeviceArray<index_t> row_ptr, col;
  DeviceArray<dc> values;
  int vias = 0;                  // the border's (set_border)
  DeviceArray<dc> border_rows, border_block;
  std::unique_ptr<Plan> kernel_plan;
  // Per column count: the channels' batched plan and the two sets of grids.
  struct Work {
    std::unique_ptr<Plan> plan;
    DeviceArray<dc> sources, potentials;
  };
  mutable std::map<int, Work> work;

  Work& work_for(int columns) const {
    auto it = work.find(columns);
    if (it != work.end()) return it->second;
    const ConvolutionLayout& l = *layout;
    const std::size_t grids = static_cast<std::size_t>(l.channels) * columns * l.points();
    Work w;
    w.plan = std::make_unique<Plan>(l.px, l.py, l.channels * columns);
    w.sources = DeviceArray<dc>(grids);
    w.potentials = DeviceArray<dc>(grids);
    return work.emplace(columns, std::move(w)).first->second;
  }
};

DeviceConvolution::DeviceConvolution(std::shared_ptr<const ConvolutionLayout> layout)
    : impl_(std::make_unique<Impl>()) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    cudaGetLastError();
    throw std::runtime_error("DeviceConvolution: no CUDA device");
  }
  Impl& d = *impl_;
  d.layout = std::move(layout);
  const ConvolutionLayout& l = *d.layout;
  cudaStream_t s = nullptr;
  d.place_ptr = DeviceArray<int>(l.place_ptr, s);
  d.place_channel = DeviceArray<int>(l.place_channel, s);
  d.place_point = DeviceArray<long long>(l.place_point, s);
  d.place_sign = DeviceArray<double>(l.place_sign, s);
  d.slot = DeviceArray<long long>(l.slot, s);
  d.slot_ptr = DeviceArray<int>(l.slot_ptr, s);
  d.slot_function = DeviceArray<int>(l.slot_function, s);
  d.slot_sign = DeviceArray<double>(l.slot_sign, s);
  d.kernels = DeviceArray<ConvolutionLayout::Kernel>(l.kernels, s);
  d.observer_ptr = DeviceArray<int>(l.observer_ptr, s);
  d.group_first = DeviceArray<int>(l.group_first, s);
  d.spectra = DeviceArray<dc>(l.kernels.size() * l.points());
  d.kernel_plan = std::make_unique<Plan>(l.px, l.py, static_cast<int>(l.kernels.size()));
  const std::vector<index_t> empty_rows(static_cast<std::size_t>(l.n) + 1, 0);
  d.row_ptr = DeviceArray<index_t>(empty_rows, s);
  check(cudaStreamSynchronize(s), "upload");
}

DeviceConvolution::~DeviceConvolution() = default;

int DeviceConvolution::size() const { return impl_->layout->n + impl_->vias; }

void DeviceConvolution::set_border(const ViaBorder& border) {
  Impl& d = *impl_;
  if (border.vias > 0 && border.rooftops != d.layout->n)
    throw std::invalid_argument("DeviceConvolution: a border of " +
                                std::to_string(border.rooftops) + " functions for " +
                                std::to_string(d.layout->n));
  cudaStream_t s = nullptr;
  d.vias = border.vias;
  d.border_rows.upload(reinterpret_cast<const dc*>(border.rows.data()), border.rows.size(), s);
  d.border_block.upload(reinterpret_cast<const dc*>(border.block.data()), border.block.size(), s);
  check(cudaStreamSynchronize(s), "border");
}

ConvolutionFootprint DeviceConvolution::footprint(int columns) const {
  return mom::footprint(*impl_->layout, columns);
}

void DeviceConvolution::update(const TableView& device_tables,
                               const Csr<std::complex<double>>& correction) {
  Impl& d = *impl_;
  const ConvolutionLayout& l = *d.layout;
  if (correction.rows != l.n || correction.cols != l.n)
    throw std::invalid_argument("DeviceConvolution: a correction of " +
                                std::to_string(correction.rows) + " x " +
                                std::to_string(correction.cols) + " for " + std::to_string(l.n) +
                                " functions");
  cudaStream_t s = nullptr;
  TableViewT<dc> t;
  t.values = reinterpret_cast<const dc*>(device_tables.values);
  t.start = device_tables.start;
  t.nx = device_tables.nx;
  t.ny = device_tables.ny;
  t.jw = dc(device_tables.jw.real(), device_tables.jw.imag());
  t.inv_a2 = device_tables.inv_a2;
  const long long g = static_cast<long long>(l.points());
  const auto count = static_cast<int>(l.kernels.size());
  if (count > 0) {
    kernel_values<<<blocks(g * count), kBlock, 0, s>>>(t, d.kernels.data, count, l.nx, l.ny,
                                                      l.px, l.py, 1.0 / static_cast<double>(g),
                                                      d.spectra.data);
    check(cudaGetLastError(), "kernel launch");
    check_fft(cufftSetStream(d.kernel_plan->handle, s), "cufftSetStream");
    auto* spectra = reinterpret_cast<cufftDoubleComplex*>(d.spectra.data);
    check_fft(cufftExecZ2Z(d.kernel_plan->handle, spectra, spectra, CUFFT_FORWARD),
              "kernels' spectra");
  }
  d.row_ptr.upload(correction.row_ptr.data(), correction.row_ptr.size(), s);
  d.col.upload(correction.col_idx.data(), correction.col_idx.size(), s);
  d.values.upload(correction.values.data(), correction.values.size(), s);
  check(cudaStreamSynchronize(s), "kernels' spectra");
}

void DeviceConvolution::reserve(int columns) {
  if (columns < 1) throw std::invalid_argument("DeviceConvolution::reserve: columns < 1");
  impl_->work_for(columns);
}

void DeviceConvolution::apply(const std::complex<double>* x, std::complex<double>* y,
                              int columns, std::complex<double> alpha,
                              std::complex<double> beta, void* stream, bool adjoint) const {
  const Impl& d = *impl_;
  const ConvolutionLayout& l = *d.layout;
  if (columns < 1) return;
  const Impl::Work& w = d.work_for(columns);
  auto s = static_cast<cudaStream_t>(stream);
  const long long g = static_cast<long long>(l.points());
  const auto* xd = reinterpret_cast<const dc*>(x);
  check(cudaMemsetAsync(w.sources.data, 0, sizeof(dc) * w.sources.size, s), "cudaMemsetAsync");
  const auto slots = static_cast<long long>(l.slot.size());
  const int ld = l.n + d.vias;
  scatter<<<blocks(slots * columns), kBlock, 0, s>>>(d.slot.data, d.slot_ptr.data,
                                                     d.slot_function.data, d.slot_sign.data,
                                                     slots, g, ld, columns, xd, adjoint,
                                                     w.sources.data);
  check(cudaGetLastError(), "kernel launch");
  check_fft(cufftSetStream(w.plan->handle, s), "cufftSetStream");
  auto* sources = reinterpret_cast<cufftDoubleComplex*>(w.sources.data);
  auto* potentials = reinterpret_cast<cufftDoubleComplex*>(w.potentials.data);
  check_fft(cufftExecZ2Z(w.plan->handle, sources, sources, CUFFT_FORWARD), "forward FFT");
  pointwise<<<blocks(g), kBlock, 0, s>>>(d.spectra.data, d.group_first.data,
                                         static_cast<int>(l.group_first.size()) - 1,
                                         d.observer_ptr.data, g, columns, w.sources.data,
                                         w.potentials.data);
  check(cudaGetLastError(), "kernel launch");
  check_fft(cufftExecZ2Z(w.plan->handle, potentials, potentials, CUFFT_INVERSE), "inverse FFT");
  const dc a(alpha.real(), alpha.imag()), b(beta.real(), beta.imag());
  auto* yd = reinterpret_cast<dc*>(y);
  gather<<<blocks(static_cast<long long>(l.n) * columns), kBlock, 0, s>>>(
      d.place_ptr.data, d.place_channel.data, d.place_point.data, d.place_sign.data,
      d.row_ptr.data, d.col.data, d.values.data, l.n, ld, g, columns, w.potentials.data, xd,
      adjoint, a, b, yd);
  check(cudaGetLastError(), "kernel launch");
  if (d.vias > 0) {
    // The vias' rows read y's old values (beta) and x only: before or after the functions'.
    border_vias<<<static_cast<unsigned>(d.vias * columns), kReduce, 0, s>>>(
        d.border_rows.data, d.border_block.data, d.vias, l.n, ld, xd, adjoint, a, b, yd);
    border_to_functions<<<blocks(static_cast<long long>(l.n) * columns), kBlock, 0, s>>>(
        d.border_rows.data, d.vias, l.n, ld, columns, xd, adjoint, a, yd);
    check(cudaGetLastError(), "kernel launch");
  }
}

}  // namespace pmom::mom
