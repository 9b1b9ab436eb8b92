// Z·x with every interaction, by FFT on the uniform grid (issue 17; shared/DESIGN.md §6): the
// MPIE's entries depend only on the kinds of the two functions and their offset
// (assembly.hpp), so Z = jω Σ_axis Pᵀ_axis K_axis P_axis + 1/(jω a²) Pᵀ_q K_q P_q, where P
// puts each function's coefficient on the grid, one channel per kind (the vector potential's
// rooftop kinds per axis; the charge shapes of its two cells, + on the minus cell and − on
// the plus cell; a cell bubble as its rooftop less the subtracted one), and K is the
// block-Toeplitz matrix of the offset tables between channels (convolution_layout.hpp; the
// device's product is device_convolution.hpp). Each block of K is a 2-D
// convolution, exact with the grid zero-padded to at least 2n − 1 per axis: per product,
// one forward FFT per channel, a pointwise product per pair of channels of one group, one
// inverse FFT per channel. Nothing is projected or approximated: y equals the dense
// assemble_impedance's Z·x to round-off (Z exactly symmetric since the tables read ±Δ of a
// kind pair from one entry).
#pragma once

#include <complex>
#include <cstddef>
#include <memory>
#include <span>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/mom/assembly.hpp"
#include "planarmom/mom/convolution_layout.hpp"

namespace pmom::mom {

class ConvolutionOperator {
 public:
  // The channels, the functions' places on the grid and the kernels' spectra of one
  // frequency, from tables built for the mesh with every offset the dense Z reads
  // (make_interaction_tables). Throws std::invalid_argument when the tables do not match the
  // grid, std::runtime_error in a build without FFTW.
  ConvolutionOperator(const geometry::Mesh& mesh, const InteractionTables& tables);
  // The same from a layout made once for the mesh (make_convolution_layout), for a sweep.
  ConvolutionOperator(std::shared_ptr<const ConvolutionLayout> layout,
                      const InteractionTables& tables);
  ~ConvolutionOperator();
  // False in a build without FFTW (Debian: libfftw3-dev), where the constructor throws.
  static bool available();
  ConvolutionOperator(const ConvolutionOperator&) = delete;
  ConvolutionOperator& operator=(const ConvolutionOperator&) = delete;

  [[nodiscard]] int size() const;
  // y = Z x (Z as assemble_impedance builds it: no port loads or metal loss). Throws
  // std::invalid_argument when x or y does not have size() values.
  void apply(std::span<const std::complex<double>> x, std::span<std::complex<double>> y) const;

  // What one product holds (one column).
  [[nodiscard]] ConvolutionFootprint footprint() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pmom::mom
