// The mirror symmetries of a layout's mesh about its grid's centre (x ↦ W − x, y ↦ H − y, and
// the half turn), as maps of the unknowns with signs. Z commutes with such a map where the
// layout and its loads do, so its LU can be made on two parity parts of half the unknowns, a
// quarter of the work (line_mirror.hpp splits a line's system so; the sweep's preconditioner,
// gpusolver's preconditioners/folded_inverse.hpp).
#pragma once

#include <complex>
#include <span>
#include <vector>

#include "planarmom/geometry/mesh.hpp"
#include "planarmom/gpusolver/preconditioners/folded_inverse.hpp"

namespace pmom::mom {

// One symmetry of the mesh: unknown n maps to image[n] with S f_n = sign[n] f_image[n] (the
// involution that gpusolver's folded inverse folds Z on).
using MeshMirror = Involution;

enum class Mirror { x, y, half_turn };  // x ↦ W − x, y ↦ H − y, both

// The map of the basis functions (rooftops and cell bubbles) under `mirror`, or empty where
// some function has no image (the metal is not symmetric so). A function along the mirrored
// axis reverses its direction (sign −1).
MeshMirror rooftop_mirror(const geometry::Mesh& mesh, Mirror mirror);

// A symmetry of every unknown of the mesh (rooftops, then via cells, which keep their sign)
// that maps each loaded gap (Mesh::loaded_gaps' order) onto one: gap_image[g].
struct LayoutMirror {
  Mirror mirror = Mirror::x;
  MeshMirror unknowns;
  std::vector<int> gap_image;
  // Whether the gaps' loads (in loaded_gaps' order) are the same on each gap and its image:
  // then Z commutes with the map.
  [[nodiscard]] bool keeps(std::span<const std::complex<double>> loads) const;
};

// The symmetries under which the whole mesh maps onto itself, independent of each other: x
// and y where it has them (the half turn, their product, adds nothing), else the half turn
// where it has that, else none.
std::vector<LayoutMirror> layout_mirrors(const geometry::Mesh& mesh);

[[nodiscard]] const char* name(Mirror mirror);

}  // namespace pmom::mom
