// SVG drawing of a meshed layout: what the solver will see, for checking a config by eye.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "format.hpp"
#include "planarmom/geometry/svg.hpp"

namespace pmom::geometry {

namespace {

std::string escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

// Layout mm -> picture px, y flipped so that the layout's +y points up.
struct View {
  double left, top, scale;
  [[nodiscard]] double x(double mm) const { return (mm - left) * scale; }
  [[nodiscard]] double y(double mm) const { return (top - mm) * scale; }
};

Point unit(Direction d) {
  switch (d) {
    case Direction::pos_x: return {1, 0};
    case Direction::neg_x: return {-1, 0};
    case Direction::pos_y: return {0, 1};
    case Direction::neg_y: return {0, -1};
  }
  return {};
}

// The largest 1, 2 or 5 x 10^k not above `limit`.
double nice_length(double limit) {
  const double decade = std::pow(10.0, std::floor(std::log10(limit)));
  for (const double m : {5.0, 2.0, 1.0}) {
    if (m * decade <= limit) return m * decade;
  }
  return decade;
}

class Writer {
 public:
  explicit Writer(const View& view) : v_(view) { out_.setf(std::ios::fixed); out_.precision(2); }

  void line(Point a, Point b, const std::string& style) {
    out_ << "<line x1=\"" << v_.x(a.x) << "\" y1=\"" << v_.y(a.y) << "\" x2=\"" << v_.x(b.x)
         << "\" y2=\"" << v_.y(b.y) << "\" " << style << "/>\n";
  }
  void rect(double x0, double y0, double x1, double y1, const std::string& style) {
    out_ << "<rect x=\"" << v_.x(x0) << "\" y=\"" << v_.y(y1) << "\" width=\""
         << (x1 - x0) * v_.scale << "\" height=\"" << (y1 - y0) * v_.scale << "\" " << style
         << "/>\n";
  }
  // Every ring as one path (even-odd fill): a polygon's outline as drawn.
  void polygon(const Polygon& p, const std::string& style) {
    out_ << "<path fill-rule=\"evenodd\" d=\"";
    for (const auto& ring : p.rings) {
      for (std::size_t k = 0; k < ring.size(); ++k)
        out_ << (k == 0 ? 'M' : 'L') << v_.x(ring[k].x) << ' ' << v_.y(ring[k].y);
      out_ << 'Z';
    }
    out_ << "\" " << style << "/>\n";
  }
  void text(Point at, const std::string& content, const std::string& style) {
    out_ << "<text x=\"" << v_.x(at.x) << "\" y=\"" << v_.y(at.y) << "\" " << style << ">"
         << escape(content) << "</text>\n";
  }
  std::ostringstream& raw() { return out_; }
  [[nodiscard]] const View& view() const { return v_; }

 private:
  View v_;
  std::ostringstream out_;
};

void draw_port(Writer& w, const Mesh& mesh, const MeshPort& mp, double arrow_mm) {
  const Port& port = mesh.layout().ports[static_cast<std::size_t>(mp.port)];
  const Point u = unit(mp.direction), across{-u.y, u.x};
  const Point c = mp.edge_centre;
  const auto at = [&](double along, double side) {
    return Point{c.x + along * u.x + side * across.x, c.y + along * u.y + side * across.y};
  };
  const double half = mp.width_mm / 2;
  // Cross-sections are drawn as segments across the feed at their distance from the edge.
  w.line(at(mp.delta_gap().distance_mm, -half), at(mp.delta_gap().distance_mm, half),
         "stroke=\"#d00\" stroke-width=\"3\" class=\"delta-gap\"");
  w.line(at(port.reference_plane_mm, -half * 1.4), at(port.reference_plane_mm, half * 1.4),
         "stroke=\"#06c\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\" class=\"reference-plane\"");
  const Point tail = at(-arrow_mm, 0), head = at(0, 0);
  w.line(tail, head, "stroke=\"#06c\" stroke-width=\"2\"");
  const double tip = arrow_mm * 0.3;
  const View& v = w.view();
  w.raw() << "<polygon fill=\"#06c\" points=\"" << v.x(head.x) << ',' << v.y(head.y) << ' '
          << v.x(at(-tip, tip / 2).x) << ',' << v.y(at(-tip, tip / 2).y) << ' '
          << v.x(at(-tip, -tip / 2).x) << ',' << v.y(at(-tip, -tip / 2).y) << "\"/>\n";
  w.text(at(-arrow_mm * 1.15, 0), port.name,
         "font-size=\"14\" font-family=\"sans-serif\" text-anchor=\"middle\" "
         "dominant-baseline=\"middle\" fill=\"#06c\"");
}

// A lumped element: a bar across its strip on its grid line, and its name beside it.
void draw_lumped(Writer& w, const Mesh& mesh, const MeshLumped& l) {
  const Grid& g = mesh.grid();
  const bool x = l.axis == Axis::x;
  const double line = x ? g.x0 + l.line * g.dx_mm : g.y0 + l.line * g.dy_mm;
  const double from = (x ? g.y0 : g.x0) + l.first * l.across_mm;
  const double to = from + l.count * l.across_mm;
  const auto at = [&](double across) { return x ? Point{line, across} : Point{across, line}; };
  w.line(at(from), at(to), "stroke=\"#7a1fa2\" stroke-width=\"5\" class=\"lumped\"");
  w.text(at(to + l.across_mm), mesh.layout().lumped[static_cast<std::size_t>(l.element)].name,
         "font-size=\"12\" font-family=\"sans-serif\" text-anchor=\"middle\" fill=\"#7a1fa2\"");
}

}  // namespace

std::string svg_text(const Mesh& mesh) {
  const Grid& g = mesh.grid();
  const double width = g.nx * g.dx_mm, height = g.ny * g.dy_mm;
  const double margin = std::max(0.2 * std::max(width, height), 4 * std::max(g.dx_mm, g.dy_mm));
  const double scale = 800.0 / (std::max(width, height) + 2 * margin);
  Writer w(View{g.x0 - margin, g.y0 + height + margin, scale});
  const double px_w = (width + 2 * margin) * scale, px_h = (height + 2 * margin) * scale;

  w.raw() << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << px_w << "\" height=\""
          << px_h << "\" viewBox=\"0 0 " << px_w << ' ' << px_h << "\">\n"
          << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
          << "<g class=\"metal\" fill=\"#e8b04a\">\n";
  // Layers bottom to top, each over the ones under it; translucent where there are several.
  for (int l = 0; l < mesh.layer_count(); ++l) {
    if (mesh.layer_count() > 1)
      w.raw() << "<g class=\"layer\" data-interface=\"" << mesh.layers()[static_cast<std::size_t>(l)]
              << "\" fill-opacity=\"0.6\"" << (l % 2 == 1 ? " fill=\"#4a8ee8\"" : "") << ">\n";
    for (int j = 0; j < g.ny; ++j) {
      for (int i = 0; i < g.nx; ++i) {
        if (mesh.is_metal({i, j}, l))
          w.rect(g.x_line(i), g.y_line(j), g.x_line(i + 1), g.y_line(j + 1), "");
      }
    }
    if (mesh.layer_count() > 1) w.raw() << "</g>\n";
  }
  w.raw() << "</g>\n<path class=\"grid\" fill=\"none\" stroke=\"#999\" stroke-width=\"0.3\" d=\"";
  const View& v = w.view();
  for (int i = 0; i <= g.nx; ++i) {
    w.raw() << 'M' << v.x(g.x_line(i)) << ' ' << v.y(g.y_line(0)) << 'V' << v.y(g.y_line(g.ny));
  }
  for (int j = 0; j <= g.ny; ++j) {
    w.raw() << 'M' << v.x(g.x_line(0)) << ' ' << v.y(g.y_line(j)) << 'H' << v.x(g.x_line(g.nx));
  }
  w.raw() << "\"/>\n<g class=\"rectangles\">\n";
  for (const Rect& r : mesh.layout().rects) {
    w.rect(r.x0, r.y0, r.x1, r.y1, "fill=\"none\" stroke=\"#333\" stroke-width=\"1\"");
  }
  for (const Polygon& p : mesh.layout().polygons)
    w.polygon(p, "fill=\"none\" stroke=\"#333\" stroke-width=\"1\"");
  w.raw() << "</g>\n";
  // An internal port's arrow points along its current, inside the metal: short.
  for (const MeshPort& mp : mesh.ports())
    draw_port(w, mesh, mp, mp.internal ? 2 * mp.width_mm : margin * 0.5);
  for (const MeshLumped& l : mesh.lumped()) draw_lumped(w, mesh, l);

  const double bar = nice_length(0.3 * std::max(width, height));
  const Point bar_start{g.x0, g.y0 - margin * 0.6};
  w.line(bar_start, {bar_start.x + bar, bar_start.y}, "stroke=\"black\" stroke-width=\"2\"");
  w.text({bar_start.x + bar / 2, bar_start.y - margin * 0.2},
         detail::num(bar) + " mm (cell " + cell_text(g.cell()) + " mm)",
         "font-size=\"12\" font-family=\"sans-serif\" text-anchor=\"middle\"");
  w.raw() << "</svg>\n";
  return w.raw().str();
}

void write_svg(const Mesh& mesh, const std::filesystem::path& path) {
  std::ofstream out(path, std::ios::binary);
  out << svg_text(mesh);
  if (!out.flush()) throw std::runtime_error(path.string() + ": cannot write the SVG picture");
}

}  // namespace pmom::geometry
