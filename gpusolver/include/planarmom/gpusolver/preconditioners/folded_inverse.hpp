// The inverse of a dense matrix that commutes with a mirror S, (S x)_m = sign_m x_image(m),
// made on its two parity parts (and theirs, for a second mirror): A folded onto each (half the
// unknowns, DenseKernels::fold_dense) and each part's inverse made where A lives, two LUs of
// half the size, a quarter of one LU's work; applied as M⁻¹ x = Σ_χ U_χ A_χ⁻¹ F_χ x, the
// vectors folded onto each part and spread back by DenseKernels::combine_rows. Where A commutes
// with S exactly, M⁻¹ = A⁻¹; where it nearly does, M⁻¹ is a preconditioner (the sweep's,
// preconditioners/recycled_lu.hpp).
#pragma once

#include <complex>
#include <memory>
#include <vector>

#include "planarmom/gpusolver/backend.hpp"
#include "planarmom/gpusolver/kernels/dense.hpp"

namespace pmom {

// A symmetry of the unknowns that squares to the identity: (S x)_m = sign_m x_image(m).
struct Involution {
  std::vector<int> image, sign;
};

// One parity part χ = ±1 of S: the unknowns kept (one of each pair {c, image(c)}, and each
// unknown that is its own image with χ sign = +1), and per kept unknown its image (−1 where it
// is its own) with the weight χ sign(c).
struct FoldPart {
  std::vector<index_t> kept, partner;
  std::vector<double> weight;
};

// The two parts of S. Together they keep every unknown once: a pair in each part, a
// self-image in the part its sign allows.
std::vector<FoldPart> fold_parts(const Involution& s);

// Another symmetry T that commutes with S, as it acts on one of S's parts: the part's unknown q
// maps to r with T e_q = sign e_r, e_q the part's q-th vector (kept[q], plus weight[q] times its
// partner). Throws std::invalid_argument where T takes the part's vectors out of it (T and S
// do not commute).
Involution induced(const FoldPart& part, const Involution& t);

// M⁻¹ for a (n x n, in backend memory, consumed) that commutes with every one of `symmetries`
// (which commute with each other): folded on the first's two parts, each part's inverse made so
// on the others' induced maps (two commuting mirrors: four parts of a quarter, a sixteenth of
// one LU's work), the last parts' factors in `precision` (make_dense_inverse); `columns`: the
// most right-hand sides one application takes at once (more are taken in turns). Without
// symmetries, make_dense_inverse. Throws std::invalid_argument for a symmetry of another size,
// and as make_dense_inverse for a singular part.
std::shared_ptr<const Operator<std::complex<double>>> make_folded_inverse(
    Backend<std::complex<double>>& backend, Block<std::complex<double>> a,
    const std::vector<Involution>& symmetries, index_t columns, FactorPrecision precision);

}  // namespace pmom
