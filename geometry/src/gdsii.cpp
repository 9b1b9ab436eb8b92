// The GDSII reader (gdsii.hpp): records, the UNITS record's base-16 reals, one
// cell's elements.
#include "planarmom/geometry/gdsii.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

#include "planarmom/geometry/error.hpp"

namespace pmom::geometry {
namespace {

// Record types (the GDSII stream format's numbers) this reader acts on.
enum Record : std::uint8_t {
  kUnits = 0x03,
  kEndLib = 0x04,
  kStrName = 0x06,
  kEndStr = 0x07,
  kBoundary = 0x08,
  kPath = 0x09,
  kSref = 0x0A,
  kAref = 0x0B,
  kLayer = 0x0D,
  kWidth = 0x0F,
  kXy = 0x10,
  kEndEl = 0x11,
  kPathType = 0x21
};

struct Point2 {
  long long x = 0, y = 0;
};

// An element of the cell: its kind, layer, vertices, and a path's width and
// type.
struct Element {
  std::uint8_t kind = 0;
  int layer = -1, path_type = 0;
  long long width = 0;
  std::vector<Point2> xy;
};

class Stream {
 public:
  explicit Stream(const std::filesystem::path& file) : file_(file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) fail("cannot be opened");
    bytes_.assign(std::istreambuf_iterator<char>(in), {});
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw GeometryError("GDSII file " + file_.string() + ": " + what);
  }
  bool done() const { return at_ >= bytes_.size(); }
  // The next record: its type and its data.
  std::uint8_t next(std::string& data) {
    if (bytes_.size() - at_ < 4)
      fail("truncated (a record header cut off at byte " + std::to_string(at_) + ")");
    const std::size_t length = byte(at_) << 8 | byte(at_ + 1);
    const std::uint8_t type = static_cast<std::uint8_t>(byte(at_ + 2));
    if (length < 4 || length % 2 != 0)
      fail("malformed record of length " + std::to_string(length) + " at byte " +
           std::to_string(at_));
    if (bytes_.size() - at_ < length)
      fail("truncated (a record of " + std::to_string(length) + " bytes at byte " +
           std::to_string(at_) + " runs past the end)");
    data.assign(bytes_, at_ + 4, length - 4);
    at_ += length;
    return type;
  }

 private:
  unsigned byte(std::size_t k) const { return static_cast<unsigned char>(bytes_[k]); }
  std::filesystem::path file_;
  std::string bytes_;
  std::size_t at_ = 0;
};

long long int_at(const std::string& d, std::size_t k, int bytes) {
  std::uint64_t v = 0;
  for (int b = 0; b < bytes; ++b)
    v = v << 8 | static_cast<unsigned char>(d[k + static_cast<std::size_t>(b)]);
  const std::uint64_t sign = std::uint64_t{1} << (8 * bytes - 1);
  return static_cast<long long>(v & sign ? v - 2 * sign : v);  // two's complement
}

// GDSII's 8-byte real: sign, 7-bit excess-64 exponent of 16, 56-bit fraction.
double real8(const std::string& d, std::size_t k) {
  const auto first = static_cast<unsigned char>(d[k]);
  std::uint64_t fraction = 0;
  for (int b = 1; b < 8; ++b)
    fraction = fraction << 8 | static_cast<unsigned char>(d[k + static_cast<std::size_t>(b)]);
  const double value = std::ldexp(static_cast<double>(fraction), -56) *
                       std::pow(16.0, static_cast<int>(first & 0x7f) - 64);
  return first & 0x80 ? -value : value;
}

std::string text(const std::string& d) { return d.substr(0, d.find('\0')); }

// A coordinate in database units, in mm (database coordinates are 32-bit: exact in a double).
double in_mm(long long v, double mm) { return static_cast<double>(v) * mm; }

// Whether every edge (or segment) runs along x or y.
bool manhattan(const std::vector<Point2>& xy, bool closed) {
  for (std::size_t k = 0; k + (closed ? 0 : 1) < xy.size(); ++k) {
    const Point2 a = xy[k], b = xy[(k + 1) % xy.size()];
    if (a.x != b.x && a.y != b.y) return false;
  }
  return true;
}

// The vertices in mm.
std::vector<Point> in_mm(const std::vector<Point2>& xy, double mm) {
  std::vector<Point> points;
  for (const Point2& p : xy) points.push_back({in_mm(p.x, mm), in_mm(p.y, mm)});
  return points;
}

// A Manhattan polygon's rectangles, by bands between its vertices' y (even-odd
// rule).
void polygon_rects(const Element& e, double mm, std::vector<Rect>& rects) {
  struct Vertical {
    long long x, y0, y1;
  };
  std::vector<Vertical> verticals;
  std::set<long long> ys;
  const std::size_t n = e.xy.size();
  for (std::size_t k = 0; k < n; ++k) {
    const Point2 a = e.xy[k], b = e.xy[(k + 1) % n];
    if (a.x == b.x && a.y != b.y)
      verticals.push_back({a.x, std::min(a.y, b.y), std::max(a.y, b.y)});
    ys.insert(a.y);
  }
  for (auto y = ys.begin(); std::next(y) != ys.end(); ++y) {
    const long long lo = *y, hi = *std::next(y);
    std::vector<long long> xs;
    for (const Vertical& v : verticals)
      if (v.y0 <= lo && v.y1 >= hi) xs.push_back(v.x);
    std::sort(xs.begin(), xs.end());
    for (std::size_t k = 0; k + 1 < xs.size(); k += 2)
      rects.push_back({in_mm(xs[k], mm), in_mm(lo, mm), in_mm(xs[k + 1], mm), in_mm(hi, mm)});
  }
}

// A Manhattan path's rectangles, one a segment, square at the joints.
void path_rects(const Element& e, double mm, std::vector<Rect>& rects) {
  const double half = 0.5 * std::abs(static_cast<double>(e.width));
  for (std::size_t k = 0; k + 1 < e.xy.size(); ++k) {
    const Point2 a = e.xy[k], b = e.xy[k + 1];
    // Half a width past a joint (the corner's square) or a square end; flush
    // ends stop.
    const double start = k > 0 || e.path_type == 2 ? half : 0.0;
    const double stop = k + 2 < e.xy.size() || e.path_type == 2 ? half : 0.0;
    const bool along_x = a.y == b.y;
    const long long from = along_x ? a.x : a.y, to = along_x ? b.x : b.y;
    const double lo = static_cast<double>(std::min(from, to)) - (from < to ? start : stop);
    const double hi = static_cast<double>(std::max(from, to)) + (from < to ? stop : start);
    const double c = static_cast<double>(along_x ? a.y : a.x);
    rects.push_back(along_x ? Rect{lo * mm, (c - half) * mm, hi * mm, (c + half) * mm}
                            : Rect{(c - half) * mm, lo * mm, (c + half) * mm, hi * mm});
  }
}

}  // namespace

GdsShapes read_gdsii_layer(const std::filesystem::path& file, const std::string& cell, int layer) {
  Stream s(file);
  double mm = 0;  // a database unit in mm
  std::vector<std::string> cells;
  std::vector<Element> elements;
  std::set<int> layers;
  bool in_cell = false, found = false, ended = false;
  Element e;
  std::string d;
  while (!s.done() && !ended) {
    const std::uint8_t type = s.next(d);
    switch (type) {
      case kUnits:
        if (d.size() != 16) s.fail("malformed UNITS record");
        mm = real8(d, 8) * 1e3;
        break;
      case kStrName:
        cells.push_back(text(d));
        in_cell = cells.back() == cell;
        found = found || in_cell;
        break;
      case kEndStr:
        in_cell = false;
        break;
      case kEndLib:
        ended = true;
        break;
      case kBoundary:
      case kPath:
        e = Element{};
        e.kind = type;
        break;
      case kSref:
      case kAref:
        if (in_cell)
          s.fail("cell '" + cell + "' places other cells (" + (type == kSref ? "SREF" : "AREF") +
                 "): flatten it in the layout tool before export");
        break;
      case kLayer:
        if (d.size() >= 2) e.layer = static_cast<int>(int_at(d, 0, 2));
        break;
      case kWidth:
        if (d.size() >= 4) e.width = int_at(d, 0, 4);
        break;
      case kPathType:
        if (d.size() >= 2) e.path_type = static_cast<int>(int_at(d, 0, 2));
        break;
      case kXy:
        e.xy.clear();
        for (std::size_t k = 0; k + 8 <= d.size(); k += 8)
          e.xy.push_back({int_at(d, k, 4), int_at(d, k + 4, 4)});
        break;
      case kEndEl:
        if (in_cell && (e.kind == kBoundary || e.kind == kPath)) {
          layers.insert(e.layer);
          elements.push_back(e);
        }
        e = Element{};
        break;
      default:
        break;
    }
  }
  if (!ended) s.fail("truncated (no ENDLIB record)");
  if (!(mm > 0)) s.fail("has no UNITS record with a positive database unit");
  if (!found) {
    std::string list;
    for (const std::string& c : cells) list += (list.empty() ? "" : ", ") + c;
    s.fail("has no cell '" + cell + "' (its cells: " + (list.empty() ? "none" : list) + ")");
  }
  GdsShapes shapes;
  std::size_t index = 0;
  for (const Element& el : elements) {
    if (el.layer != layer) continue;
    const std::string name = (el.kind == kBoundary ? "polygon " : "path ") + std::to_string(index++);
    if (el.kind == kBoundary) {
      if (el.xy.size() < 4) s.fail(name + " has fewer than 4 vertices");
      Element open = el;
      if (open.xy.front().x == open.xy.back().x && open.xy.front().y == open.xy.back().y)
        open.xy.pop_back();
      if (manhattan(open.xy, true)) {
        polygon_rects(open, mm, shapes.rects);
      } else {
        shapes.polygons.push_back({{in_mm(open.xy, mm)}, ShapeKind::polygon});
      }
      continue;
    }
    if (el.path_type != 0 && el.path_type != 1 && el.path_type != 2)
      s.fail(name + " has custom ends (type " + std::to_string(el.path_type) +
             "); use flush (0), round (1) or square (2) ends");
    if (el.path_type != 1 && manhattan(el.xy, false)) {
      path_rects(el, mm, shapes.rects);
      continue;
    }
    const PathEnds ends = el.path_type == 0 ? PathEnds::flush
                          : el.path_type == 1 ? PathEnds::round : PathEnds::extended;
    try {
      for (Polygon& p : path_outline(in_mm(el.xy, mm), std::abs(static_cast<double>(el.width)) * mm,
                                     ends, static_cast<int>(shapes.polygons.size())))
        shapes.polygons.push_back(std::move(p));
    } catch (const GeometryError& error) {
      s.fail(name + ": " + error.what());
    }
  }
  if (shapes.rects.empty() && shapes.polygons.empty()) {
    std::string list;
    for (const int l : layers) list += (list.empty() ? "" : ", ") + std::to_string(l);
    s.fail("cell '" + cell + "' has nothing on layer " + std::to_string(layer) +
           " (its layers: " + (list.empty() ? "none" : list) + ")");
  }
  return shapes;
}

}  // namespace pmom::geometry
