"""A config port as the openEMS reference needs it (tools/openems_reference.py): the feed's axis
and inward sign, the edge's position and the strip's extent across the feed at the edge."""
from .layout import ConfigError

DIRECTIONS = {"+x": (0, +1), "-x": (0, -1), "+y": (1, +1), "-y": (1, -1)}


class Port:
    """A config port: its feed's axis, inward sign, edge position and strip (lo, hi) across it."""

    def __init__(self, spec, metal, index, bounds=None, z=None):
        """`metal`: the port's own layer's (layout.Metal); `bounds`: what holds the whole
        layout's extent (lower, upper), its own metal's by default; `z`: its strip's height."""
        self.name = str(spec["name"])
        self.z = z
        if "axis" in spec:
            raise ConfigError(f"port {self.name}: an internal port (axis) is not modelled by the "
                              "openEMS reference yet; only edge ports with a direction are")
        if spec.get("direction") not in DIRECTIONS:
            raise ConfigError(f"port {self.name}: direction must be one of {list(DIRECTIONS)}")
        self.axis, self.inward = DIRECTIONS[spec["direction"]]
        self.point = (float(spec["x"]), float(spec["y"]))
        self.reference_plane = float(spec.get("reference_plane_mm", 0.0))
        self.impedance = float(spec.get("impedance_ohm", 50.0))
        self.feed_length = float(spec["feed_length_mm"])
        self.index = index
        edge = self.point[self.axis]
        bounds = bounds if bounds is not None else metal
        bound = bounds.lower[self.axis] if self.inward > 0 else bounds.upper[self.axis]
        if abs(edge - bound) > 1e-6:
            raise ConfigError(f"port {self.name}: its edge ({edge:g} mm) must lie on the layout's "
                              f"outer boundary ({bound:g} mm) so that its feed can run on into "
                              "the absorbing boundary")
        self.strip = tuple(round(v, 6) for v in metal.width_across(self.point, self.axis, self.inward))

    @property
    def side(self):
        """(axis, outward sign) of the box side the feed runs out through."""
        return (self.axis, -self.inward)
