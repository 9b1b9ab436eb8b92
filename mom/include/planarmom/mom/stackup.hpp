// A board's stack of dielectric layers around the strips' metal: what the layered Green's
// functions (layered_spectrum.hpp) and a covered line's characterisation (periodic_line.hpp)
// are computed for. The one-substrate board (greens.hpp's Slab) is the stack of one layer
// under the metal, air above.
#pragma once

#include <optional>
#include <vector>

#include "planarmom/mom/greens.hpp"
#include "planarmom/mom/surface_impedance.hpp"

namespace pmom::mom {

struct Layer {
  double eps_r = 1.0;         // real part εr' ≥ 1
  double loss_tangent = 0.0;  // tanδ ≥ 0
  double height_m = 1e-3;     // thickness > 0
};

// What lies over the top layer: air or a ground (geometry/layout.hpp).
using geometry::Top;

// The strips lie on top of below.back(), under above.front(); the ground (perfect, or of
// finite conductivity) under below.front(); over the last layer air or a perfect cover ground.
struct Stackup {
  std::vector<Layer> below;  // bottom to top, at least one
  std::vector<Layer> above;  // bottom to top; at least one under a cover ground
  Conductor ground{};
  Top top = Top::air;

  // Interfaces are numbered from the ground: k is the top of the k-th layer from the bottom
  // (below's, then above's); metal may lie on 1 … interfaces() (not on a cover ground).
  [[nodiscard]] int strips() const { return static_cast<int>(below.size()); }
  [[nodiscard]] int interfaces() const {
    return static_cast<int>(below.size() + above.size()) - (top == Top::ground ? 1 : 0);
  }
};

// Throws std::invalid_argument naming the layer and the field.
void validate(const Stackup& stack);

// The layout's board (mm) as layers (m): its base or cover, and the whole stack over `ground`.
std::vector<Layer> layers(const std::vector<geometry::Dielectric>& dielectrics);
Stackup stackup(const geometry::Substrate& board, const Conductor& ground);

// The slab as a stack, and a stack that is one layer under air as the slab.
Stackup one_layer(const Slab& slab);
std::optional<Slab> as_slab(const Stackup& stack);

}  // namespace pmom::mom
