// The mirror split of a straight line's system (line_mirror.hpp).
#include "planarmom/mom/line_mirror.hpp"

namespace pmom::mom {

namespace {

// S_a S_b: (S_a S_b x)_m = sign_a(m) sign_b(image_a(m)) x_image_b(image_a(m)).
MeshMirror product(const MeshMirror& a, const MeshMirror& b) {
  MeshMirror p;
  for (std::size_t m = 0; m < a.image.size(); ++m) {
    const auto am = static_cast<std::size_t>(a.image[m]);
    p.image.push_back(b.image[am]);
    p.sign.push_back(a.sign[m] * b.sign[am]);
  }
  return p;
}

}  // namespace

LineMirror line_mirror(const geometry::Mesh& mesh) {
  if (mesh.bubble_count() > 0) return {};
  LineMirror m;
  MeshMirror along = rooftop_mirror(mesh, Mirror::x);
  if (along.image.empty()) return {};
  m.elements.push_back(std::move(along));
  MeshMirror across = rooftop_mirror(mesh, Mirror::y);
  bool pair = !across.image.empty();
  for (std::size_t c = 0; c < across.image.size() && pair; ++c)
    pair = across.image[c] != static_cast<int>(c);
  if (pair) {
    MeshMirror both = product(across, m.elements[0]);
    m.elements.push_back(std::move(across));
    m.elements.push_back(std::move(both));
  }
  const auto n = static_cast<int>(m.elements[0].image.size());
  for (int c = 0; c < n; ++c) {
    bool lowest = true;
    for (const MeshMirror& e : m.elements) lowest = lowest && e.image[static_cast<std::size_t>(c)] >= c;
    if (lowest) m.reps.push_back(c);
  }
  return m;
}

std::vector<MirrorPart> mirror_parts(const LineMirror& mirror,
                                     std::span<const std::complex<double>> b, int columns) {
  const std::size_t n = mirror.elements[0].image.size();
  // The characters: χ along ± 1 and, on a pair, χ across ± 1 and their product.
  std::vector<std::vector<int>> characters;
  for (const int along : {1, -1}) {
    if (mirror.elements.size() == 1) characters.push_back({along});
    else
      for (const int across : {1, -1}) characters.push_back({along, across, along * across});
  }
  const double share = 1.0 / double(mirror.elements.size() + 1);
  std::vector<MirrorPart> parts;
  for (std::vector<int>& character : characters) {
    MirrorPart part;
    part.character = std::move(character);
    for (std::size_t r = 0; r < mirror.reps.size(); ++r) {
      const int c = mirror.reps[r];
      bool kept = true;
      for (std::size_t e = 0; e < mirror.elements.size(); ++e)
        if (mirror.elements[e].image[static_cast<std::size_t>(c)] == c)
          kept = kept && part.weight(mirror, c, e) == 1;
      if (kept) part.kept.push_back(static_cast<int>(r));
    }
    const std::size_t k = part.kept.size();
    part.rhs.assign(k * static_cast<std::size_t>(columns), 0.0);
    bool zero = true;
    for (std::size_t q = 0; q < k; ++q) {
      const int m = part.basis(mirror, q);
      for (int col = 0; col < columns; ++col) {
        const std::size_t base = static_cast<std::size_t>(col) * n;
        std::complex<double> sum = b[base + static_cast<std::size_t>(m)];
        for (std::size_t e = 0; e < mirror.elements.size(); ++e)
          sum += part.weight(mirror, m, e) *
                 b[base + static_cast<std::size_t>(mirror.elements[e].image[static_cast<std::size_t>(m)])];
        const std::complex<double> v = share * sum;
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
  const std::size_t n = mirror.elements[0].image.size(), k = part.kept.size();
  for (std::size_t p = 0; p < k; ++p) {
    const int c = part.basis(mirror, p);
    for (int col = 0; col < columns; ++col) {
      const std::size_t base = static_cast<std::size_t>(col) * n;
      const std::complex<double> v = x_part[static_cast<std::size_t>(col) * k + p];
      x[base + static_cast<std::size_t>(c)] += v;
      mirror.for_each_image(c, [&](int d, std::size_t e) {
        x[base + static_cast<std::size_t>(d)] += part.weight(mirror, c, e) * v;
      });
    }
  }
}

}  // namespace pmom::mom
