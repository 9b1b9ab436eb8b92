// The exact operator's channels, places and kernels (convolution_layout.hpp).
#include "planarmom/mom/convolution_layout.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

namespace pmom::mom {
namespace {

// The smallest 2^a 3^b 5^c 7^d >= n: sizes FFTW and cuFFT transform fastest.
int fft_size(int n) {
  for (int m = std::max(n, 1);; ++m) {
    int r = m;
    for (const int p : {2, 3, 5, 7})
      while (r % p == 0) r /= p;
    if (r == 1) return m;
  }
}

}  // namespace

ConvolutionLayout make_convolution_layout(const geometry::Mesh& mesh, bool edge_profiles,
                                          std::span<const long long> table_start) {
  if (table_start.size() != static_cast<std::size_t>(kTables))
    throw std::invalid_argument("make_convolution_layout: " + std::to_string(table_start.size()) +
                                " table starts, expected " + std::to_string(kTables));
  ConvolutionLayout l;
  const geometry::Grid& grid = mesh.grid();
  l.nx = grid.nx;
  l.ny = grid.ny;
  l.px = fft_size(2 * l.nx - 1);
  l.py = fft_size(2 * l.ny - 1);
  const std::vector<RooftopCells> cells = rooftop_cells(mesh, edge_profiles);
  l.n = static_cast<int>(cells.size());

  // A channel: a group (0: x-rooftops' vector potential, 1: y-rooftops', 2: charges) and a kind.
  std::map<std::pair<int, int>, int> channel_of;
  std::vector<std::pair<int, int>> channel_key;
  const auto channel = [&](int group, int kind) {
    const auto [it, added] = channel_of.emplace(std::pair{group, kind},
                                                static_cast<int>(channel_key.size()));
    if (added) channel_key.emplace_back(group, kind);
    return it->second;
  };
  const auto place = [&](int ch, int i, int j, double sign) {
    l.place_channel.push_back(ch);
    l.place_point.push_back(static_cast<long long>(j) * l.px + i);
    l.place_sign.push_back(sign);
  };
  // The charge kernels carry 1/(jω a_x²); a y-rooftop's divergence is a_x/a_y times an
  // x-rooftop's (1 on square cells).
  const double y_charge = mesh.grid().dx_mm / mesh.grid().dy_mm;
  const auto add_rooftop = [&](const RooftopCells& r, double sign) {
    const double charge = r.axis == 1 ? sign * y_charge : sign;
    place(channel(r.axis, r.kind), r.i, r.j, sign);
    place(channel(2, r.minus_charge), r.i, r.j, charge);
    place(channel(2, r.plus_charge), r.i + (r.axis == 0 ? 1 : 0), r.j + (r.axis == 1 ? 1 : 0),
          -charge);
  };
  for (const RooftopCells& c : cells) {
    add_rooftop(c, 1.0);
    if (c.kind2 >= 0) add_rooftop(c.subtracted(), -1.0);
    l.place_ptr.push_back(static_cast<int>(l.place_channel.size()));
  }
  l.channels = static_cast<int>(channel_key.size());
  // Channels numbered by (group, kind), so that each group's are contiguous.
  std::vector<int> renumber(channel_key.size());
  {
    int next = 0;
    for (const auto& [key, ch] : channel_of) renumber[static_cast<std::size_t>(ch)] = next++;
    std::vector<std::pair<int, int>> sorted(channel_key.size());
    for (std::size_t ch = 0; ch < channel_key.size(); ++ch)
      sorted[static_cast<std::size_t>(renumber[ch])] = channel_key[ch];
    channel_key = std::move(sorted);
    for (int& ch : l.place_channel) ch = renumber[static_cast<std::size_t>(ch)];
  }
  for (int ch = 0; ch <= l.channels; ++ch)
    if (ch == l.channels || ch == 0 || channel_key[static_cast<std::size_t>(ch)].first !=
                                           channel_key[static_cast<std::size_t>(ch) - 1].first)
      l.group_first.push_back(ch);

  // Slots: the places sorted by (channel, point).
  const std::size_t g = l.points();
  std::vector<std::size_t> order(l.place_channel.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::vector<int> function_of(order.size());
  for (int m = 0; m < l.n; ++m)
    for (int p = l.place_ptr[static_cast<std::size_t>(m)]; p < l.place_ptr[static_cast<std::size_t>(m) + 1]; ++p)
      function_of[static_cast<std::size_t>(p)] = m;
  const auto slot_of = [&](std::size_t p) {
    return static_cast<long long>(l.place_channel[p]) * static_cast<long long>(g) +
           l.place_point[p];
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return slot_of(a) < slot_of(b); });
  for (const std::size_t p : order) {
    if (l.slot.empty() || l.slot.back() != slot_of(p)) {
      if (!l.slot.empty()) l.slot_ptr.push_back(static_cast<int>(l.slot_function.size()));
      l.slot.push_back(slot_of(p));
    }
    l.slot_function.push_back(function_of[p]);
    l.slot_sign.push_back(l.place_sign[p]);
  }
  l.slot_ptr.push_back(static_cast<int>(l.slot_function.size()));

  for (int o = 0; o < l.channels; ++o) {
    const auto [group, kind] = channel_key[static_cast<std::size_t>(o)];
    for (int s = 0; s < l.channels; ++s) {
      const auto [source_group, source_kind] = channel_key[static_cast<std::size_t>(s)];
      if (source_group != group) continue;
      const int table = group == 2 ? charge_table(kind, source_kind)
                                   : vector_table(group, kind, source_kind);
      if (table_start[static_cast<std::size_t>(table)] < 0)
        throw std::invalid_argument("make_convolution_layout: the tables lack table " +
                                    std::to_string(table) + ", which two channels of the mesh "
                                    "need (tables made for another mesh or a sparse pattern?)");
      l.kernels.push_back({o, s, table, group == 2});
    }
    l.observer_ptr.push_back(static_cast<int>(l.kernels.size()));
  }
  return l;
}

ConvolutionFootprint footprint(const ConvolutionLayout& layout, int columns) {
  const std::size_t bytes = layout.points() * sizeof(std::complex<double>);
  return {layout.points(), layout.channels, static_cast<int>(layout.kernels.size()),
          layout.kernels.size() * bytes,
          2 * static_cast<std::size_t>(layout.channels) * static_cast<std::size_t>(columns) * bytes};
}

}  // namespace pmom::mom
