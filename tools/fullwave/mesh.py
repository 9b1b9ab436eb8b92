"""The FDTD box and mesh of the openEMS reference (tools/openems_reference.py).

Fine cells (the given size) over the metal and the ports' extensions, the thirds rule at every metal
edge along x and y (a line a third of a cell inside the metal, two thirds outside), cells growing by
at most RATIO to a twentieth of the shortest wavelength in the substrate towards the boundaries.
"""
import math

import numpy as np
from CSXCAD.SmoothMeshLines import SmoothMeshLines

C0 = 299792458.0
RATIO = 1.4
PML_CELLS = 8


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


def graded(fine, fine_range, box, cell, coarse):
    """Lines: `fine` plus cells of at most `cell` over fine_range, growing to `coarse` out to box."""
    lines = list(fine) + list(fine_range)
    lines = [x for x in lines if fine_range[0] <= x <= fine_range[1]]
    lines = SmoothMeshLines(merge_close(lines, cell / 4), cell, RATIO)
    lines = SmoothMeshLines(np.concatenate((lines, box)), coarse, RATIO)
    return np.unique(np.round(lines, 9))


class Box:
    """The simulated volume (mm), its mesh lines and boundary conditions.

    port_sides: {(axis, outward sign -1/+1)} of the sides the feeds leave through, which get
    PML_8 and the feed extension; the other sides and the top get MUR at `margin`."""

    def __init__(self, metal, port_sides, height, eps_r, f_max, cell, margin, extension):
        coarse = C0 / (f_max * math.sqrt(eps_r)) * 1e3 / 20
        self.cell, self.coarse = cell, coarse
        lines, self.lower, self.upper, self.boundaries = [], [], [], []
        for axis in (0, 1):
            lo, hi = float(metal.lower[axis]), float(metal.upper[axis])
            ext_lo = extension if (axis, -1) in port_sides else 0.0
            ext_hi = extension if (axis, +1) in port_sides else 0.0
            box = (lo - (ext_lo or margin), hi + (ext_hi or margin))
            fine_range = (lo - max(ext_lo, cell), hi + max(ext_hi, cell))
            fine = thirds_lines(metal.axis_edges(axis, cell), cell)
            lines.append(graded(fine, fine_range, box, cell, coarse))
            self.lower.append(box[0])
            self.upper.append(box[1])
            self.boundaries += ["PML_8" if ext_lo else "MUR", "PML_8" if ext_hi else "MUR"]
        substrate_cells = max(3, int(math.ceil(2 * height / cell)))
        z = list(np.linspace(0.0, height, substrate_cells + 1))
        z = SmoothMeshLines(np.array(z + [height + margin]), coarse, RATIO)
        lines.append(np.unique(np.round(z, 9)))
        self.lower.append(0.0)
        self.upper.append(height + margin)
        self.boundaries += ["PEC", "MUR"]  # the ground plane at z = 0
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
                f"[0, {self.upper[2]:g}] mm; boundaries {' '.join(self.boundaries)}")
