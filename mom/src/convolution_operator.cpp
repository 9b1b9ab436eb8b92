// Z·x by FFT per kind channel (convolution_operator.hpp), with FFTW on the host.
#include "planarmom/mom/convolution_operator.hpp"

#include <fftw3.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace pmom::mom {
namespace {

using cd = std::complex<double>;

// The smallest 2^a 3^b 5^c 7^d >= n: sizes FFTW transforms fastest.
int fft_size(int n) {
  for (int m = std::max(n, 1);; ++m) {
    int r = m;
    for (const int p : {2, 3, 5, 7})
      while (r % p == 0) r /= p;
    if (r == 1) return m;
  }
}

// A channel: a group (0: x-rooftops' vector potential, 1: y-rooftops', 2: charges) and a kind.
struct ChannelKey {
  int group = 0, kind = 0;
  auto operator<=>(const ChannelKey&) const = default;
};

// One function's coefficient on one channel's grid point.
struct Place {
  int channel = 0;
  long long point = 0;
  double sign = 1;
};

struct FftwFree {
  void operator()(fftw_complex* p) const { fftw_free(p); }
};
using Buffer = std::unique_ptr<fftw_complex[], FftwFree>;
Buffer buffer(std::size_t n) {
  auto* p = static_cast<fftw_complex*>(fftw_malloc(sizeof(fftw_complex) * n));
  if (p == nullptr) throw std::bad_alloc();
  return Buffer(p);
}

}  // namespace

struct ConvolutionOperator::Impl {
  int n = 0, nx = 0, ny = 0, px = 0, py = 0;
  std::vector<ChannelKey> channels;
  std::vector<std::vector<Place>> places;  // per function
  // Per (observer, source) channel pair of one group: the kernel's spectrum, or none.
  std::vector<int> kernel_of;  // channels² entries, −1: none
  std::vector<Buffer> kernels;
  fftw_plan forward = nullptr, backward = nullptr;
  mutable Buffer scratch;             // one grid, for the plans
  mutable std::vector<Buffer> grids;  // per channel

  [[nodiscard]] std::size_t points() const {
    return static_cast<std::size_t>(px) * static_cast<std::size_t>(py);
  }
  ~Impl() {
    if (forward != nullptr) fftw_destroy_plan(forward);
    if (backward != nullptr) fftw_destroy_plan(backward);
  }
};

ConvolutionOperator::ConvolutionOperator(const geometry::Mesh& mesh,
                                         const InteractionTables& tables)
    : impl_(std::make_unique<Impl>()) {
  Impl& d = *impl_;
  const geometry::Grid& grid = mesh.grid();
  if (tables.nx != grid.nx || tables.ny != grid.ny)
    throw std::invalid_argument("ConvolutionOperator: the tables are for a " +
                                std::to_string(tables.nx) + " x " + std::to_string(tables.ny) +
                                " grid, the mesh has " + std::to_string(grid.nx) + " x " +
                                std::to_string(grid.ny));
  d.nx = grid.nx;
  d.ny = grid.ny;
  d.px = fft_size(2 * d.nx - 1);
  d.py = fft_size(2 * d.ny - 1);
  const std::vector<RooftopCells> cells = rooftop_cells(mesh, tables.edge_profiles);
  d.n = static_cast<int>(cells.size());

  std::map<ChannelKey, int> channel_of;
  const auto channel = [&](int group, int kind) {
    const auto [it, added] = channel_of.emplace(ChannelKey{group, kind},
                                                static_cast<int>(d.channels.size()));
    if (added) d.channels.push_back({group, kind});
    return it->second;
  };
  const auto point = [&](int i, int j) {
    return static_cast<long long>(j) * d.px + i;
  };
  // A rooftop's places (sign ±1: a bubble's subtracted rooftop enters with −1).
  const auto add_rooftop = [&](const RooftopCells& r, double sign, std::vector<Place>& out) {
    const int pi = r.i + (r.axis == 0 ? 1 : 0), pj = r.j + (r.axis == 1 ? 1 : 0);
    out.push_back({channel(r.axis, r.kind), point(r.i, r.j), sign});
    out.push_back({channel(2, r.minus_charge), point(r.i, r.j), sign});
    out.push_back({channel(2, r.plus_charge), point(pi, pj), -sign});
  };
  d.places.resize(cells.size());
  for (std::size_t m = 0; m < cells.size(); ++m) {
    add_rooftop(cells[m], 1.0, d.places[m]);
    if (cells[m].kind2 >= 0) add_rooftop(cells[m].subtracted(), -1.0, d.places[m]);
  }

  const std::size_t g = d.points();
  d.scratch = buffer(g);
  d.forward = fftw_plan_dft_2d(d.py, d.px, d.scratch.get(), d.scratch.get(), FFTW_FORWARD,
                               FFTW_ESTIMATE);
  d.backward = fftw_plan_dft_2d(d.py, d.px, d.scratch.get(), d.scratch.get(), FFTW_BACKWARD,
                                FFTW_ESTIMATE);
  const auto c = static_cast<int>(d.channels.size());
  d.kernel_of.assign(static_cast<std::size_t>(c) * c, -1);
  const cd jw(0.0, 2.0 * 3.14159265358979323846 * tables.frequency_hz);
  const double inv_a2 = 1.0 / (tables.cell_m * tables.cell_m);
  for (int o = 0; o < c; ++o)
    for (int s = 0; s < c; ++s) {
      const ChannelKey ko = d.channels[static_cast<std::size_t>(o)];
      const ChannelKey ks = d.channels[static_cast<std::size_t>(s)];
      if (ko.group != ks.group) continue;
      const int table = ko.group == 2 ? charge_table(ko.kind, ks.kind)
                                      : vector_table(ko.group, ko.kind, ks.kind);
      if (tables.start[static_cast<std::size_t>(table)] < 0) continue;
      // v_o[c] = Σ_c' T(c' − c) u_s[c']: a convolution with K[δ] = T(−δ), placed circularly;
      // the FFT's 1/(px py) folded in.
      const cd factor = (ko.group == 2 ? inv_a2 / jw : jw) / static_cast<double>(g);
      Buffer k = buffer(g);
      std::fill_n(reinterpret_cast<cd*>(k.get()), g, cd(0.0));
      for (int dj = -(d.ny - 1); dj < d.ny; ++dj)
        for (int di = -(d.nx - 1); di < d.nx; ++di) {
          const cd t = tables.at(table, -di, -dj) * factor;
          const long long at = point((di + d.px) % d.px, (dj + d.py) % d.py);
          reinterpret_cast<cd*>(k.get())[at] = t;
        }
      fftw_execute_dft(d.forward, k.get(), k.get());
      d.kernel_of[static_cast<std::size_t>(o) * c + s] = static_cast<int>(d.kernels.size());
      d.kernels.push_back(std::move(k));
    }
  for (int ch = 0; ch < c; ++ch) d.grids.push_back(buffer(g));
}

ConvolutionOperator::~ConvolutionOperator() = default;

bool ConvolutionOperator::available() { return true; }

int ConvolutionOperator::size() const { return impl_->n; }

void ConvolutionOperator::apply(std::span<const cd> x, std::span<cd> y) const {
  const Impl& d = *impl_;
  if (x.size() != static_cast<std::size_t>(d.n) || y.size() != static_cast<std::size_t>(d.n))
    throw std::invalid_argument("ConvolutionOperator::apply: expected " + std::to_string(d.n) +
                                " values, got x of " + std::to_string(x.size()) + " and y of " +
                                std::to_string(y.size()));
  const std::size_t g = d.points();
  const auto c = static_cast<int>(d.channels.size());
  const auto grid = [&](int ch) { return reinterpret_cast<cd*>(d.grids[static_cast<std::size_t>(ch)].get()); };
  for (int ch = 0; ch < c; ++ch) std::fill_n(grid(ch), g, cd(0.0));
  for (int m = 0; m < d.n; ++m)
    for (const Place& p : d.places[static_cast<std::size_t>(m)])
      grid(p.channel)[p.point] += p.sign * x[static_cast<std::size_t>(m)];
  for (int ch = 0; ch < c; ++ch)
    fftw_execute_dft(d.forward, d.grids[static_cast<std::size_t>(ch)].get(),
                     d.grids[static_cast<std::size_t>(ch)].get());
  // Each observer channel's potential from every source channel of its group, into scratch,
  // back to the grid and read at the functions' places.
  std::vector<Buffer> potential;
  for (int o = 0; o < c; ++o) {
    Buffer v = buffer(g);
    auto* out = reinterpret_cast<cd*>(v.get());
    std::fill_n(out, g, cd(0.0));
    for (int s = 0; s < c; ++s) {
      const int k = d.kernel_of[static_cast<std::size_t>(o) * c + s];
      if (k < 0) continue;
      const auto* kernel = reinterpret_cast<const cd*>(d.kernels[static_cast<std::size_t>(k)].get());
      const cd* u = grid(s);
      for (std::size_t q = 0; q < g; ++q) out[q] += kernel[q] * u[q];
    }
    fftw_execute_dft(d.backward, v.get(), v.get());
    potential.push_back(std::move(v));
  }
  for (int m = 0; m < d.n; ++m) {
    cd sum = 0.0;
    for (const Place& p : d.places[static_cast<std::size_t>(m)])
      sum += p.sign * reinterpret_cast<const cd*>(potential[static_cast<std::size_t>(p.channel)].get())[p.point];
    y[static_cast<std::size_t>(m)] = sum;
  }
}

ConvolutionOperator::Footprint ConvolutionOperator::footprint() const {
  const Impl& d = *impl_;
  const std::size_t bytes = d.points() * sizeof(fftw_complex);
  return {d.points(), static_cast<int>(d.channels.size()), static_cast<int>(d.kernels.size()),
          d.kernels.size() * bytes, 2 * d.channels.size() * bytes};
}

}  // namespace pmom::mom
