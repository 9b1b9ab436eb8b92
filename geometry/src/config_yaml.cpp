// Reading the geometry sections of a YAML config, with every mistake reported as
// "FILE:LINE: what" so that a user can fix the file without guessing.
#include <algorithm>
#include <cmath>
#include <set>
#include <string_view>
#include <vector>

#include "planarmom/geometry/config_yaml.hpp"

namespace pmom::geometry {

namespace {

using Keys = std::vector<std::string_view>;

// Top-level sections other modules read; this reader skips them.
const Keys kForeignSections = {"frequencies", "sparsify", "solver", "output"};

int line_of(const YAML::Node& node) {
  const YAML::Mark mark = node.Mark();
  return mark.line >= 0 ? mark.line + 1 : 0;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

class Reader {
 public:
  explicit Reader(GeometryConfig& config) : c_(config) {}

  [[noreturn]] void fail(const YAML::Node& at, const std::string& message) const {
    throw ConfigError(c_.file, line_of(at), message);
  }

  // `node` must be a mapping whose keys are all in `known` (or in `skipped`), each once.
  void check_keys(const YAML::Node& node, const std::string& path, const Keys& known,
                  const Keys& skipped = {}) const {
    if (!node.IsMap()) fail(node, shown(path) + " must be a mapping");
    std::set<std::string> seen;
    for (const auto& entry : node) {
      const std::string key = entry.first.Scalar();
      if (!seen.insert(key).second) fail(entry.first, "duplicate key '" + key + "' in " + shown(path));
      if (std::find(known.begin(), known.end(), key) != known.end() ||
          std::find(skipped.begin(), skipped.end(), key) != skipped.end()) {
        continue;
      }
      std::string message = "unknown key '" + key + "' in " + shown(path);
      const auto best = std::min_element(known.begin(), known.end(), [&](auto a, auto b) {
        return edit_distance(key, a) < edit_distance(key, b);
      });
      if (best != known.end() &&
          edit_distance(key, *best) <= std::max<std::size_t>(2, std::max(key.size(), best->size()) / 3)) {
        message += " (did you mean '" + std::string(*best) + "'?)";
      }
      fail(entry.first, message);
    }
  }

  YAML::Node require(const YAML::Node& map, const std::string& path, const std::string& key) const {
    const YAML::Node value = map[key];
    if (!value) fail(map, "missing required key '" + key + "' in " + shown(path));
    return value;
  }

  double number(const YAML::Node& node, const std::string& path) const {
    if (!node.IsScalar()) fail(node, path + " must be a number");
    double value = 0;
    try {
      value = node.as<double>();
    } catch (const YAML::BadConversion&) {
      fail(node, path + " must be a number, got '" + node.Scalar() + "'");
    }
    if (!std::isfinite(value)) fail(node, path + " must be finite, got '" + node.Scalar() + "'");
    return value;
  }

  bool boolean(const YAML::Node& node, const std::string& path) const {
    try {
      if (node.IsScalar()) return node.as<bool>();
    } catch (const YAML::BadConversion&) {
    }
    fail(node, path + " must be true or false");
  }

  std::string text(const YAML::Node& node, const std::string& path) const {
    if (!node.IsScalar()) fail(node, path + " must be a string");
    return node.Scalar();
  }

  // A field of an item: records its line and reads it as a number.
  double field(const YAML::Node& map, const std::string& path, const std::string& key, Item item,
               int index) const {
    const YAML::Node value = require(map, path, key);
    c_.lines[{item, index, key}] = line_of(value);
    return number(value, path + "/" + key);
  }
  double optional_field(const YAML::Node& map, const std::string& path, const std::string& key,
                        Item item, int index, double fallback) const {
    return map[key] ? field(map, path, key, item, index) : fallback;
  }

  // Runs a validator, turning its GeometryError into a ConfigError at the right line.
  template <class F> void validated(F&& check) const {
    try {
      check();
    } catch (const ConfigError&) {
      throw;
    } catch (const GeometryError& e) {
      throw ConfigError(c_.file, c_.line_of(e), e.what());
    }
  }

  void substrate(const YAML::Node& node) const {
    check_keys(node, "/substrate", {"eps_r", "height_mm", "loss_tangent"});
    c_.lines[{Item::substrate, -1, ""}] = line_of(node);
    Substrate& s = c_.layout.substrate;
    s.eps_r = field(node, "/substrate", "eps_r", Item::substrate, -1);
    s.height_mm = field(node, "/substrate", "height_mm", Item::substrate, -1);
    s.loss_tangent = optional_field(node, "/substrate", "loss_tangent", Item::substrate, -1, 0.0);
    validated([&] { validate(s); });
  }

  void metal(const YAML::Node& node) const {
    check_keys(node, "/metal", {"pec", "conductivity"});
    c_.lines[{Item::metal, -1, ""}] = line_of(node);
    Metal& m = c_.layout.metal;
    const bool has_pec = node["pec"].IsDefined(), has_sigma = node["conductivity"].IsDefined();
    if (has_pec == has_sigma || (has_pec && !boolean(node["pec"], "/metal/pec"))) {
      fail(node, "/metal needs exactly one of 'pec: true' or 'conductivity: S/m'");
    }
    m.pec = has_pec;
    if (has_sigma) m.conductivity_s_per_m = field(node, "/metal", "conductivity", Item::metal, -1);
    validated([&] { validate(m); });
  }

  void layout(const YAML::Node& node) const {
    if (!node.IsSequence() || node.size() == 0) {
      fail(node, "/layout must be a non-empty list of rectangles {x0, y0, x1, y1}");
    }
    c_.lines[{Item::layout, -1, ""}] = line_of(node);
    for (std::size_t r = 0; r < node.size(); ++r) {
      const int index = static_cast<int>(r);
      const std::string path = "/layout/" + std::to_string(r);
      const YAML::Node item = node[r];
      check_keys(item, path, {"x0", "y0", "x1", "y1"});
      c_.lines[{Item::rectangle, index, ""}] = line_of(item);
      Rect rect;
      rect.x0 = field(item, path, "x0", Item::rectangle, index);
      rect.y0 = field(item, path, "y0", Item::rectangle, index);
      rect.x1 = field(item, path, "x1", Item::rectangle, index);
      rect.y1 = field(item, path, "y1", Item::rectangle, index);
      validated([&] { validate_rect(rect, index); });
      c_.layout.rects.push_back(rect);
    }
  }

  void ports(const YAML::Node& node) const {
    if (!node.IsSequence() || node.size() == 0) fail(node, "/ports must be a non-empty list");
    for (std::size_t p = 0; p < node.size(); ++p) {
      const int index = static_cast<int>(p);
      const std::string path = "/ports/" + std::to_string(p);
      const YAML::Node item = node[p];
      check_keys(item, path, {"name", "x", "y", "direction", "feed_length_mm",
                              "reference_plane_mm", "impedance_ohm"});
      c_.lines[{Item::port, index, ""}] = line_of(item);
      Port port;
      const YAML::Node name = require(item, path, "name");
      c_.lines[{Item::port, index, "name"}] = line_of(name);
      port.name = text(name, path + "/name");
      port.x_mm = field(item, path, "x", Item::port, index);
      port.y_mm = field(item, path, "y", Item::port, index);
      const YAML::Node direction = require(item, path, "direction");
      try {
        port.direction = parse_direction(text(direction, path + "/direction"));
      } catch (const ConfigError&) {
        throw;
      } catch (const GeometryError& e) {
        fail(direction, path + "/direction: " + e.what());
      }
      port.feed_length_mm = field(item, path, "feed_length_mm", Item::port, index);
      port.reference_plane_mm =
          optional_field(item, path, "reference_plane_mm", Item::port, index, 0.0);
      port.impedance_ohm = optional_field(item, path, "impedance_ohm", Item::port, index, 50.0);
      c_.layout.ports.push_back(port);
    }
    // Port checks, including distinct names, report the port's own index.
    validated([&] { validate(c_.layout); });
  }

  void mesh(const YAML::Node& node) const {
    check_keys(node, "/mesh", {"cell_mm", "cells_per_wavelength"});
    c_.lines[{Item::mesh, -1, ""}] = line_of(node);
    const bool has_cell = node["cell_mm"].IsDefined();
    if (has_cell == node["cells_per_wavelength"].IsDefined()) {
      fail(node, "/mesh needs exactly one of 'cell_mm' or 'cells_per_wavelength'");
    }
    const std::string key = has_cell ? "cell_mm" : "cells_per_wavelength";
    const double value = field(node, "/mesh", key, Item::mesh, -1);
    if (!(value > 0)) fail(node[key], "/mesh/" + key + " must be > 0, got " + node[key].Scalar());
    (has_cell ? c_.mesh.cell_mm : c_.mesh.cells_per_wavelength) = value;
  }

 private:
  static std::string shown(const std::string& path) { return path.empty() ? "/" : path; }

  GeometryConfig& c_;
};

}  // namespace

ConfigError::ConfigError(const std::string& file, int line, const std::string& message)
    : GeometryError((line > 0 ? file + ":" + std::to_string(line) : file) + ": " + message),
      file_(file), line_(line) {}

int GeometryConfig::line_of(const GeometryError& error) const {
  for (const std::string& field : {error.field(), std::string()}) {
    const auto found = lines.find({error.item(), error.index(), field});
    if (found != lines.end()) return found->second;
  }
  return 0;
}

Mesh GeometryConfig::make_mesh(double cell_mm) const {
  try {
    return geometry::make_mesh(layout, cell_mm);
  } catch (const GeometryError& e) {
    throw ConfigError(file, line_of(e), e.what());
  }
}

GeometryConfig parse_geometry_config(const YAML::Node& root, const std::string& file) {
  GeometryConfig config;
  config.file = file;
  const Reader reader(config);
  if (!root.IsMap()) reader.fail(root, "the config must be a mapping of sections");
  reader.check_keys(root, "", {"substrate", "metal", "layout", "ports", "mesh"}, kForeignSections);
  reader.substrate(reader.require(root, "", "substrate"));
  reader.metal(reader.require(root, "", "metal"));
  reader.layout(reader.require(root, "", "layout"));
  reader.ports(reader.require(root, "", "ports"));
  reader.mesh(reader.require(root, "", "mesh"));
  return config;
}

}  // namespace pmom::geometry
