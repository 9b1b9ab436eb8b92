"""The FDTD box and mesh of the openEMS reference (tools/openems_reference.py).

Fine cells (the given size) over the metal and the ports' extensions, the thirds rule at every metal
edge along x and y (a line a third of a cell inside the metal, two thirds outside), cells growing by
at most RATIO to a twentieth of the shortest wavelength in the substrate towards the boundaries.
Between the fixed lines the fine cells are equal (CSXCAD's SmoothMeshLines grades from every short
cell next to a thirds line and leaves many cells of a third or half the size, which set the time
step).

A via (layout.Via) adds fixed lines at its centre and at its two edges along x and along y, so that
its PEC cylinder is rasterised symmetrically, with its rim on grid lines; an edge line within half
a fine cell of a thirds line of the layout's edges is left out (a via as wide as its strip: the
strip edge's thirds lines stand for it, and a line on the edge itself would leave a cell of a third
of the fine size, which sets the time step). Then the same merging, filling and grading.

Along z (stack_lines): a line on the ground and on every dielectric interface of the board (a
config's substrate, or each layer of its stackup), equal cells of at most half a fine cell in
each layer (at least 3 across the layer the strips lie on, --layer-cells across the others), a
layer next to a thinner one's finer cells growing out of them by at most RATIO, and over the top
layer air growing to the box's top (MUR), unless a ground lies there (a stripline: the box ends
on the top layer with a PEC boundary).
"""
import math

import numpy as np

from fullwave import layout

C0 = 299792458.0
RATIO = 1.4
PML_CELLS = 8
# Cells at least across a dielectric layer other than the one the strips lie on (which keeps
# its 3): a layer thinner than half a fine cell (a 25 um solder mask) gets this many equal
# cells, and its neighbours grade out of them. Its cells set the time step (the RO4003 coupler
# under a 25 um mask at 0.2 mm: 0.118 ps against the bare board's 0.298 ps): --layer-cells.
# One is enough there: two (12.5 um) moved that coupler's |S| by at most 0.03 dB and its |S11|
# minimum by +0.02% at 0.4 mm, for twice the time steps.
LAYER_CELLS = 1


def thirds_lines(edges, cell):
    """Mesh lines for metal boundaries {coordinate: sides} (layout.Metal.axis_edges)."""
    lines = []
    for position, sides in edges.items():
        if sides == {1}:
            lines += [position - 2 * cell / 3, position + cell / 3]
        elif sides == {-1}:
            lines += [position - cell / 3, position + 2 * cell / 3]
        else:  # metal on either side along different stretches: a line on the boundary itself
            lines.append(position)
    return lines


def merge_close(lines, tolerance):
    """Sorted lines, those closer than tolerance replaced by their mean."""
    lines = np.sort(np.asarray(lines, float))
    merged = [[lines[0]]]
    for x in lines[1:]:
        if x - merged[-1][-1] < tolerance:
            merged[-1].append(x)
        else:
            merged.append([x])
    return np.array([np.mean(group) for group in merged])


def filled(lines, cell):
    """Sorted lines with equal steps of at most `cell` inserted between neighbours."""
    out = [lines[:1]]
    for a, b in zip(lines[:-1], lines[1:]):
        count = int(math.ceil((b - a) / cell - 1e-9))
        out.append(a + (b - a) * np.arange(1, count + 1) / count)
    return np.concatenate(out)


def growing(start, stop, first, coarse):
    """Lines after `start` up to `stop` (either direction): steps growing by RATIO from `first`
    to at most `coarse`, all shrunk by one factor so that they end on `stop`."""
    distance = abs(stop - start)
    steps = []
    while sum(steps) < distance:
        steps.append(min(first * RATIO ** (len(steps) + 1), coarse))
    if not steps:
        return np.array([])
    steps = np.array(steps) * distance / sum(steps)
    return start + math.copysign(1.0, stop - start) * np.cumsum(steps)


def via_lines(vias, axis, fixed, cell):
    """The lines the vias add across `axis`: each via's centre and edges, an edge within half a
    cell of one of the layout's `fixed` lines left out."""
    fixed = np.asarray(fixed, float)
    lines = []
    for via in vias:
        lo, centre, hi = via.edges(axis)
        lines.append(centre)
        for edge in (lo, hi):
            if not len(fixed) or np.min(np.abs(fixed - edge)) >= cell / 2 - 1e-9:
                lines.append(edge)
    return lines


def graded(fine, fine_range, box, cell, coarse):
    """Lines: `fine` plus cells of at most `cell` over fine_range, growing to `coarse` out to box."""
    lines = [x for x in list(fine) + list(fine_range) if fine_range[0] <= x <= fine_range[1]]
    lines = filled(merge_close(lines, cell / 4), cell)
    below = growing(lines[0], box[0], lines[1] - lines[0], coarse)
    above = growing(lines[-1], box[1], lines[-1] - lines[-2], coarse)
    return np.unique(np.round(np.concatenate((below, lines, above)), 9))


def coarse_eps(stack, cell):
    """The permittivity whose wavelength sets the coarse cells: the largest of the layers at least
    a fine cell thick (a thin mask carries no wave of its own), else the substrate's."""
    thick = [layer.eps_r for layer in stack.layers if layer.height >= cell]
    return max(thick) if thick else stack.substrate.eps_r


def layer_steps(length, step, before, after):
    """Steps across a layer of `length`: equal ones of at most `step`, but growing by at most
    RATIO out of a thinner neighbour's cells (`before`, `after`: the neighbours' steps at the
    layer's two faces, or None), all scaled by one factor to end on the layer's top."""
    def ramp(neighbour):
        steps = []
        while neighbour is not None and (steps[-1] if steps else neighbour) * RATIO < step:
            steps.append((steps[-1] if steps else neighbour) * RATIO)
        return steps
    low, high = ramp(before), ramp(after)[::-1]
    middle = length - sum(low) - sum(high)
    if middle < -1e-12:  # too thin for both ramps: equal cells no larger than the first ramp step
        smallest = min(s for s in (before, after) if s is not None) * RATIO
        count = int(math.ceil(length / smallest - 1e-9))
        return np.full(count, length / count)
    count = int(math.ceil(middle / step - 1e-9))
    steps = np.array(low + [step] * count + high)
    return steps * length / steps.sum()


def stack_lines(stack, cell, layer_cells=LAYER_CELLS):
    """z lines (mm) from the ground to the top of the stack: a line on every layer interface;
    across each layer equal cells of at most half a fine cell (at least 3 across the layer the
    strips lie on, `layer_cells` across the others), then in each layer next to a thinner one's
    finer cells a ramp growing by at most RATIO out of them.

    One layer (a config's substrate:) gives what the reference always had: max(3, 2h / cell)
    equal cells."""
    steps = []
    for k, layer in enumerate(stack.layers):
        least = 3 if k == stack.metal_on else layer_cells
        steps.append(layer.height / max(least, int(math.ceil(2 * layer.height / cell))))
    z = [0.0]
    for k, layer in enumerate(stack.layers):
        before = steps[k - 1] if k > 0 and steps[k - 1] < steps[k] else None
        after = steps[k + 1] if k + 1 < len(steps) and steps[k + 1] < steps[k] else None
        if before is None and after is None:
            count = int(round(layer.height / steps[k]))
            cells = np.linspace(0.0, layer.height, count + 1)[1:]
        else:
            cells = np.cumsum(layer_steps(layer.height, steps[k], before, after))
            cells[-1] = layer.height
        z += list(z[-1] + cells) if k == 0 else list(stack.interfaces[k] + cells)
    z = np.array(z)
    z[-1] = stack.top_z
    return z


class Box:
    """The simulated volume (mm), its mesh lines and boundary conditions.

    port_sides: {(axis, outward sign -1/+1)} of the sides the feeds leave through, which get
    PML_8 and the feed extension; the other sides and the top get MUR at `margin`, but a ground
    over the stack (`stack`, layout.Stack; a stripline) is the top's PEC boundary, on the top
    layer. Without `stack`, the one-layer stack of (height, eps_r)."""

    def __init__(self, metal, port_sides, height, eps_r, f_max, cell, margin, extension, vias=(),
                 stack=None, layer_cells=LAYER_CELLS):
        # A substrate (height, eps_r) is the stack of its one layer with air over it.
        if stack is None:
            stack = layout.Stack([layout.Layer(eps_r, height)])
        self.stack = stack
        coarse = C0 / (f_max * math.sqrt(coarse_eps(stack, cell))) * 1e3 / 20
        self.cell, self.coarse = cell, coarse
        self.vias = list(vias)
        lines, self.lower, self.upper, self.boundaries = [], [], [], []
        for axis in (0, 1):
            lo, hi = float(metal.lower[axis]), float(metal.upper[axis])
            if self.vias:  # a via reaching past the metal (a pad narrower than it)
                lo = min([lo] + [v.edges(axis)[0] for v in self.vias])
                hi = max([hi] + [v.edges(axis)[2] for v in self.vias])
            ext_lo = extension if (axis, -1) in port_sides else 0.0
            ext_hi = extension if (axis, +1) in port_sides else 0.0
            box = (lo - (ext_lo or margin), hi + (ext_hi or margin))
            # Without an extension the fine range ends on the outer thirds line (2/3 cell out).
            fine_range = (lo - max(ext_lo, 2 * cell / 3), hi + max(ext_hi, 2 * cell / 3))
            fine = thirds_lines(metal.axis_edges(axis, cell), cell)
            fine += via_lines(self.vias, axis, fine, cell)
            lines.append(graded(fine, fine_range, box, cell, coarse))
            self.lower.append(box[0])
            self.upper.append(box[1])
            self.boundaries += ["PML_8" if ext_lo else "MUR", "PML_8" if ext_hi else "MUR"]
        z = stack_lines(stack, cell, layer_cells)
        top = stack.top_z
        if stack.top == "air":
            # Out of the top layer's cells (one layer: z[1], bit for bit the step it always had).
            first = z[1] if len(stack.layers) == 1 else z[-1] - z[-2]
            z = np.concatenate((z, growing(top, top + margin, first, coarse)))
        lines.append(np.unique(np.round(z, 9)))
        self.lower.append(0.0)
        self.upper.append(top + margin if stack.top == "air" else top)
        # The ground plane at z = 0; over the top layer air to MUR, or a ground (a stripline).
        self.boundaries += ["PEC", "MUR" if stack.top == "air" else "PEC"]
        self.lines = lines

    def cells(self):
        return tuple(len(l) - 1 for l in self.lines)

    def smallest(self):
        return min(float(np.diff(l).min()) for l in self.lines)

    def summary(self):
        nx, ny, nz = self.cells()
        return (f"mesh {nx} x {ny} x {nz} = {nx * ny * nz} cells, smallest {self.smallest():.4g} mm, "
                f"fine {self.cell:g} mm, coarse {self.coarse:.3g} mm; box "
                f"[{self.lower[0]:g}, {self.upper[0]:g}] x [{self.lower[1]:g}, {self.upper[1]:g}] x "
                f"[0, {self.upper[2]:g}] mm; boundaries {' '.join(self.boundaries)}"
                + (f"; {len(self.vias)} via(s)" if self.vias else "")
                + (f"; {self.stack.describe()}, z cells per layer {self.layer_cells()}"
                   if len(self.stack.layers) > 1 or self.stack.top != "air" else ""))

    def layer_cells(self):
        """The number of z cells across each dielectric layer, bottom to top."""
        z = self.lines[2]
        at = [int(np.argmin(np.abs(z - level))) for level in self.stack.interfaces]
        return [b - a for a, b in zip(at[:-1], at[1:])]
