// The strips' image term on a lattice of sub-cells (surface_loss.hpp): the kernel
// k(ρ) = 2h/(4π (ρ² + 4h²)^{3/2}) at the lattice's offsets within its reach, and a rooftop's
// current as masses on the lattice. One description for the mesh's loss entries
// (strip_image.cpp) and the period of an infinite line (periodic_line.cpp), so that a line's
// periodic check and its long line carry the same image term (private to the mom module).
#pragma once

#include <vector>

#include "planarmom/mom/assembly.hpp"

namespace pmom::mom {

class ImageLattice {
 public:
  // Cells a × b (m) on a slab h thick; k cut beyond reach_heights · h.
  ImageLattice(double a, double b, double h, double reach_heights);
  // k at the lattice offset (di, dj) times a cell's area (cells² → m²); 0 beyond the reach.
  [[nodiscard]] double at(int di, int dj) const {
    if (di < -reach_ || di > reach_ || dj < -reach_y_ || dj > reach_y_) return 0.0;
    return kernel_[static_cast<std::size_t>(dj + reach_y_) * width_ +
                   static_cast<std::size_t>(di + reach_)];
  }
  [[nodiscard]] int sub_x() const { return sub_x_; }
  [[nodiscard]] int sub_y() const { return sub_y_; }
  [[nodiscard]] int reach() const { return reach_; }
  [[nodiscard]] int reach_y() const { return reach_y_; }
  // The sub-cell's area (m²) and 4 × it, what 4⟨k ⊛ f_m, k ⊛ f_n⟩ sums the products with.
  [[nodiscard]] double overlap_weight() const { return 4.0 * step_ * step_y_; }

 private:
  int sub_x_, sub_y_, reach_, reach_y_;
  double step_, step_y_;
  std::size_t width_;
  std::vector<double> kernel_;
};

// A basis function's current on the sub-cell lattice: (lattice x, lattice y, ∫ f over the
// sub-cell in cells²).
struct Mass {
  int gi = 0, gj = 0;
  double mass = 0;
};

// Appends the masses of a rooftop of `shape` along `axis` whose minus cell is (i, j), times sign.
void add_rooftop_masses(int axis, int i, int j, const RooftopShape& shape, double sign,
                        int sub_x, int sub_y, std::vector<Mass>& out);

}  // namespace pmom::mom
