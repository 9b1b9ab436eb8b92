// Where the exact operator (convolution_operator.hpp) puts each basis function on its FFT
// grid, and which offset table couples each pair of channels: one description shared by the
// host (FFTW) and device (cuFFT, device_convolution.hpp) products, which need nothing else of
// the mesh. Built once per mesh; the kernels' values change with frequency, the layout not.
#pragma once

#include <complex>
#include <cstddef>
#include <span>
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/hd.hpp"

namespace pmom::mom {

struct ConvolutionLayout {
  int n = 0;         // basis functions
  int nx = 0, ny = 0;  // the mesh's grid
  int px = 0, py = 0;  // the padded grid: >= 2n - 1 per axis, 2^a 3^b 5^c 7^d
  int channels = 0;    // x-rooftop kinds, y-rooftop kinds and charge kinds in use
  // The channels of group g (x-rooftops' vector potential, y-rooftops', charges; those in use)
  // are [group_first[g], group_first[g + 1]), numbered by kind.
  std::vector<int> group_first;

  // Function m's coefficient goes, times place_sign, to grid point place_point of channel
  // place_channel, for its places [place_ptr[m], place_ptr[m + 1]): a rooftop has three (its
  // vector channel, its minus cell's charge +1 and its plus cell's −1, times a_x/a_y for a
  // y-rooftop), a cell bubble six (its rooftop less the subtracted one).
  std::vector<int> place_ptr{0}, place_channel;
  std::vector<long long> place_point;
  std::vector<double> place_sign;
  // The same relation by occupied slot (channel · points() + point): slot s sums the
  // functions [slot_ptr[s], slot_ptr[s + 1]) of slot_function times slot_sign, so that the
  // grids are written without atomics.
  std::vector<long long> slot;
  std::vector<int> slot_ptr{0}, slot_function;
  std::vector<double> slot_sign;

  // A kernel couples a source channel to an observer channel of the same group through one
  // offset table; charge kernels carry 1/(jω a_x²), vector ones jω. Sorted by observer, then
  // source: observer o's kernels are [observer_ptr[o], observer_ptr[o + 1]), one per channel
  // of its group.
  struct Kernel {
    int observer = 0, source = 0, table = 0;
    bool charge = false;
  };
  std::vector<Kernel> kernels;
  std::vector<int> observer_ptr{0};

  [[nodiscard]] std::size_t points() const {
    return static_cast<std::size_t>(px) * static_cast<std::size_t>(py);
  }
};

// What one product with `columns` right-hand sides holds, in either backend: the kernels'
// spectra and the channels' grids (the sources' and the potentials'), 16 bytes a point.
struct ConvolutionFootprint {
  std::size_t grid_points = 0;
  int channels = 0, kernels = 0;
  std::size_t kernel_bytes = 0, work_bytes = 0;
};
ConvolutionFootprint footprint(const ConvolutionLayout& layout, int columns = 1);

// The layout of a mesh whose tables have the given starts (TablePlan::start or
// InteractionTables::start: a table with start −1 is absent and couples nothing). Throws
// std::invalid_argument when a function needs an absent table.
ConvolutionLayout make_convolution_layout(const geometry::Mesh& mesh, bool edge_profiles,
                                          std::span<const long long> table_start);

// Kernel k's value at padded grid point (i, j): T(−δ) for the offset δ that point stands for
// (indices past the grid wrap to negative offsets), times jω or 1/(jω a_x²), times 1/(px py)
// (the inverse FFT's normalisation folded in); zero where no offset of the grid lands.
// Tables: a TableViewT in host or device memory.
template <class Tables, class C>
PLANARMOM_HD inline C kernel_value(const Tables& t, int table, bool charge, int nx, int ny,
                                   int px, int py, int i, int j, C scale) {
  const int di = i < nx ? i : i - px;
  const int dj = j < ny ? j : j - py;
  if (di <= -nx || dj <= -ny) return C(0.0);
  return t.value(table, -di, -dj) * (charge ? t.inv_a2 / t.jw : t.jw) * scale;
}

}  // namespace pmom::mom
