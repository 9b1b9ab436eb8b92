// Current pictures (current_picture.hpp): |J| per cell from the rooftops, an SVG and a CSV.
#include "planarmom/sweep/current_picture.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace pmom::sweep {
namespace {

using cd = std::complex<double>;

// viridis at nine evenly spaced stops: perceptually uniform and readable in grey.
constexpr unsigned char kViridis[9][3] = {{68, 1, 84},    {71, 44, 122},  {59, 81, 139},
                                          {44, 113, 142}, {33, 144, 141}, {39, 173, 129},
                                          {92, 200, 99},  {170, 220, 50}, {253, 231, 37}};

std::string colour(double t) {
  t = std::clamp(t, 0.0, 1.0) * 8.0;
  const int k = std::min(7, static_cast<int>(t));
  const double u = t - k;
  char text[8];
  int rgb[3];
  for (int c = 0; c < 3; ++c)
    rgb[c] = static_cast<int>(std::lround((1 - u) * kViridis[k][c] + u * kViridis[k + 1][c]));
  std::snprintf(text, sizeof text, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
  return text;
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::string xml_text(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
}

std::string ghz_text(double hz) {
  std::ostringstream out;
  out << hz * 1e-9;
  return out.str();
}

}  // namespace

std::vector<double> current_density(const geometry::Mesh& mesh, std::span<const cd> currents,
                                    int layer) {
  const geometry::Grid& g = mesh.grid();
  const auto& basis = mesh.basis();
  if (currents.size() != basis.size())
    throw std::invalid_argument("current_density: " + std::to_string(currents.size()) +
                                " currents for " + std::to_string(basis.size()) + " basis functions");
  const auto cells = static_cast<std::size_t>(g.nx) * static_cast<std::size_t>(g.ny);
  std::vector<cd> jx(cells), jy(cells);
  const auto at = [&](geometry::Cell c) {
    return static_cast<std::size_t>(c.j) * static_cast<std::size_t>(g.nx) +
           static_cast<std::size_t>(c.i);
  };
  for (std::size_t n = 0; n < basis.size(); ++n) {
    const geometry::Rooftop& r = basis[n];
    if (r.layer != layer) continue;
    std::vector<cd>& j = r.axis == geometry::Axis::x ? jx : jy;
    if (r.bubble) {
      j[at(r.minus)] += currents[n];
    } else {
      j[at(r.minus)] += 0.5 * currents[n];
      j[at(r.plus)] += 0.5 * currents[n];
    }
  }
  std::vector<double> magnitude(cells, std::numeric_limits<double>::quiet_NaN());
  for (int cj = 0; cj < g.ny; ++cj)
    for (int ci = 0; ci < g.nx; ++ci) {
      const geometry::Cell c{ci, cj};
      if (mesh.is_metal(c, layer)) magnitude[at(c)] = std::hypot(std::abs(jx[at(c)]), std::abs(jy[at(c)]));
    }
  return magnitude;
}

std::vector<CurrentPicture> current_pictures(const std::filesystem::path& hdf5,
                                             std::span<const double> frequencies_hz,
                                             const std::vector<std::string>& ports,
                                             const std::vector<int>& interfaces) {
  std::filesystem::path stem = hdf5;
  stem.replace_extension();
  std::vector<CurrentPicture> pictures;
  for (const double hz : frequencies_hz)
    for (std::size_t p = 0; p < ports.size(); ++p) {
      const std::string name = stem.string() + "_J_" + ghz_text(hz) + "GHz_" + ports[p];
      if (interfaces.size() < 2) {
        pictures.push_back({hz, static_cast<int>(p), name + ".svg", name + ".csv", name + ".png"});
        continue;
      }
      for (std::size_t l = 0; l < interfaces.size(); ++l) {
        const std::string on = name + "_layer" + std::to_string(interfaces[l]);
        pictures.push_back(
            {hz, static_cast<int>(p), on + ".svg", on + ".csv", on + ".png", static_cast<int>(l)});
      }
    }
  return pictures;
}

void write_current_picture(const geometry::Mesh& mesh, std::span<const double> density,
                           const CurrentPicture& picture, const std::string& title) {
  const geometry::Grid& g = mesh.grid();
  double largest = 0;
  for (const double v : density)
    if (std::isfinite(v)) largest = std::max(largest, v);
  // At most 900 pixels across the layout, at most 12 a cell's longer side; px, py a cell's.
  const double per_mm = std::min(12.0 / std::max(g.dx_mm, g.dy_mm),
                                 900.0 / std::max(g.nx * g.dx_mm, g.ny * g.dy_mm));
  const double px = g.dx_mm * per_mm, py = g.dy_mm * per_mm;
  const double width = g.nx * px, height = g.ny * py;
  const double bar_x = width + 30, margin = 40;
  std::ostringstream svg, csv;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << bar_x + 110 << "\" height=\""
      << height + 2 * margin << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<text x=\"0\" y=\"16\">" << xml_text(title) << "</text>\n"
      << "<g transform=\"translate(0," << margin << ")\">\n";
  csv << "# " << title << "\nx_mm,y_mm,J_A_per_m\n";
  for (int cj = 0; cj < g.ny; ++cj)
    for (int ci = 0; ci < g.nx; ++ci) {
      const double v = density[static_cast<std::size_t>(cj) * g.nx + ci];
      if (!std::isfinite(v)) continue;
      // y up, as in the layout.
      svg << "<rect x=\"" << ci * px << "\" y=\"" << (g.ny - 1 - cj) * py << "\" width=\"" << px
          << "\" height=\"" << py << "\" fill=\"" << colour(largest > 0 ? v / largest : 0)
          << "\"/>\n";
      csv << g.x_line(ci) + 0.5 * g.dx_mm << ',' << g.y_line(cj) + 0.5 * g.dy_mm << ','
          << v << '\n';
    }
  // The colour bar: 0 at the bottom, the largest |J| at the top.
  constexpr int kSteps = 32;
  for (int k = 0; k < kSteps; ++k)
    svg << "<rect x=\"" << bar_x << "\" y=\"" << height * (kSteps - 1 - k) / kSteps
        << "\" width=\"16\" height=\"" << height / kSteps + 0.5 << "\" fill=\""
        << colour((k + 0.5) / kSteps) << "\"/>\n";
  svg << "<text x=\"" << bar_x + 22 << "\" y=\"10\">" << largest << " A/m</text>\n"
      << "<text x=\"" << bar_x + 22 << "\" y=\"" << height << "\">0</text>\n"
      << "<text x=\"0\" y=\"" << height + 24 << "\">" << g.nx * g.dx_mm << " x "
      << g.ny * g.dy_mm << " mm, |J| at the cells' centres for a 1 V gap</text>\n"
      << "</g>\n</svg>\n";
  write_file(picture.svg, svg.str());
  write_file(picture.csv, csv.str());
}

}  // namespace pmom::sweep
