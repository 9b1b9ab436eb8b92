// The mirror split of a straight line's system (line_mirror.hpp).
#include "planarmom/mom/line_mirror.hpp"

namespace pmom::mom {

LineMirror line_mirror(const geometry::Mesh& mesh) {
  if (mesh.bubble_count() > 0) return {};
  const int nx = mesh.grid().nx;
  LineMirror m;
  for (const geometry::Rooftop& r : mesh.basis()) {
    const bool x = r.axis == geometry::Axis::x;
    const int image = x ? mesh.x_edge_basis(nx - (r.minus.i + 1), r.minus.j)
                        : mesh.y_edge_basis(nx - 1 - r.minus.i, r.minus.j + 1);
    if (image < 0) return {};
    m.image.push_back(image);
    m.sign.push_back(x ? -1 : 1);
  }
  for (int c = 0; c < static_cast<int>(m.image.size()); ++c)
    if (m.image[static_cast<std::size_t>(c)] >= c) m.reps.push_back(c);
  return m;
}

std::vector<MirrorPart> mirror_parts(const LineMirror& mirror,
                                     std::span<const std::complex<double>> b, int columns) {
  const std::size_t n = mirror.image.size();
  std::vector<MirrorPart> parts;
  for (const int sigma : {1, -1}) {
    MirrorPart part;
    part.sigma = sigma;
    for (std::size_t r = 0; r < mirror.reps.size(); ++r) {
      const int c = mirror.reps[r];
      if (mirror.image[static_cast<std::size_t>(c)] != c ||
          sigma * mirror.sign[static_cast<std::size_t>(c)] == 1)
        part.kept.push_back(static_cast<int>(r));
    }
    const std::size_t k = part.kept.size();
    part.rhs.assign(k * static_cast<std::size_t>(columns), 0.0);
    bool zero = true;
    for (std::size_t q = 0; q < k; ++q) {
      const auto m = static_cast<std::size_t>(part.basis(mirror, q));
      const double s = sigma * mirror.sign[m];
      for (int col = 0; col < columns; ++col) {
        const std::size_t base = static_cast<std::size_t>(col) * n;
        const std::complex<double> v =
            0.5 * (b[base + m] + s * b[base + static_cast<std::size_t>(mirror.image[m])]);
        part.rhs[static_cast<std::size_t>(col) * k + q] = v;
        zero = zero && v == 0.0;
      }
    }
    if (!zero) parts.push_back(std::move(part));
  }
  return parts;
}

void add_part_solution(const LineMirror& mirror, const MirrorPart& part,
                       std::span<const std::complex<double>> x_part, int columns,
                       std::span<std::complex<double>> x) {
  const std::size_t n = mirror.image.size(), k = part.kept.size();
  for (std::size_t p = 0; p < k; ++p) {
    const auto c = static_cast<std::size_t>(part.basis(mirror, p));
    const auto image = static_cast<std::size_t>(mirror.image[c]);
    for (int col = 0; col < columns; ++col) {
      const std::size_t base = static_cast<std::size_t>(col) * n;
      const std::complex<double> v = x_part[static_cast<std::size_t>(col) * k + p];
      x[base + c] += v;
      if (image != c) x[base + image] += double(part.sigma * mirror.sign[c]) * v;
    }
  }
}

}  // namespace pmom::mom
