"""A planarmom config's metal as polygons (mm), for the openEMS reference (tools/openems_reference.py).

Every layout shape (rectangle, polygon, path, circle, arc) becomes one or more simple polygons whose
union is the metal; the same polygons answer point-in-metal questions for the mesh and the ports.
The config's `vias:` (plated vias from the metal down to the ground) are read by `vias`.
"""
import math

import numpy as np
from matplotlib.path import Path

# Largest distance in mm between a circle and the chords drawn for it.
SAGITTA_MM = 1e-3


class ConfigError(Exception):
    """The config cannot be modelled; the message says what to change."""


def _arc_points(cx, cy, radius, start_deg, stop_deg):
    """Points on a circle from start_deg to stop_deg (counter-clockwise), ends included."""
    span = math.radians(stop_deg - start_deg)
    step = 2 * math.acos(max(-1.0, 1 - SAGITTA_MM / radius)) if radius > SAGITTA_MM else math.pi / 8
    count = max(2, int(math.ceil(abs(span) / step)) + 1)
    angles = math.radians(start_deg) + np.linspace(0, span, count)
    return np.column_stack((cx + radius * np.cos(angles), cy + radius * np.sin(angles)))


def _path_polygon(points, width, extended):
    """A trace of the given width along points: flush ends (or extended by width/2), mitred joints."""
    p = np.asarray(points, float)
    if p.ndim != 2 or p.shape[1] != 2 or len(p) < 2:
        raise ConfigError("a path needs at least two [x, y] points")
    d = np.diff(p, axis=0)
    lengths = np.hypot(d[:, 0], d[:, 1])
    if np.any(lengths == 0):
        raise ConfigError("a path has two equal consecutive points")
    t = d / lengths[:, None]
    if extended:
        p = p.copy()
        p[0] -= t[0] * width / 2
        p[-1] += t[-1] * width / 2
    n = np.column_stack((-t[:, 1], t[:, 0]))  # left normals of the segments
    offsets = [n[0] * width / 2]
    for k in range(1, len(p) - 1):
        mitre = n[k - 1] + n[k]
        norm = np.hypot(*mitre)
        if norm < 1e-9:
            raise ConfigError(f"a path turns back on itself at point {k}")
        mitre /= norm
        offsets.append(mitre * (width / 2) / float(np.dot(mitre, n[k])))
    offsets.append(n[-1] * width / 2)
    offsets = np.array(offsets)
    return np.vstack((p + offsets, (p - offsets)[::-1]))


def _arc_polygons(shape):
    cx, cy = shape["arc"]
    radius, width = float(shape["radius_mm"]), float(shape["width_mm"])
    if not 0 < width < 2 * radius:
        raise ConfigError(f"an arc needs 0 < width_mm < 2 radius_mm (got {width}, {radius})")
    if "start_deg" in shape or "stop_deg" in shape:
        start, stop = float(shape.get("start_deg", 0.0)), float(shape.get("stop_deg", 360.0))
        while stop <= start:
            stop += 360.0
        spans = [(start, stop)] if stop - start < 360.0 else [(start, start + 180), (start + 180, start + 360)]
    else:  # a full ring: two halves, since one simple polygon cannot have a hole
        spans = [(0.0, 180.0), (180.0, 360.0)]
    polygons = []
    for a, b in spans:
        outer = _arc_points(cx, cy, radius + width / 2, a, b)
        inner = _arc_points(cx, cy, radius - width / 2, a, b)[::-1]
        polygons.append(np.vstack((outer, inner)))
    return polygons


def shape_polygons(shape):
    """The simple polygons (each an (N, 2) array, mm) of one layout entry."""
    if not isinstance(shape, dict):
        raise ConfigError(f"a layout entry must be a map, got {shape!r}")
    if {"x0", "y0", "x1", "y1"} <= shape.keys():
        x0, y0, x1, y1 = (float(shape[k]) for k in ("x0", "y0", "x1", "y1"))
        if not (x0 < x1 and y0 < y1):
            raise ConfigError(f"a rectangle needs x0 < x1 and y0 < y1: {shape}")
        return [np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])]
    if "polygon" in shape:
        p = np.asarray(shape["polygon"], float)
        if p.ndim != 2 or p.shape[1] != 2 or len(p) < 3:
            raise ConfigError("a polygon needs at least three [x, y] points")
        return [p]
    if "path" in shape:
        return [_path_polygon(shape["path"], float(shape["width_mm"]),
                              shape.get("ends", "flush") == "extended")]
    if "circle" in shape:
        cx, cy = shape["circle"]
        return [_arc_points(cx, cy, float(shape["radius_mm"]), 0.0, 360.0)[:-1]]
    if "arc" in shape:
        return _arc_polygons(shape)
    raise ConfigError(f"unknown layout entry {shape}: expected a rectangle {{x0, y0, x1, y1}}, "
                      "polygon, path, circle or arc")


class Metal:
    """The layout's metal: polygons and point-in-metal tests."""

    def __init__(self, layout):
        if isinstance(layout, dict):
            if "gds" in layout:
                raise ConfigError("layout: {gds: ...} is not supported by the openEMS reference; "
                                  "write the layout as a list of shapes")
            raise ConfigError(f"layout must be a list of shapes, got {layout!r}")
        if not layout:
            raise ConfigError("layout is empty")
        self.polygons = [p for shape in layout for p in shape_polygons(shape)]
        self._paths = [Path(np.vstack((p, p[:1])), closed=True) for p in self.polygons]
        allpoints = np.vstack(self.polygons)
        self.lower, self.upper = allpoints.min(axis=0), allpoints.max(axis=0)

    def contains(self, points):
        """A boolean per point (an (N, 2) array, mm): inside the metal."""
        points = np.atleast_2d(np.asarray(points, float))
        inside = np.zeros(len(points), bool)
        for path in self._paths:
            inside |= path.contains_points(points)
        return inside

    def axis_edges(self, axis, step):
        """Metal boundaries across `axis` (0: x, 1: y): {coordinate: set of sides}, where side +1
        means the metal lies on the greater side of the boundary, -1 the lesser."""
        edges = {}
        delta = step / 20
        for polygon in self.polygons:
            for a, b in zip(polygon, np.roll(polygon, -1, axis=0)):
                if abs(a[axis] - b[axis]) > 1e-9:
                    continue
                other = 1 - axis
                length = abs(b[other] - a[other])
                count = max(2, int(math.ceil(length / (step / 2))) + 1)
                samples = np.zeros((count, 2))
                samples[:, other] = np.linspace(a[other], b[other], count + 2)[1:-1]
                samples[:, axis] = a[axis]
                below, above = samples.copy(), samples.copy()
                below[:, axis] -= delta
                above[:, axis] += delta
                inside_below, inside_above = self.contains(below), self.contains(above)
                key = round(float(a[axis]), 9)
                for lo, hi in zip(inside_below, inside_above):
                    if lo != hi:
                        edges.setdefault(key, set()).add(1 if hi else -1)
        return edges

    def width_across(self, point, axis, inward):
        """The metal's extent across `axis` through `point`, just inside the port edge.

        `axis` is the feed's direction (0: x, 1: y) and inward its sign; returns (lo, hi)."""
        probe = np.array(point, float)
        probe[axis] += inward * 1e-4
        if not self.contains(probe)[0]:
            raise ConfigError(f"no metal just inside the port edge at {tuple(point)}")
        other = 1 - axis
        span = float(self.upper[other] - self.lower[other]) + 1.0

        def edge(sign):
            """The first boundary from the probe outward: march, then bisect the step."""
            step = 5e-3
            offsets = np.arange(0.0, span, step)
            q = np.repeat(probe[None, :], len(offsets), axis=0)
            q[:, other] += sign * offsets
            outside = np.flatnonzero(~self.contains(q))
            lo, hi = offsets[outside[0] - 1], offsets[outside[0]]  # inside at lo, outside at hi
            while hi - lo > 1e-7:
                mid = 0.5 * (lo + hi)
                q = probe.copy()
                q[other] += sign * mid
                if self.contains(q)[0]:
                    lo = mid
                else:
                    hi = mid
            return probe[other] + sign * lo
        return edge(-1), edge(+1)


class Layers:
    """Metal on several interfaces of a stack (a shape's or port's `layer: k`, the top of the
    stack's k-th layer; without it, metal_on's): a Metal per interface, and over all of them the
    bounding box, point tests and edges the box's mesh needs."""

    def __init__(self, shapes, stack):
        if isinstance(shapes, dict) or not shapes:
            Metal(shapes)  # its errors: a GDSII layout, not a list, empty
        default = stack.metal_on + 1
        by = {}
        for shape in shapes:
            k = shape.get("layer", default) if isinstance(shape, dict) else default
            if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= len(stack.layers):
                raise ConfigError(f"layout entry {shape}: layer must be 1 to {len(stack.layers)}")
            by.setdefault(k, []).append(shape)
        self.stack = stack
        self.by_interface = {k: Metal(v) for k, v in sorted(by.items())}
        self.polygons = [p for m in self.by_interface.values() for p in m.polygons]
        self.lower = np.min([m.lower for m in self.by_interface.values()], axis=0)
        self.upper = np.max([m.upper for m in self.by_interface.values()], axis=0)

    def z(self, interface):
        """The interface's height over the ground (mm)."""
        return float(self.stack.interfaces[interface])

    def of(self, spec):
        """The interface and Metal of a port (its `layer`, else metal_on's)."""
        k = spec.get("layer", self.stack.metal_on + 1)
        if k not in self.by_interface:
            raise ConfigError(f"port {spec.get('name')}: no metal on layer {k}")
        return k, self.by_interface[k]

    def contains(self, points):
        """A boolean per point: inside the metal of any interface."""
        inside = [m.contains(points) for m in self.by_interface.values()]
        return np.logical_or.reduce(inside)

    def width_across(self, point, axis, inward):
        """Metal.width_across on a one-layer layout (lumped elements are modelled there only)."""
        if len(self.by_interface) > 1:
            raise ConfigError("lumped elements with metal on several layers are not modelled")
        return next(iter(self.by_interface.values())).width_across(point, axis, inward)

    def axis_edges(self, axis, step):
        """Every interface's metal boundaries across `axis` (Metal.axis_edges), merged."""
        edges = {}
        for m in self.by_interface.values():
            for key, sides in m.axis_edges(axis, step).items():
                edges.setdefault(key, set()).update(sides)
        return edges


class Via:
    """A config via (docs/CONFIG.md, "### vias"): a plated via of `diameter` (mm) centred on
    (x, y), from the ground plane at z = 0 up to the metal at z = h."""

    def __init__(self, name, x, y, diameter):
        self.name, self.x, self.y, self.diameter = name, x, y, diameter

    @property
    def radius(self):
        return 0.5 * self.diameter

    def edges(self, axis):
        """Its centre and its two edges across `axis` (0: x, 1: y), mm."""
        centre = self.x if axis == 0 else self.y
        return [centre - self.radius, centre, centre + self.radius]


def vias(config, metal):
    """The config's vias (an empty list without `vias:`), checked: a map with x, y and a
    diameter_mm > 0, distinct names, the centre on the metal."""
    spec = config.get("vias") or []
    if not isinstance(spec, list):
        raise ConfigError(f"vias must be a list of {{name, x, y, diameter_mm}}, got {spec!r}")
    out = []
    for k, entry in enumerate(spec):
        if not isinstance(entry, dict) or not {"x", "y", "diameter_mm"} <= entry.keys():
            raise ConfigError(f"via {k + 1}: needs x, y and diameter_mm, got {entry!r}")
        name = str(entry.get("name", f"via {k + 1}"))
        via = Via(name, float(entry["x"]), float(entry["y"]), float(entry["diameter_mm"]))
        if not via.diameter > 0:
            raise ConfigError(f"via {name!r} at ({via.x:g}, {via.y:g}): diameter_mm must be > 0")
        if any(v.name == name for v in out):
            raise ConfigError(f"via {name!r} at ({via.x:g}, {via.y:g}): the name is used twice")
        if not metal.contains([[via.x, via.y]])[0]:
            raise ConfigError(f"via {name!r} at ({via.x:g}, {via.y:g}): its centre is off the "
                              "metal; draw a pad under it")
        out.append(via)
    return out


class Layer:
    """One dielectric layer of the board: relative permittivity, thickness (mm), loss tangent."""

    def __init__(self, eps_r, height, loss_tangent=0.0):
        self.eps_r, self.height, self.loss_tangent = eps_r, height, loss_tangent


class Stack:
    """The board under and over the metal (docs/CONFIG.md, "### stackup"): dielectric layers bottom
    to top over the ground plane at z = 0, the strips on top of layer `metal_on` (0-based here),
    and over the top layer air or a perfect ground (`top`: "air" or "ground", a stripline).

    A config's `substrate:` is the stack of its one layer with air over it."""

    def __init__(self, layers, metal_on=0, top="air"):
        self.layers, self.metal_on, self.top = list(layers), metal_on, top

    @property
    def interfaces(self):
        """z (mm) of the ground and of every layer's top, bottom to top."""
        return [0.0] + list(np.cumsum([layer.height for layer in self.layers]))

    @property
    def metal_z(self):
        """The strips' height over the ground (mm): the top of layer metal_on."""
        return float(self.interfaces[self.metal_on + 1])

    @property
    def top_z(self):
        """The top of the top layer (mm)."""
        return float(self.interfaces[-1])

    @property
    def substrate(self):
        """The layer the strips lie on."""
        return self.layers[self.metal_on]

    def describe(self):
        parts = [f"{'*' if k == self.metal_on else ''}{layer.eps_r:g}/{layer.height:g} mm"
                 for k, layer in enumerate(self.layers)]
        return f"stack {' | '.join(parts)} (metal on *), top {self.top}"


def _number(entry, key, where, default=None, minimum=None, above=None):
    if key not in entry:
        if default is None:
            raise ConfigError(f"{where}: needs {key}")
        return default
    value = float(entry[key])
    if minimum is not None and not value >= minimum:
        raise ConfigError(f"{where}: {key} must be >= {minimum:g}, got {value:g}")
    if above is not None and not value > above:
        raise ConfigError(f"{where}: {key} must be > {above:g}, got {value:g}")
    return value


def _layer(entry, where):
    if not isinstance(entry, dict):
        raise ConfigError(f"{where} must be a map of eps_r, height_mm, loss_tangent, got {entry!r}")
    return Layer(_number(entry, "eps_r", where, minimum=1.0),
                 _number(entry, "height_mm", where, above=0.0),
                 _number(entry, "loss_tangent", where, default=0.0, minimum=0.0))


def stack(config):
    """The config's board: `substrate:` (one layer, air over it) or `stackup:`, checked."""
    if ("substrate" in config) == ("stackup" in config):
        raise ConfigError("give exactly one of substrate and stackup")
    if "substrate" in config:
        return Stack([_layer(config["substrate"], "substrate")])
    spec = config["stackup"]
    if not isinstance(spec, dict) or not isinstance(spec.get("layers"), list) or not spec["layers"]:
        raise ConfigError("stackup needs layers: a non-empty list of {eps_r, height_mm, "
                          "loss_tangent}, bottom to top")
    layers = [_layer(entry, f"stackup layer {k + 1}") for k, entry in enumerate(spec["layers"])]
    if "metal_on" not in spec:
        raise ConfigError("stackup needs metal_on: the layer (1: the bottom one) the strips lie on")
    metal_on = spec["metal_on"]
    if isinstance(metal_on, bool) or not isinstance(metal_on, int) or not 1 <= metal_on <= len(layers):
        raise ConfigError(f"stackup metal_on must be a layer number 1 to {len(layers)}, "
                          f"got {metal_on!r}")
    top = spec.get("top", "air")
    if top not in ("air", "ground"):
        raise ConfigError(f"stackup top must be air or ground, got {top!r}")
    if top == "ground" and metal_on == len(layers):
        raise ConfigError("stackup top: ground needs a layer over the strips")
    return Stack(layers, metal_on - 1, top)
