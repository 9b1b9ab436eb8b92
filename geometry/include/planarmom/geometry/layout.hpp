// What a planar circuit is made of, independent of any mesh or frequency: the substrate, the
// metal, rectangles and polygons (their union is the metal), the ports on the metal's edge, the
// lumped elements in it and the vias from it to the ground.
#pragma once

#include <string>
#include <string_view>
#include <vector>
#include <vector>

#include "planarmom/geometry/named.hpp"
#include "planarmom/geometry/polygon.hpp"

namespace pmom::geometry {

// A dielectric layer over the strips.
struct Dielectric {
  double eps_r = 1.0;         // relative permittivity, >= 1
  double height_mm = 1.0;     // thickness, > 0
  double loss_tangent = 0.0;  // >= 0
};

// What lies over the board's top layer.
enum class Top { air, ground };
inline constexpr Named<Top> kTopNames[] = {{"air", Top::air}, {"ground", Top::ground}};

// The board: a grounded dielectric slab (ground at z = 0, strips at z = height), and over the
// strips the cover's layers (bottom to top; a solder mask, a buried line's sheet), then air or
// a ground (a stripline). No cover: the microstrip's board.
struct Substrate {
  double eps_r = 1.0;         // relative permittivity, >= 1
  double height_mm = 1.0;     // > 0
  double loss_tangent = 0.0;  // >= 0
  std::vector<Dielectric> cover{};
  Top top = Top::air;         // a ground needs a cover under it
  // Layers between the ground and the substrate's, bottom to top (a multilayer board's core
  // under the prepreg the strips lie on).
  std::vector<Dielectric> base{};

  // The highest εr of its layers: where the wavelength is shortest.
  [[nodiscard]] double max_eps_r() const {
    double e = eps_r;
    for (const auto* layers : {&base, &cover})
      for (const Dielectric& d : *layers) e = d.eps_r > e ? d.eps_r : e;
    return e;
  }
  // The strips' height over the ground: the substrate's and the base's layers.
  [[nodiscard]] double height_over_ground_mm() const {
    double h = height_mm;
    for (const Dielectric& d : base) h += d.height_mm;
    return h;
  }

  // Interfaces are numbered from the ground, as /stackup/metal_on counts layers: k is the top of
  // the k-th layer from the bottom. The strips' interface (the substrate's top), and how many
  // interfaces metal may lie on (all but a cover ground).
  [[nodiscard]] int strips() const { return static_cast<int>(base.size()) + 1; }
  [[nodiscard]] int interfaces() const {
    return static_cast<int>(base.size() + 1 + cover.size()) - (top == Top::ground ? 1 : 0);
  }
  // Interface k's height over the ground (mm), 1 <= k <= interfaces().
  [[nodiscard]] double interface_height_mm(int k) const;
  // A shape's layer (0: the strips') as an interface number.
  [[nodiscard]] int interface_of(int layer) const { return layer == 0 ? strips() : layer; }
  // The same board seen from metal on interface k (1 <= k <= interfaces()): the k-th layer is
  // its substrate, the ones under it its base, the ones over it its cover.
  [[nodiscard]] Substrate with_strips_on(int k) const;
};

// The strips and the ground: perfect conductors, or, when !pec, of a finite conductivity (S/m)
// and thickness (µm), whose surface impedance brings conductor loss and the skin effect
// (mom/surface_impedance.hpp). The strips are meshed as zero-thickness sheets either way.
struct Metal {
  bool pec = true;
  double conductivity_s_per_m = 0.0;  // > 0 when !pec
  double thickness_um = 0.0;          // > 0 when !pec
};

// An axis-aligned rectangle [x0, x1] x [y0, y1] in mm.
struct Rect {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  int layer = 0;  // the interface it lies on (Substrate's numbering); 0: the strips'
};

// The direction a port's feed line runs from the port edge INTO the circuit.
enum class Direction { pos_x, neg_x, pos_y, neg_y };
// The axis a current across a grid line runs along (x: across a vertical grid line).
enum class Axis { x, y };
inline constexpr Named<Axis> kAxisNames[] = {{"x", Axis::x}, {"y", Axis::y}};

// An edge port sits at the end of a feed line on the metal's outline and is de-embedded along
// it (mom/deembed.hpp). An internal port sits inside the metal, as a lumped element does: a
// delta gap across a strip on one grid line, its current along `axis` (from the metal on the
// line's low side to the high side, its + terminal on the high side), no feed; its S is the
// gap's own voltage and current (its near field calibrated out), at the port's impedance.
struct Port {
  enum class Kind { edge, internal };
  std::string name;
  double x_mm = 0, y_mm = 0;        // edge: any point of the feed line's end edge; internal: a
                                    // point of its grid line, inside the strip
  Direction direction = Direction::pos_x;  // edge ports
  double feed_length_mm = 0;        // edge: > 0, the straight feed used for de-embedding
  double reference_plane_mm = 0;    // edge: >= 0, S-parameter reference plane from the edge
  double impedance_ohm = 50;        // > 0: reference impedance of this port
  Kind kind = Kind::edge;
  Axis axis = Axis::x;              // internal ports
  int layer = 0;                    // the interface of its metal (as Rect::layer)
};

// A lumped element in the metal: the current crossing one grid line of a strip, across the
// strip's whole width, flows through the element's impedance (a series R, L and C, or the three
// in parallel; a part of zero value is left out: no resistor, no inductor, no capacitor). The
// metal stays drawn through it; mom/port_loads.hpp says how it enters Z.
struct LumpedElement {
  enum class Topology { series, parallel };
  std::string name;
  double x_mm = 0, y_mm = 0;  // a point of the grid line it sits on, inside the strip
  Axis axis = Axis::x;        // the current it carries runs along it (x: a vertical grid line)
  Topology topology = Topology::series;
  double r_ohm = 0, l_nh = 0, c_pf = 0;  // >= 0, at least one > 0
};
inline constexpr Named<LumpedElement::Topology> kTopologyNames[] = {
    {"series", LumpedElement::Topology::series}, {"parallel", LumpedElement::Topology::parallel}};

// A plated via from the strips' metal down to the ground plane through the substrate: a vertical
// current, uniform along the via, between the metal over its footprint and the ground. On the
// mesh it is the column under the metal cells whose centre lies inside its disk (MeshVia); it
// needs no grid line (no snapping), and it does not constrain an automatic cell.
struct Via {
  std::string name;           // not empty, distinct from the other vias' (the config's default:
                              // "via 1", "via 2", ... by its place in the list)
  double x_mm = 0, y_mm = 0;  // the centre of its drill
  double diameter_mm = 0;     // the drill's diameter, > 0
};

struct Layout {
  Substrate substrate;
  Metal metal;
  std::vector<Rect> rects;        // on the grid: each edge on a grid line
  std::vector<Polygon> polygons;  // any outline, staircased on the grid
  std::vector<Port> ports;
  std::vector<LumpedElement> lumped;
  std::vector<Via> vias;
};

// "+x", "-x", "+y", "-y".
[[nodiscard]] std::string_view to_string(Direction direction);
// The inverse of to_string; throws GeometryError (Item::port) for anything else.
[[nodiscard]] Direction parse_direction(std::string_view text);

// Each throws GeometryError naming the item and the offending value. These checks need no
// mesh; make_mesh adds the ones that do (cell size, alignment, connectivity, port edges).
void validate(const Substrate& substrate);
void validate(const Metal& metal);
void validate_rect(const Rect& rect, int index);
void validate_port(const Port& port, int index);
void validate_lumped(const LumpedElement& element, int index);
// A non-empty name, a finite centre and a finite diameter > 0 (Item::via): "via 'v1':
// diameter_mm must be > 0, got -1".
void validate_via(const Via& via, int index);
// The board's own checks, which depend on where the strips lie in the stack: the substrate, the
// metal, and what is not modelled yet there (vias under a cover or over a base, lossy metal
// under a ground on top).
void validate_board(const Layout& layout);
// The interfaces its rectangles and polygons lie on (Substrate's numbering), ascending, each once.
[[nodiscard]] std::vector<int> metal_interfaces(const Layout& layout);
// validate_board and validate_polygon, at least one rectangle or polygon, distinct non-empty
// port names, lumped element names and via names, every layer an interface of the stack; on a
// layout with metal on several interfaces, none of what is not modelled there yet (vias, lumped
// elements, internal ports, lossy metal).
void validate(const Layout& layout);

// "rectangle 3 (x 0..0.1 mm, y 0..5 mm)", the way errors name a rectangle.
[[nodiscard]] std::string describe_rect(const Rect& rect, int index);

// The corner the grid is laid from: the rectangles' lower-left corner, or the polygons' where
// there are no rectangles (a rectangle drawn as a polygon then meshes as the rectangle).
[[nodiscard]] Point grid_anchor(const Layout& layout);

}  // namespace pmom::geometry
