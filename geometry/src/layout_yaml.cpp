// The shapes of `layout:`: which keys make which shape, each read and checked where it is.
#include "layout_yaml.hpp"

#include <algorithm>
#include <array>

#include "config_fields.hpp"

namespace pmom::geometry::detail {

namespace {

enum class Shape { rectangle, polygon, path, circle, arc };

// Each shape's keys: the first names the shape (a rectangle has none of the others' first keys).
struct ShapeKeys {
  Shape shape;
  const char* name;
  YamlReader::Keys keys;
};
const std::array<ShapeKeys, 5>& shape_keys() {
  static const std::array<ShapeKeys, 5> table{{
      {Shape::polygon, "polygon", {"polygon", "layer"}},
      {Shape::path, "path", {"path", "width_mm", "ends", "layer"}},
      {Shape::circle, "circle", {"circle", "radius_mm", "layer"}},
      {Shape::arc, "arc", {"arc", "radius_mm", "width_mm", "start_deg", "stop_deg", "layer"}},
      {Shape::rectangle, "rectangle", {"x0", "y0", "x1", "y1", "layer"}},
  }};
  return table;
}

std::string list(const YamlReader::Keys& keys) {
  std::string out;
  for (const auto key : keys) out += (out.empty() ? "" : ", ") + std::string(key);
  return out;
}

class ItemReader {
 public:
  ItemReader(const YamlReader& reader, const YAML::Node& item, std::string path,
             GeometryConfig& config)
      : r_(reader), item_(item), path_(std::move(path)), c_(config) {}

  void read() {
    r_.check_keys(item_, path_, layout_item_keys());
    const ShapeKeys& kind = which();
    if (kind.shape != Shape::rectangle) record_polygon_line();
    for (const auto& entry : item_) {
      const std::string key = entry.first.Scalar();
      if (std::find(kind.keys.begin(), kind.keys.end(), key) == kind.keys.end())
        r_.fail(entry.first, path_ + "/" + key + " does not go with a " + kind.name + " (" +
                                 kind.name + " keys: " + list(kind.keys) + ")");
    }
    // The interface it lies on (/stackup's numbering), checked against the stack in validate.
    if (item_["layer"]) layer_ = r_.integer(item_["layer"], path_ + "/layer", 1, kMostLayers);
    switch (kind.shape) {
      case Shape::rectangle: return rectangle();
      case Shape::polygon: return add({{points("polygon", 3)}, ShapeKind::polygon});
      case Shape::path: return path();
      case Shape::circle:
        return add(circle_outline(point("circle"), positive("radius_mm")));
      case Shape::arc: return arc();
    }
  }

 private:
  // The shape whose first key the item has; two of them is an error.
  const ShapeKeys& which() const {
      const ShapeKeys* found = &shape_keys().back();
    for (const ShapeKeys& s : shape_keys()) {
      if (s.shape == Shape::rectangle || !item_[std::string(s.keys.front())]) continue;
      if (found->shape != Shape::rectangle)
        r_.fail(item_, path_ + " is both a " + found->name + " and a " + s.name + ": one shape per item");
      found = &s;
    }
    return *found;
  }

  [[nodiscard]] int polygon_index() const { return static_cast<int>(c_.layout.polygons.size()); }

  double number(const std::string& key, Item item, int index) {
    return read_field(r_, c_, item_, path_, key, item, index);
  }
  double positive(const std::string& key) {
    const double v = number(key, Item::polygon, polygon_index());
    if (!(v > 0)) r_.fail(item_[key], path_ + "/" + key + " must be > 0, got " + item_[key].Scalar());
    return v;
  }
  Point point_at(const YAML::Node& node, const std::string& path) const {
    if (!node.IsSequence() || node.size() != 2) r_.fail(node, path + " must be a point [x, y] in mm");
    return {r_.number(node[0], path + "/0"), r_.number(node[1], path + "/1")};
  }
  Point point(const std::string& key) const {
    return point_at(r_.require(item_, path_, key), path_ + "/" + key);
  }
  std::vector<Point> points(const std::string& key, std::size_t at_least) const {
    const YAML::Node list = r_.require(item_, path_, key);
    if (!list.IsSequence() || list.size() < at_least)
      r_.fail(list, path_ + "/" + key + " must be a list of at least " + std::to_string(at_least) +
                        " points [x, y] in mm");
    std::vector<Point> out;
    for (std::size_t k = 0; k < list.size(); ++k)
      out.push_back(point_at(list[k], path_ + "/" + key + "/" + std::to_string(k)));
    return out;
  }

  // The line of the polygon about to be added, for the errors of its outline and checks (which
  // run under validated: a GeometryError becomes a ConfigError at that line).
  void record_polygon_line() {
    c_.lines[{Item::polygon, polygon_index(), ""}] = YamlReader::line_of(item_);
  }

  void add(Polygon polygon) {
    polygon.layer = layer_;
    const int index = polygon_index();
    record_polygon_line();
    validated(c_, [&] { validate_polygon(polygon, index); });
    c_.layout.polygons.push_back(std::move(polygon));
  }

  void rectangle() {
    const int index = static_cast<int>(c_.layout.rects.size());
    c_.lines[{Item::rectangle, index, ""}] = YamlReader::line_of(item_);
    Rect rect;
    rect.x0 = number("x0", Item::rectangle, index);
    rect.y0 = number("y0", Item::rectangle, index);
    rect.x1 = number("x1", Item::rectangle, index);
    rect.y1 = number("y1", Item::rectangle, index);
    rect.layer = layer_;
    validated(c_, [&] { validate_rect(rect, index); });
    c_.layout.rects.push_back(rect);
  }

  void path() {
    const std::vector<Point> line = points("path", 2);
    const double width = positive("width_mm");
    const PathEnds ends =
        item_["ends"] ? r_.choice(item_["ends"], path_ + "/ends", kPathEndsNames) : PathEnds::flush;
    const int index = polygon_index();
    for (Polygon& p : validated(c_, [&] { return path_outline(line, width, ends, index); }))
      add(std::move(p));
  }

  void arc() {
    const Point centre = point("arc");
    const double radius = positive("radius_mm"), width = positive("width_mm");
    const auto angle = [&](const char* key, double fallback) {
      return item_[key] ? number(key, Item::polygon, polygon_index()) : fallback;
    };
    const double start = angle("start_deg", 0), stop = angle("stop_deg", 360);
    const int index = polygon_index();
    add(validated(c_, [&] { return arc_outline(centre, radius, width, start, stop, index); }));
  }

  const YamlReader& r_;
  const YAML::Node& item_;
  std::string path_;
  GeometryConfig& c_;
  int layer_ = 0;  // 0: the strips' (metal_on)
};

}  // namespace

const YamlReader::Keys& layout_item_keys() {
  static const YamlReader::Keys keys = [] {
    YamlReader::Keys all;
    for (const ShapeKeys& s : shape_keys())
      for (const auto key : s.keys)
        if (std::find(all.begin(), all.end(), key) == all.end()) all.push_back(key);
    return all;
  }();
  return keys;
}

void read_layout_item(const YamlReader& reader, const YAML::Node& item, const std::string& path,
                      GeometryConfig& config) {
  ItemReader(reader, item, path, config).read();
}

}  // namespace pmom::geometry::detail
