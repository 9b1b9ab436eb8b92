// Reading the geometry sections of a YAML config, with every mistake reported as
// "FILE:LINE: what" so that a user can fix the file without guessing.
#include "planarmom/geometry/config_yaml.hpp"

#include <filesystem>
#include <limits>
#include <utility>
#include <vector>

#include "config_fields.hpp"
#include "layout_yaml.hpp"
#include "planarmom/geometry/gdsii.hpp"
#include "planarmom/geometry/yaml_reader.hpp"

namespace pmom::geometry {

namespace {

// The keys the geometry section at `path` accepts (geometry_config_schema).
const YamlReader::Keys& keys(std::string_view path) { return geometry_config_schema().keys(path); }

// The shared checks plus the geometry's own: each item's and field's line goes to c_.lines.
class Reader : public YamlReader {
 public:
  explicit Reader(GeometryConfig& config) : YamlReader(config.file), c_(config) {}

  // A field of an item: records its line and reads it as a number.
  double field(const YAML::Node& map, const std::string& path, const std::string& key, Item item,
               int index) const {
    return detail::read_field(*this, c_, map, path, key, item, index);
  }
  double optional_field(const YAML::Node& map, const std::string& path, const std::string& key,
                        Item item, int index, double fallback) const {
    return map[key] ? field(map, path, key, item, index) : fallback;
  }

  // Runs a validator, turning its GeometryError into a ConfigError at the right line.
  template <class F> void validated(F&& check) const { detail::validated(c_, check); }

  void substrate(const YAML::Node& node) const {
    check_keys(node, "/substrate", keys("/substrate"));
    c_.lines[{Item::substrate, -1, ""}] = line_of(node);
    Substrate& s = c_.layout.substrate;
    s.eps_r = field(node, "/substrate", "eps_r", Item::substrate, -1);
    s.height_mm = field(node, "/substrate", "height_mm", Item::substrate, -1);
    s.loss_tangent = optional_field(node, "/substrate", "loss_tangent", Item::substrate, -1, 0.0);
    validated([&] { validate(s); });
  }

  // The board as a list of layers (bottom to top) with the strips on top of one of them: that
  // layer is the substrate, the ones under it the base, the ones over it the cover.
  void stackup(const YAML::Node& node) const {
    check_keys(node, "/stackup", keys("/stackup"));
    c_.lines[{Item::substrate, -1, ""}] = line_of(node);
    const YAML::Node layers = require(node, "/stackup", "layers");
    if (!layers.IsSequence() || layers.size() == 0)
      fail(layers, "/stackup/layers must be a non-empty list of {eps_r, height_mm, loss_tangent}");
    const int count = static_cast<int>(layers.size());
    const int on = integer(require(node, "/stackup", "metal_on"), "/stackup/metal_on", 1, count);
    Substrate& s = c_.layout.substrate;
    for (int i = 0; i < count; ++i) {
      const YAML::Node layer = layers[static_cast<std::size_t>(i)];
      const std::string path = "/stackup/layers/" + std::to_string(i);
      check_keys(layer, path, keys("/stackup/layers/*"));
      // Its lines under the substrate's index (−1), the base's (−2, −3, … downwards) or the
      // cover's (0, 1, …), as validate names.
      const int index = i - on;
      Dielectric d;
      d.eps_r = field(layer, path, "eps_r", Item::substrate, index);
      d.height_mm = field(layer, path, "height_mm", Item::substrate, index);
      d.loss_tangent = optional_field(layer, path, "loss_tangent", Item::substrate, index, 0.0);
      if (index == -1) {
        s.eps_r = d.eps_r;
        s.height_mm = d.height_mm;
        s.loss_tangent = d.loss_tangent;
      } else if (index < -1) {
        s.base.push_back(d);
      } else {
        s.cover.push_back(d);
      }
    }
    if (node["top"]) {
      s.top = choice(node["top"], "/stackup/top", kTopNames);
      c_.lines[{Item::substrate, -1, "top"}] = line_of(node["top"]);
    }
    validated([&] { validate(s); });
  }

  void metal(const YAML::Node& node) const {
    check_keys(node, "/metal", keys("/metal"));
    c_.lines[{Item::metal, -1, ""}] = line_of(node);
    Metal& m = c_.layout.metal;
    const bool has_pec = node["pec"].IsDefined();
    const bool has_sigma = node["conductivity_s_per_m"].IsDefined();
    if (has_pec == has_sigma || (has_pec && !boolean(node["pec"], "/metal/pec"))) {
      fail(node, "/metal needs exactly one of 'pec: true' or 'conductivity_s_per_m: S/m' (with "
                 "'thickness_um')");
    }
    if (has_pec && node["thickness_um"].IsDefined()) {
      fail(node["thickness_um"], "/metal/thickness_um goes with conductivity_s_per_m, not pec");
    }
    m.pec = has_pec;
    if (has_sigma) {
      m.conductivity_s_per_m =
          field(node, "/metal", "conductivity_s_per_m", Item::metal, -1);
      m.thickness_um = field(node, "/metal", "thickness_um", Item::metal, -1);
    }
    validated([&] { validate(m); });
  }

  void layout(const YAML::Node& node) const {
    if (node.IsMap()) return gds_layout(node);
    if (!node.IsSequence() || node.size() == 0) {
      fail(node, "/layout must be a non-empty list of shapes ({x0, y0, x1, y1}, {polygon}, "
                 "{path, width_mm}, {circle, radius_mm}, {arc, radius_mm, width_mm}) or "
                 "{gds: FILE, cell: NAME, layer: N}");
    }
    c_.lines[{Item::layout, -1, ""}] = line_of(node);
    for (std::size_t r = 0; r < node.size(); ++r)
      detail::read_layout_item(*this, node[r], "/layout/" + std::to_string(r), c_);
  }

  // `layout: {gds, cell, layer}`: the rectangles of a GDSII cell's layer (gdsii.hpp), the file
  // relative to the config's folder; a problem with the file is reported at the gds key's line.
  // `layer` is one GDSII layer (the metal on metal_on's interface) or a map from GDSII layers to
  // the stack's interfaces ({1: 1, 2: 2}: metal on several layers).
  void gds_layout(const YAML::Node& node) const {
    check_keys(node, "/layout", keys("/layout"));
    c_.lines[{Item::layout, -1, ""}] = line_of(node);
    const YAML::Node gds = require(node, "/layout", "gds");
    std::filesystem::path file(text(gds, "/layout/gds"));
    if (file.is_relative()) file = std::filesystem::path(c_.file).parent_path() / file;
    const std::string cell = text(require(node, "/layout", "cell"), "/layout/cell");
    const YAML::Node layer = require(node, "/layout", "layer");
    // (GDSII layer, interface; 0: metal_on's) pairs.
    std::vector<std::pair<int, int>> layers;
    if (layer.IsMap()) {
      if (layer.size() == 0) fail(layer, "/layout/layer: an empty map; give {GDSII layer: layer}");
      for (const auto& entry : layer)
        layers.emplace_back(integer(entry.first, "/layout/layer", 0, 65535),
                            integer(entry.second, "/layout/layer/" + entry.first.Scalar(), 1,
                                    detail::kMostLayers));
    } else {
      layers.emplace_back(integer(layer, "/layout/layer", 0, 65535), 0);
    }
    for (const auto& [gds_layer, interface] : layers) {
      GdsShapes shapes;
      try {
        shapes = read_gdsii_layer(file, cell, gds_layer);
      } catch (const GeometryError& e) {
        fail(gds, std::string("/layout/gds: ") + e.what());
      }
      for (Rect& r : shapes.rects) {
        const auto index = static_cast<int>(c_.layout.rects.size());
        r.layer = interface;
        c_.lines[{Item::rectangle, index, ""}] = line_of(gds);
        validated([&] { validate_rect(r, index); });
        c_.layout.rects.push_back(r);
      }
      for (Polygon& p : shapes.polygons) {
        const auto index = static_cast<int>(c_.layout.polygons.size());
        p.layer = interface;
        c_.lines[{Item::polygon, index, ""}] = line_of(gds);
        validated([&] { validate_polygon(p, index); });
        c_.layout.polygons.push_back(std::move(p));
      }
    }
  }

  // What a port, a lumped element and a via share: an item of list `path` (keys of `schema`)
  // with a name and a point (x, y), their lines recorded for errors that come later. The name is
  // required, unless a default is given (a via's).
  struct NamedPoint {
    std::string name;
    double x_mm = 0, y_mm = 0;
  };
  NamedPoint named_point(const YAML::Node& item, const std::string& path, const char* schema,
                         Item kind, int index, const std::string& default_name = {}) const {
    check_keys(item, path, keys(schema));
    c_.lines[{kind, index, ""}] = line_of(item);
    std::string name = default_name;
    if (default_name.empty() || item["name"]) {
      const YAML::Node node = require(item, path, "name");
      c_.lines[{kind, index, "name"}] = line_of(node);
      name = text(node, path + "/name");
    }
    return {name, field(item, path, "x", kind, index), field(item, path, "y", kind, index)};
  }

  void ports(const YAML::Node& node) const {
    if (!node.IsSequence() || node.size() == 0) fail(node, "/ports must be a non-empty list");
    for (std::size_t p = 0; p < node.size(); ++p) {
      const int index = static_cast<int>(p);
      const std::string path = "/ports/" + std::to_string(p);
      const YAML::Node item = node[p];
      Port port;
      const NamedPoint at = named_point(item, path, "/ports/*", Item::port, index);
      port.name = at.name;
      port.x_mm = at.x_mm;
      port.y_mm = at.y_mm;
      // An edge port has a direction (and a feed); an internal port an axis, and no feed.
      if (item["axis"] && item["direction"])
        fail(item, path + ": a port has a direction (an edge port, at a feed's end) or an axis "
                          "(an internal port, across a strip inside the metal), not both");
      if (item["axis"]) {
        port.kind = Port::Kind::internal;
        port.axis = choice(item["axis"], path + "/axis", kAxisNames);
        port.feed_length_mm =
            optional_field(item, path, "feed_length_mm", Item::port, index, 0.0);
      } else {
        if (!item["direction"])
          fail(item, path + ": a port needs a direction (an edge port: the way its feed runs "
                            "into the circuit, +x, -x, +y or -y) or an axis (an internal port "
                            "across a strip: x or y)");
        const YAML::Node direction = item["direction"];
        try {
          port.direction = parse_direction(text(direction, path + "/direction"));
        } catch (const ConfigError&) {
          throw;
        } catch (const GeometryError& e) {
          fail(direction, path + "/direction: " + e.what());
        }
        port.feed_length_mm = field(item, path, "feed_length_mm", Item::port, index);
      }
      port.reference_plane_mm =
          optional_field(item, path, "reference_plane_mm", Item::port, index, 0.0);
      port.impedance_ohm = optional_field(item, path, "impedance_ohm", Item::port, index, 50.0);
      if (item["layer"]) {
        c_.lines[{Item::port, index, "layer"}] = line_of(item["layer"]);
        port.layer = integer(item["layer"], path + "/layer", 1, detail::kMostLayers);
      }
      c_.layout.ports.push_back(port);
    }
    // Port checks, including distinct names, report the port's own index.
    validated([&] { validate(c_.layout); });
  }

  // `lumped:` (optional): elements in the metal, each on a grid line across a strip.
  void lumped(const YAML::Node& node) const {
    if (!node.IsSequence() || node.size() == 0)
      fail(node, "/lumped must be a non-empty list of elements ({name, x, y, axis, r_ohm, l_nh, "
                 "c_pf, topology})");
    for (std::size_t e = 0; e < node.size(); ++e) {
      const int index = static_cast<int>(e);
      const std::string path = "/lumped/" + std::to_string(e);
      const YAML::Node item = node[e];
      LumpedElement element;
      const NamedPoint at = named_point(item, path, "/lumped/*", Item::lumped, index);
      element.name = at.name;
      element.x_mm = at.x_mm;
      element.y_mm = at.y_mm;
      element.axis = choice(require(item, path, "axis"), path + "/axis", kAxisNames);
      element.r_ohm = optional_field(item, path, "r_ohm", Item::lumped, index, 0.0);
      element.l_nh = optional_field(item, path, "l_nh", Item::lumped, index, 0.0);
      element.c_pf = optional_field(item, path, "c_pf", Item::lumped, index, 0.0);
      if (item["topology"])
        element.topology = choice(item["topology"], path + "/topology", kTopologyNames);
      c_.layout.lumped.push_back(element);
    }
    validated([&] { validate(c_.layout); });
  }

  // `vias:` (optional): plated vias from the metal to the ground, each a disk of the metal; an
  // unnamed one is "via k" by its place (1-based).
  void vias(const YAML::Node& node) const {
    if (!node.IsSequence() || node.size() == 0)
      fail(node, "/vias must be a non-empty list of vias ({name, x, y, diameter_mm})");
    for (std::size_t v = 0; v < node.size(); ++v) {
      const int index = static_cast<int>(v);
      const std::string path = "/vias/" + std::to_string(v);
      const YAML::Node item = node[v];
      if (!item.IsMap()) fail(item, path + " must be a via {name, x, y, diameter_mm}");
      Via via;
      const NamedPoint at =
          named_point(item, path, "/vias/*", Item::via, index, "via " + std::to_string(v + 1));
      via.name = at.name;
      via.x_mm = at.x_mm;
      via.y_mm = at.y_mm;
      via.diameter_mm = field(item, path, "diameter_mm", Item::via, index);
      c_.layout.vias.push_back(via);
    }
    validated([&] { validate(c_.layout); });
  }

  void mesh(const YAML::Node& node) const {
    check_keys(node, "/mesh", keys("/mesh"));
    c_.lines[{Item::mesh, -1, ""}] = line_of(node);
    const bool has_cell = node["cell_mm"].IsDefined();
    c_.mesh.auto_cell = has_cell && node["cell_mm"].IsScalar() && node["cell_mm"].Scalar() == "auto";
    if (!c_.mesh.auto_cell && has_cell == node["cells_per_wavelength"].IsDefined()) {
      fail(node, "/mesh needs exactly one of 'cell_mm' or 'cells_per_wavelength' (or cell_mm: "
                 "auto, with cells_per_wavelength optional)");
    }
    // `v`, read from `value` at `path`, when it is above 0.
    const auto above_zero = [&](const YAML::Node& value, double v, const std::string& path) {
      if (!(v > 0)) fail(value, path + " must be > 0, got " + value.Scalar());
      return v;
    };
    const auto positive = [&](const std::string& key) {
      return above_zero(node[key], field(node, "/mesh", key, Item::mesh, -1), "/mesh/" + key);
    };
    const auto positive_at = [&](const YAML::Node& value, const std::string& path) {
      return above_zero(value, number(value, path), path);
    };
    if (has_cell && !c_.mesh.auto_cell) {
      const YAML::Node cell = node["cell_mm"];
      if (cell.IsSequence()) {  // [dx, dy]: cells of two sides
        c_.lines[{Item::mesh, -1, "cell_mm"}] = line_of(cell);
        if (cell.size() != 2)
          fail(cell, "/mesh/cell_mm must be one size or two, [dx, dy], not " +
                         std::to_string(cell.size()));
        c_.mesh.cell_mm = CellSize{positive_at(cell[0], "/mesh/cell_mm/0"),
                                   positive_at(cell[1], "/mesh/cell_mm/1")};
      } else {
        const double side = positive("cell_mm");
        c_.mesh.cell_mm = CellSize{side, side};
      }
    }
    if (node["cells_per_wavelength"]) c_.mesh.cells_per_wavelength = positive("cells_per_wavelength");
    if (node["snap_mm"]) c_.mesh.snap_mm = positive("snap_mm");
    if (node["max_unknowns"])
      c_.mesh.max_unknowns = integer(node["max_unknowns"], "/mesh/max_unknowns", 1,
                                     std::numeric_limits<int>::max());
  }

 private:
  GeometryConfig& c_;
};

}  // namespace

const ConfigSchema& geometry_config_schema() {
  static const ConfigSchema schema({
      {"", {"substrate", "stackup", "metal", "layout", "ports", "lumped", "vias", "mesh"}},
      {"/substrate", {"eps_r", "height_mm", "loss_tangent"}},
      {"/stackup", {"layers", "metal_on", "top"}},
      {"/stackup/layers/*", {"eps_r", "height_mm", "loss_tangent"}},
      {"/metal", {"pec", "conductivity_s_per_m", "thickness_um"}},
      {"/layout", {"gds", "cell", "layer"}},  // the GDSII form; else a list of rectangles
      {"/layout/*", detail::layout_item_keys()},
      {"/ports/*", {"name", "x", "y", "direction", "axis", "feed_length_mm",
                    "reference_plane_mm", "impedance_ohm", "layer"}},
      {"/lumped/*", {"name", "x", "y", "axis", "r_ohm", "l_nh", "c_pf", "topology"}},
      {"/vias/*", {"name", "x", "y", "diameter_mm"}},
      {"/mesh", {"cell_mm", "cells_per_wavelength", "snap_mm", "max_unknowns"}},
  });
  return schema;
}

const YamlReader::Keys& other_config_sections() {
  static const YamlReader::Keys sections = {"frequencies", "sparsify", "solver", "output",
                                            "termination", "deembedding", "accuracy"};
  return sections;
}

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

Mesh GeometryConfig::make_mesh(CellSize cell) const {
  try {
    return geometry::make_mesh(layout, cell);
  } catch (const GeometryError& e) {
    throw ConfigError(file, line_of(e), e.what());
  }
}

GeometryConfig parse_geometry_config(const YAML::Node& root, const std::string& file) {
  GeometryConfig config;
  config.file = file;
  const Reader reader(config);
  if (!root.IsMap()) reader.fail(root, "the config must be a mapping of sections");
  reader.check_keys(root, "", keys(""), other_config_sections());
  if (root["substrate"] && root["stackup"])
    reader.fail(root["stackup"], "give the board as /substrate or as /stackup, not both");
  if (root["stackup"])
    reader.stackup(root["stackup"]);
  else
    reader.substrate(reader.require(root, "", "substrate"));
  reader.metal(reader.require(root, "", "metal"));
  reader.layout(reader.require(root, "", "layout"));
  reader.ports(reader.require(root, "", "ports"));
  if (root["lumped"]) reader.lumped(root["lumped"]);
  if (root["vias"]) reader.vias(root["vias"]);
  reader.mesh(reader.require(root, "", "mesh"));
  return config;
}

}  // namespace pmom::geometry
