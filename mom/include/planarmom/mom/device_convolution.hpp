// The exact operator's product on a CUDA device (issue 17): Z·x by cuFFT per kind channel,
// the algorithm of convolution_operator.hpp on the layout of convolution_layout.hpp, with the
// kernels' spectra made on the device from the offset tables a DeviceFill left there, plus a
// sparse correction (the port loads, the strips' loss) fused into the last step. Equal to the
// host product to round-off. In a build without CUDA, constructing one throws.
#pragma once

#include <complex>
#include <memory>

#include "planarmom/gpusolver/csr.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/convolution_layout.hpp"
#include "planarmom/mom/via_border.hpp"

namespace pmom::mom {

class DeviceConvolution {
 public:
  // Uploads the layout and allocates the kernels' spectra. Throws std::runtime_error when
  // there is no CUDA device or too little memory (the footprint is what it needs).
  explicit DeviceConvolution(std::shared_ptr<const ConvolutionLayout> layout);
  ~DeviceConvolution();
  DeviceConvolution(const DeviceConvolution&) = delete;
  DeviceConvolution& operator=(const DeviceConvolution&) = delete;

  // One frequency: the kernels' spectra from tables in device memory
  // (DeviceFill::device_tables: every offset of the layout's tables) and the correction
  // (n x n, host memory, uploaded). Returns when done. Throws std::invalid_argument when the
  // correction's size is not the layout's.
  void update(const TableView& device_tables, const Csr<std::complex<double>>& correction);
  // The vias' rows and columns (via_border.hpp) for the next products, uploaded: vectors then
  // hold the layout's functions and after them border.vias via unknowns (size() rows in all),
  // the product adding the border's part. A border of no vias removes it. Returns when done.
  void set_border(const ViaBorder& border);
  // The FFT plans and grids for products of `columns` columns; apply makes them when missing,
  // which must not happen inside a CUDA graph's capture: call this first.
  void reserve(int columns);
  // y = alpha (Z + correction) x + beta y, x and y size() x columns column-major in device memory
  // (y's old values unread when beta is 0), queued on `stream` (a cudaStream_t) without
  // synchronising. adjoint: with (Z + correction)ᴴ, which for the symmetric Z and correction
  // is conj((Z + correction) conj(x)): the same FFTs on conjugated sources (BiCG).
  void apply(const std::complex<double>* x, std::complex<double>* y, int columns,
             std::complex<double> alpha, std::complex<double> beta, void* stream,
             bool adjoint = false) const;

  // The rows of a product: the layout's functions and the border's vias.
  [[nodiscard]] int size() const;
  // Kernels and grids for `columns` columns.
  [[nodiscard]] ConvolutionFootprint footprint(int columns) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pmom::mom
