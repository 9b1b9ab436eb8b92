// The inverse of a dense matrix that commutes with a mirror S, (S x)_m = sign_m x_image(m),
// made on its two parity parts: A folded onto each (half the unknowns, DenseKernels::fold_dense)
// and each part's inverse made where A lives, two LUs of half the size, a quarter of one LU's
// work; applied as M⁻¹ x = Σ_χ U_χ A_χ⁻¹ F_χ x, the vectors folded onto each part and spread
// back by DenseKernels::combine_rows. Where A commutes with S exactly, M⁻¹ = A⁻¹; where it
// nearly does, M⁻¹ is a preconditioner (the sweep's, preconditioners/recycled_lu.hpp).
#pragma once

#include <complex>
#include <memory>
#include <vector>

#include "planarmom/gpusolver/backend.hpp"
#include "planarmom/gpusolver/kernels/dense.hpp"

namespace pmom {

// One parity part χ = ±1 of S: the unknowns kept (one of each pair {c, image(c)}, and each
// unknown that is its own image with χ sign = +1), and per kept unknown its image (−1 where it
// is its own) with the weight χ sign(c).
struct FoldPart {
  std::vector<index_t> kept, partner;
  std::vector<double> weight;
};

// The two parts of S (image, sign: per unknown; S an involution). Together they keep every
// unknown once: a pair in each part, a self-image in the part its sign allows.
std::vector<FoldPart> fold_parts(const std::vector<int>& image, const std::vector<int>& sign);

// M⁻¹ for a (n x n, in backend memory, consumed) on `parts`, each part's factors in
// `precision` (make_dense_inverse); `columns`: the most right-hand sides one application
// takes at once (more are taken in turns). Throws std::invalid_argument when the parts do not
// keep every unknown once, and as make_dense_inverse for a singular part.
std::shared_ptr<const Operator<std::complex<double>>> make_folded_inverse(
    Backend<std::complex<double>>& backend, Block<std::complex<double>> a,
    const std::vector<FoldPart>& parts, index_t columns, FactorPrecision precision);

}  // namespace pmom
