// Mesh-independent checks of substrates, metals, rectangles, ports, lumped elements and vias.
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <utility>

#include "format.hpp"
#include "planarmom/geometry/error.hpp"
#include "planarmom/geometry/layout.hpp"

namespace pmom::geometry {

using detail::num;

std::string_view to_string(Direction direction) {
  switch (direction) {
    case Direction::pos_x: return "+x";
    case Direction::neg_x: return "-x";
    case Direction::pos_y: return "+y";
    case Direction::neg_y: return "-y";
  }
  return "?";
}

Direction parse_direction(std::string_view text) {
  for (const auto d : {Direction::pos_x, Direction::neg_x, Direction::pos_y, Direction::neg_y}) {
    if (text == to_string(d)) return d;
  }
  throw GeometryError("port direction must be one of +x, -x, +y, -y, got '" +
                      std::string(text) + "'", Item::port, -1, "direction");
}

void validate(const Substrate& substrate) {
  // The layer under the strips (index −1), the base's under it (−2, −3, … from the strips
  // down) and the cover's (0, 1, … from the strips up).
  const auto check = [](const std::string& name, int index, double eps_r, double height_mm,
                        double loss_tangent) {
    auto fail = [&](const std::string& what, const char* field) {
      throw GeometryError(name + " " + what, Item::substrate, index, field);
    };
    if (!(eps_r >= 1.0) || !std::isfinite(eps_r)) fail("eps_r must be >= 1, got " + num(eps_r), "eps_r");
    if (!(height_mm > 0.0) || !std::isfinite(height_mm))
      fail("height must be > 0 mm, got " + num(height_mm), "height_mm");
    if (!(loss_tangent >= 0.0) || !std::isfinite(loss_tangent))
      fail("loss tangent must be >= 0, got " + num(loss_tangent), "loss_tangent");
  };
  check("substrate", -1, substrate.eps_r, substrate.height_mm, substrate.loss_tangent);
  for (std::size_t i = 0; i < substrate.base.size(); ++i) {
    const std::size_t from_top = substrate.base.size() - i;  // 1: right under the substrate
    const Dielectric& d = substrate.base[i];
    check("layer " + std::to_string(from_top) + " under the substrate",
          -1 - static_cast<int>(from_top), d.eps_r, d.height_mm, d.loss_tangent);
  }
  for (std::size_t i = 0; i < substrate.cover.size(); ++i) {
    const Dielectric& d = substrate.cover[i];
    check("cover layer " + std::to_string(i + 1), static_cast<int>(i), d.eps_r, d.height_mm,
          d.loss_tangent);
  }
  if (substrate.top == Top::ground && substrate.cover.empty())
    throw GeometryError("a ground on top needs a layer between it and the strips",
                        Item::substrate, -1, "top");
}

double Substrate::interface_height_mm(int k) const {
  const Substrate on = with_strips_on(k);
  return on.height_over_ground_mm();
}

Substrate Substrate::with_strips_on(int k) const {
  std::vector<Dielectric> all = base;
  all.push_back({eps_r, height_mm, loss_tangent});
  all.insert(all.end(), cover.begin(), cover.end());
  if (k < 1 || k > interfaces())
    throw GeometryError("no metal interface " + std::to_string(k) + " in a stack of " +
                        std::to_string(interfaces()), Item::substrate);
  Substrate s;
  const Dielectric& under = all[static_cast<std::size_t>(k - 1)];
  s.eps_r = under.eps_r;
  s.height_mm = under.height_mm;
  s.loss_tangent = under.loss_tangent;
  s.base.assign(all.begin(), all.begin() + (k - 1));
  s.cover.assign(all.begin() + k, all.end());
  s.top = top;
  return s;
}

void validate(const Metal& metal) {
  if (metal.pec) return;
  if (!(metal.conductivity_s_per_m > 0.0) || !std::isfinite(metal.conductivity_s_per_m)) {
    throw GeometryError("metal conductivity must be > 0 S/m, got " +
                        num(metal.conductivity_s_per_m), Item::metal, -1, "conductivity_s_per_m");
  }
  if (!(metal.thickness_um > 0.0) || !std::isfinite(metal.thickness_um)) {
    throw GeometryError("metal thickness must be > 0 µm, got " + num(metal.thickness_um),
                        Item::metal, -1, "thickness_um");
  }
}

std::string describe_rect(const Rect& rect, int index) {
  return "rectangle " + std::to_string(index) + " (x " + num(rect.x0) + ".." + num(rect.x1) +
         " mm, y " + num(rect.y0) + ".." + num(rect.y1) + " mm)";
}

Point grid_anchor(const Layout& layout) {
  Point corner{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  for (const Rect& r : layout.rects) corner = {std::min({corner.x, r.x0, r.x1}), std::min({corner.y, r.y0, r.y1})};
  if (!layout.rects.empty()) return corner;
  for (const Polygon& p : layout.polygons)
    for (const auto& ring : p.rings)
      for (const Point& v : ring) corner = {std::min(corner.x, v.x), std::min(corner.y, v.y)};
  if (!std::isfinite(corner.x)) throw GeometryError("the layout has no rectangles or polygons");
  return corner;
}

void validate_rect(const Rect& rect, int index) {
  for (const double v : {rect.x0, rect.y0, rect.x1, rect.y1}) {
    if (!std::isfinite(v)) {
      throw GeometryError(describe_rect(rect, index) + " has a non-finite coordinate",
                          Item::rectangle, index);
    }
  }
  if (!(rect.x0 < rect.x1) || !(rect.y0 < rect.y1)) {
    throw GeometryError(describe_rect(rect, index) + " is empty: it needs x0 < x1 and y0 < y1",
                        Item::rectangle, index);
  }
}

void validate_port(const Port& port, int index) {
  const std::string name = "port '" + port.name + "'";
  auto fail = [&](const std::string& what, const char* field) {
    throw GeometryError(what, Item::port, index, field);
  };
  if (port.name.empty()) fail("port " + std::to_string(index) + " has an empty name", "name");
  if (!std::isfinite(port.x_mm)) fail(name + " has a non-finite position", "x");
  if (!std::isfinite(port.y_mm)) fail(name + " has a non-finite position", "y");
  const bool edge = port.kind == Port::Kind::edge;
  if (edge && (!(port.feed_length_mm > 0.0) || !std::isfinite(port.feed_length_mm))) {
    fail(name + " feed length must be > 0 mm, got " + num(port.feed_length_mm),
         "feed_length_mm");
  }
  if (!edge && port.feed_length_mm != 0.0)
    fail(name + " is an internal port (it has an axis): it has no feed line, drop "
         "feed_length_mm", "feed_length_mm");
  if (!edge && port.reference_plane_mm != 0.0)
    fail(name + " is an internal port (it has an axis): its reference plane is its gap, drop "
         "reference_plane_mm", "reference_plane_mm");
  if (!(port.reference_plane_mm >= 0.0) || !std::isfinite(port.reference_plane_mm)) {
    fail(name + " reference plane must be >= 0 mm from the port edge, got " +
         num(port.reference_plane_mm), "reference_plane_mm");
  }
  if (!(port.impedance_ohm > 0.0) || !std::isfinite(port.impedance_ohm)) {
    fail(name + " impedance must be > 0 ohm, got " + num(port.impedance_ohm), "impedance_ohm");
  }
}

void validate_lumped(const LumpedElement& element, int index) {
  const std::string name = "lumped element '" + element.name + "'";
  auto fail = [&](const std::string& what, const char* field) {
    throw GeometryError(what, Item::lumped, index, field);
  };
  if (element.name.empty())
    fail("lumped element " + std::to_string(index) + " has an empty name", "name");
  if (!std::isfinite(element.x_mm)) fail(name + " has a non-finite position", "x");
  if (!std::isfinite(element.y_mm)) fail(name + " has a non-finite position", "y");
  for (const auto& [value, field] : {std::pair{element.r_ohm, "r_ohm"},
                                     std::pair{element.l_nh, "l_nh"},
                                     std::pair{element.c_pf, "c_pf"}}) {
    if (!(value >= 0.0) || !std::isfinite(value))
      fail(name + " " + field + " must be finite and >= 0, got " + num(value), field);
  }
  if (element.r_ohm == 0 && element.l_nh == 0 && element.c_pf == 0)
    fail(name + " has no part: give r_ohm, l_nh or c_pf (> 0)", "");
}

void validate_via(const Via& via, int index) {
  const std::string name = "via '" + via.name + "'";
  auto fail = [&](const std::string& what, const char* field) {
    throw GeometryError(what, Item::via, index, field);
  };
  if (via.name.empty())
    fail("the via at (" + num(via.x_mm) + ", " + num(via.y_mm) + ") mm has an empty name", "name");
  if (!std::isfinite(via.x_mm)) fail(name + " has a non-finite position", "x");
  if (!std::isfinite(via.y_mm)) fail(name + " has a non-finite position", "y");
  if (!(via.diameter_mm > 0.0))
    fail(name + ": diameter_mm must be > 0, got " + num(via.diameter_mm), "diameter_mm");
  if (!std::isfinite(via.diameter_mm))
    fail(name + ": diameter_mm must be finite, got " + num(via.diameter_mm), "diameter_mm");
}

void validate_board(const Layout& layout) {
  validate(layout.substrate);
  validate(layout.metal);
  // Not modelled yet: a via's kernels are the one-layer slab's, and the strips' loss terms
  // image the current in one ground.
  if (!layout.vias.empty() && !layout.substrate.cover.empty())
    throw GeometryError("vias under a cover are not modelled yet (their Green's functions are "
                        "the bare substrate's)", Item::via, 0, "");
  if (!layout.vias.empty() && !layout.substrate.base.empty())
    throw GeometryError("vias through several layers are not modelled yet (their Green's "
                        "functions are one substrate's)", Item::via, 0, "");
  if (!layout.metal.pec && layout.substrate.top == Top::ground)
    throw GeometryError("lossy metal under a ground on top is not modelled yet (the strips' loss "
                        "terms image the current in the lower ground only); use pec: true",
                        Item::metal, -1, "");
}

std::vector<int> metal_interfaces(const Layout& layout) {
  std::vector<int> interfaces;
  for (const Rect& r : layout.rects) interfaces.push_back(layout.substrate.interface_of(r.layer));
  for (const Polygon& p : layout.polygons)
    interfaces.push_back(layout.substrate.interface_of(p.layer));
  std::sort(interfaces.begin(), interfaces.end());
  interfaces.erase(std::unique(interfaces.begin(), interfaces.end()), interfaces.end());
  return interfaces;
}

void validate(const Layout& layout) {
  validate_board(layout);
  if (layout.rects.empty() && layout.polygons.empty())
    throw GeometryError("the layout has no rectangles or polygons");
  for (std::size_t r = 0; r < layout.rects.size(); ++r) {
    validate_rect(layout.rects[r], static_cast<int>(r));
  }
  for (std::size_t p = 0; p < layout.polygons.size(); ++p) {
    validate_polygon(layout.polygons[p], static_cast<int>(p));
  }
  const int interfaces = layout.substrate.interfaces();
  const auto check_layer = [&](int layer, const std::string& what, Item item, int index) {
    if (layer < 0 || layer > interfaces)
      throw GeometryError(what + " is on layer " + std::to_string(layer) + "; metal lies on "
                          "interfaces 1.." + std::to_string(interfaces) + " of this stack (k: "
                          "the top of its k-th layer from the ground)",
                          item, index, "layer");
  };
  for (std::size_t r = 0; r < layout.rects.size(); ++r)
    check_layer(layout.rects[r].layer, describe_rect(layout.rects[r], static_cast<int>(r)),
                Item::rectangle, static_cast<int>(r));
  for (std::size_t p = 0; p < layout.polygons.size(); ++p)
    check_layer(layout.polygons[p].layer,
                describe_polygon(layout.polygons[p], static_cast<int>(p)), Item::polygon,
                static_cast<int>(p));
  for (std::size_t p = 0; p < layout.ports.size(); ++p)
    check_layer(layout.ports[p].layer, "port '" + layout.ports[p].name + "'", Item::port,
                static_cast<int>(p));
  if (metal_interfaces(layout).size() > 1) {
    // Not modelled yet with metal on several interfaces (vias are refused above: under a cover).
    const auto not_yet = [](const std::string& what, Item item) {
      throw GeometryError(what + " on a layout with metal on several layers are not modelled "
                          "yet", item, 0, "");
    };
    if (!layout.lumped.empty()) not_yet("lumped elements", Item::lumped);
    for (const Port& p : layout.ports)
      if (p.kind == Port::Kind::internal) not_yet("internal ports", Item::port);
    if (!layout.metal.pec)
      throw GeometryError("lossy metal on a layout with metal on several layers is not modelled "
                          "yet (its loss terms are one interface's); use pec: true",
                          Item::metal, -1, "");
  }
  std::set<std::string> names;
  for (std::size_t p = 0; p < layout.ports.size(); ++p) {
    validate_port(layout.ports[p], static_cast<int>(p));
    if (!names.insert(layout.ports[p].name).second) {
      throw GeometryError("port name '" + layout.ports[p].name + "' is used twice", Item::port,
                          static_cast<int>(p), "name");
    }
  }
  std::set<std::string> element_names;
  for (std::size_t e = 0; e < layout.lumped.size(); ++e) {
    validate_lumped(layout.lumped[e], static_cast<int>(e));
    if (!element_names.insert(layout.lumped[e].name).second)
      throw GeometryError("lumped element name '" + layout.lumped[e].name + "' is used twice",
                          Item::lumped, static_cast<int>(e), "name");
  }
  std::set<std::string> via_names;
  for (std::size_t v = 0; v < layout.vias.size(); ++v) {
    validate_via(layout.vias[v], static_cast<int>(v));
    if (!via_names.insert(layout.vias[v].name).second)
      throw GeometryError("via name '" + layout.vias[v].name + "' is used twice", Item::via,
                          static_cast<int>(v), "name");
  }
}

}  // namespace pmom::geometry
