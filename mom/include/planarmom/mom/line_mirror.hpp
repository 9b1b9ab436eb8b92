// The mirror symmetry of a straight line's mesh about its middle (x ↦ L − x),
// which splits the line's system Z x = b into an even and an odd part of half
// the unknowns each: a quarter of one full LU's work. One description of the
// split for every solver of a line (the host's LU in line_characterisation.cpp,
// the backend's in the sweep's line checks); each forms its parts' matrices
// where Z lives.
#pragma once

#include <complex>
#include <span>
#include <vector>

#include "planarmom/geometry/mesh.hpp"

namespace pmom::mom {

// Basis function n maps to image[n] with M f_n = sign[n] f_image[n]: −1 for
// x-rooftops (their direction reverses), +1 for y-rooftops. reps: one of each
// mirror pair (the lower index) and the self-images, ascending.
struct LineMirror {
  std::vector<int> image, sign, reps;
  [[nodiscard]] bool empty() const { return image.empty(); }
};
// Empty when the mesh is not mirror-symmetric or has cell bubbles.
LineMirror line_mirror(const geometry::Mesh& mesh);

// Z commutes with the mirror S, (S x)_m = sign_m x_image(m), so the part of the
// right-hand sides of parity σ = ±1, b_σ = (b + σ S b)/2, has its solution in
// the same parity: x_image(c) = σ sign_c x_c, and a self-image c only where σ
// sign_c = 1. On the representatives kept that is Z_σ x_σ = b_σ with Z_σ(q, p)
// = Z(m_q, c_p) + σ sign(c_p) Z(m_q, image(c_p)) for c_p of a pair, Z(m_q, c_p)
// for a self-image (m_q, c_p: the kept basis functions).
struct MirrorPart {
  int sigma = 1;
  std::vector<int> kept;                  // positions in LineMirror::reps
  std::vector<std::complex<double>> rhs;  // b_σ on the kept ones, kept.size() x columns
  // The kept basis function at position q of the part.
  [[nodiscard]] int basis(const LineMirror& m, std::size_t q) const {
    return m.reps[static_cast<std::size_t>(kept[q])];
  }
};
// The parts whose right-hand sides are not zero (b: n x columns, column-major),
// σ = +1 first.
std::vector<MirrorPart> mirror_parts(const LineMirror& mirror,
                                     std::span<const std::complex<double>> b, int columns);
// x (n x columns, column-major, zero to begin with) += the part's solution x_σ
// (kept.size() x columns) spread over both halves of the line.
void add_part_solution(const LineMirror& mirror, const MirrorPart& part,
                       std::span<const std::complex<double>> x_part, int columns,
                       std::span<std::complex<double>> x);

}  // namespace pmom::mom
