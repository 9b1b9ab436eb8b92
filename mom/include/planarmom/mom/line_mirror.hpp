// The mirror symmetries of a straight line's mesh, which split the line's system Z x = b into
// parts of fewer unknowns: the mirror about the line's middle (x ↦ L − x) into an even and an
// odd part of half the unknowns each, a quarter of one full LU's work; on a coupled pair (two
// strips, each the other's mirror image) also the mirror between the strips (y ↦ H − y), into
// four parts of a quarter each: the pair's even and odd modes. One description of the split for
// every solver of a line (the host's LU in line_characterisation.cpp, the backend's in the
// sweep's line checks); each forms its parts' matrices where Z lives.
#pragma once

#include <complex>
#include <span>
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/mom/mesh_symmetry.hpp"

namespace pmom::mom {


// The symmetry group's elements other than the identity: the mirror along the line and, on a
// pair, the mirror between the strips and their product. reps: one of each orbit (its lowest
// index), ascending.
struct LineMirror {
  std::vector<MeshMirror> elements;
  std::vector<int> reps;
  [[nodiscard]] bool empty() const { return elements.empty(); }
  // Calls f(d, e) for each basis function d ≠ c in c's orbit, once each, with the element e
  // (index into elements) that maps c to d.
  template <class F> void for_each_image(int c, F&& f) const {
    for (std::size_t e = 0; e < elements.size(); ++e) {
      const int d = elements[e].image[static_cast<std::size_t>(c)];
      bool seen = d == c;
      for (std::size_t k = 0; k < e && !seen; ++k)
        seen = elements[k].image[static_cast<std::size_t>(c)] == d;
      if (!seen) f(d, e);
    }
  }
};
// Empty when the mesh is not mirror-symmetric along the line or has cell bubbles. The mirror
// between strips joins only where no basis function is its own image under it (two separate
// strips; a single strip's own symmetry across is left out, so a single line's split stays one
// mirror's).
LineMirror line_mirror(const geometry::Mesh& mesh);

// Z commutes with each element S, (S x)_m = sign_m x_image(m), so the part of the right-hand
// sides of character χ (χ(S) = ±1 per element, a product's the product of its factors'),
// b_χ = Σ_S χ(S) S b / |G|, has its solution in the same part: x_image(c) = χ(S) sign_c x_c,
// and a basis function its own image under S only where χ(S) sign_c = 1. On the representatives
// kept that is Z_χ x_χ = b_χ with Z_χ(q, p) = Σ over c_p's orbit of χ(S) sign(c_p) Z(m_q, S c_p)
// (m_q, c_p: the kept basis functions; the identity's term Z(m_q, c_p)).
struct MirrorPart {
  std::vector<int> character;             // χ(S), per element
  std::vector<int> kept;                  // positions in LineMirror::reps
  std::vector<std::complex<double>> rhs;  // b_χ on the kept ones, kept.size() x columns
  // The kept basis function at position q of the part.
  [[nodiscard]] int basis(const LineMirror& m, std::size_t q) const {
    return m.reps[static_cast<std::size_t>(kept[q])];
  }
  // The factor of c's image under element e in this part: χ(S_e) sign_e(c).
  [[nodiscard]] double weight(const LineMirror& m, int c, std::size_t e) const {
    return double(character[e] * m.elements[e].sign[static_cast<std::size_t>(c)]);
  }
};
// The parts whose right-hand sides are not zero (b: n x columns, column-major), the
// characters even along the line first (then, on a pair, even between the strips first).
std::vector<MirrorPart> mirror_parts(const LineMirror& mirror,
                                     std::span<const std::complex<double>> b, int columns);
// x (n x columns, column-major, zero to begin with) += the part's solution x_χ
// (kept.size() x columns) spread over its orbits.
void add_part_solution(const LineMirror& mirror, const MirrorPart& part,
                       std::span<const std::complex<double>> x_part, int columns,
                       std::span<std::complex<double>> x);

}  // namespace pmom::mom
