"""One openEMS FDTD run of a planarmom layout (tools/openems_reference.py).

Ground plane (the PEC boundary at z = 0), a substrate filling the box to z = h with its loss
tangent as a conductivity at the band centre (or a stackup's layers, each its own box of its own
permittivity and loss, the strips on top of layer metal_on at z = h, and a ground over the top
layer as the box's PEC top boundary), PEC sheets of zero thickness at z = h, lumped
resistors (the config's `lumped:` with r_ohm) as openEMS lumped elements in them, the config's
vias as PEC cylinders from the ground (z = 0) up to the sheets (z = h), and an
openEMS MSL port on each feed, whose line runs on out of the layout into a PML_8 boundary and
ends there on a resistor of the port's impedance: the PML absorbs the band, the resistor gives the
charge a pulse reaching down to DC leaves on the metal a path to ground (docs/VALIDATION.md,
"Independent full-wave reference (openEMS)", on the energy's floor). The port's voltage and
current are sampled at the port edge; openems_reference.py carries the waves to the reference
plane.
"""
import math
import os
import re
import sys
import time

import numpy as np

# openEMS 0.0.35's ports.py still calls numpy's removed aliases np.float and np.int.
if not hasattr(np, "float"):
    np.float = float
if not hasattr(np, "int"):
    np.int = int

from CSXCAD import ContinuousStructure  # noqa: E402

from fullwave import layout  # noqa: E402
from openEMS import openEMS  # noqa: E402

EPS0 = 8.8541878128e-12
# The excitation sits this many fine cells from the box's side: past the PML's 8 and a few more.
FEED_SHIFT_CELLS = 12
# A via's cylinder is this much (mm) wider than its radius, so that the E-field edges on its rim
# (its mesh lines, mesh.via_lines) are inside it whatever the rounding of the lines: openEMS sets
# an edge to PEC when the edge's midpoint is inside a metal primitive (CSXCAD's cylinder: distance
# to the axis <= radius), and a grid node on the rim is at the radius only up to rounding.
VIA_RIM_MM = 1e-6


def _stats(log):
    """Time steps, cells, energy decay (dB) and the time step from an openEMS log."""
    text = open(log, errors="replace").read()
    found = {}
    m = re.findall(r"Time for (\d+) iterations with ([0-9.]+) cells", text)
    if m:
        found["steps"], found["cells"] = int(m[-1][0]), int(float(m[-1][1]))
    m = re.findall(r"\(-\s*([0-9.]+)\s*dB\)", text)
    if m:
        found["decay_db"] = -float(m[-1])
    # The time step from the probes' sampling: every N steps at F Hz is Nyquist's 1 / (2 F).
    m = re.findall(r"Nyquist rate: (\d+) timesteps @([0-9.eE+-]+) Hz", text)
    if m:
        found["timestep_s"] = 1 / (2 * int(m[0][0]) * float(m[0][1]))
    return found


def add_resistors(csx, grid, config, metal, height, cell):
    """The config's lumped elements (resistors only) as openEMS lumped resistors: a sheet one fine
    cell long across the strip, centred on the element's grid line, in place of the metal there
    (its own two mesh lines along the current)."""
    for element in config.get("lumped", []):
        if any(float(element.get(k, 0)) != 0 for k in ("l_nh", "c_pf")):
            raise layout.ConfigError(f"lumped element {element['name']!r}: this reference models "
                                     "resistors only (r_ohm)")
        axis = 0 if element["axis"] == "x" else 1
        point = [float(element["x"]), float(element["y"])]
        lo, hi = metal.width_across(point, axis, 1)  # across the strip, just past the line
        at = point[axis]
        grid.AddLine("xy"[axis], [at - cell / 2, at + cell / 2])
        start, stop = [0.0, 0.0, height], [0.0, 0.0, height]
        start[axis], stop[axis] = at - cell / 2, at + cell / 2
        start[1 - axis], stop[1 - axis] = lo, hi
        resistor = csx.AddLumpedElement(element["name"], ny="xy"[axis], caps=True,
                                        R=float(element["r_ohm"]))
        resistor.AddBox(start, stop, priority=15)


def add_vias(pec, vias, height):
    """The vias as PEC cylinders (openEMS staircases them onto the mesh: every E-field edge whose
    midpoint lies inside is PEC) from the ground plane at z = 0 to the sheets at z = h."""
    for via in vias:
        pec.AddCylinder([via.x, via.y, 0.0], [via.x, via.y, height], via.radius + VIA_RIM_MM,
                        priority=10)


def add_layers(csx, stack, box, f0):
    """Each dielectric layer as its own box filling the box laterally, its tan d a conductivity
    at the band centre f0; one layer is the material "substrate" it always was. A ground over the
    top layer (a stripline) is the box's PEC boundary there (mesh.Box)."""
    interfaces = stack.interfaces
    for k, layer in enumerate(stack.layers):
        kappa = 2 * math.pi * f0 * EPS0 * layer.eps_r * layer.loss_tangent
        name = "substrate" if len(stack.layers) == 1 else f"layer{k + 1}"
        material = csx.AddMaterial(name, epsilon=float(layer.eps_r), kappa=float(kappa))
        material.AddBox([box.lower[0], box.lower[1], float(interfaces[k])],
                        [box.upper[0], box.upper[1], float(interfaces[k + 1])], priority=0)


def add_upper_feed(csx, handle, stack, z):
    """Under a ground on top (a stripline), the driven MSL port's excitation mirrored into the
    layers over the strip: openEMS's MSL port drives the field between the strip and the ground
    under it only, which leaves the top ground's half of the return current nowhere to go at the
    feed but into the two grounds' parallel-plate mode, which no wall stitching the grounds
    stops here; with the field driven from the strip to both grounds (opposite signs of E_z) the
    feed launches the stripline's own mode. Same feed plane, strip width and delay as openEMS's
    own excitation (openEMS/ports.py); the field scaled by z / (top - z), so that the voltage
    from the strip to either ground is the same (a strip off the plates' middle, z its height:
    with equal fields the two voltages differ and the feed launches the plates' mode too)."""
    lines = csx.GetGrid().GetLines(handle.prop_ny)
    at = lines[np.argmin(np.abs(lines - (handle.start[handle.prop_ny]
                                          + handle.feed_shift * handle.direction)))]
    start, stop = np.array(handle.start, float), np.array(handle.stop, float)
    start[handle.prop_ny] = stop[handle.prop_ny] = at
    start[handle.exc_ny], stop[handle.exc_ny] = z, stack.top_z
    vector = np.zeros(3)
    # The opposite sign of openEMS's -upside_down, the voltage of its excitation below.
    vector[handle.exc_ny] = handle.upside_down * z / (stack.top_z - z)
    exc = csx.AddExcitation(handle.lbl_temp.format("excite_upper"), exc_type=0, exc_val=vector,
                            delay=handle.delay)
    exc.AddBox(start, stop, priority=handle.priority)


def run(config, metal, ports, box, excited, sim_path, opts):
    """Runs openEMS with port `excited` driven; returns ({port: (U, I, beta, ZL)}, stats).

    U, I: complex spectra at the port edge (I into the circuit), beta (1/m) and ZL (ohm) the
    line's, measured by the port's three probes."""
    stack = box.stack
    height = stack.metal_z  # the strips' height over the ground
    freq = opts.frequencies
    f0 = 0.5 * (freq[0] + freq[-1])
    fc = min(f0, 0.75 * (freq[-1] - freq[0]))

    fdtd = openEMS(NrTS=opts.max_steps, EndCriteria=opts.end_criteria)
    fdtd.SetGaussExcite(f0, fc)
    fdtd.SetBoundaryCond(box.boundaries)
    csx = ContinuousStructure()
    fdtd.SetCSX(csx)
    grid = csx.GetGrid()
    grid.SetDeltaUnit(1e-3)
    for axis, lines in zip("xyz", box.lines):
        grid.SetLines(axis, lines)

    add_layers(csx, stack, box, f0)
    pec = csx.AddMetal("pec")
    for interface, sheet in metal.by_interface.items():  # each layer's sheets at its height
        for polygon in sheet.polygons:
            pec.AddPolygon(polygon.T, "z", metal.z(interface), priority=10)
    add_vias(pec, box.vias, height)
    add_resistors(csx, grid, config, metal, height, box.cell)

    handles = {}
    for port in ports:
        outer = box.lower[port.axis] if port.inward > 0 else box.upper[port.axis]
        start, stop = [0.0, 0.0, port.z], [0.0, 0.0, 0.0]
        start[port.axis], stop[port.axis] = outer, port.point[port.axis]
        other = 1 - port.axis
        start[other], stop[other] = port.strip
        handles[port.name] = fdtd.AddMSLPort(
            port.index + 1, pec, start, stop, "xy"[port.axis], "z",
            excite=1 if port.name == excited else 0, FeedShift=FEED_SHIFT_CELLS * box.cell,
            MeasPlaneShift=abs(port.point[port.axis] - outer), Feed_R=port.impedance, priority=20)
        if port.name == excited and stack.top == "ground" and not getattr(opts, "single_feed", False):
            add_upper_feed(csx, handles[port.name], stack, port.z)

    os.makedirs(sim_path, exist_ok=True)
    log = sim_path + ".log"  # beside it: Run(cleanup=True) empties sim_path
    began = time.time()
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    with open(log, "w") as sink:
        os.dup2(sink.fileno(), 1)
        os.dup2(sink.fileno(), 2)
        try:
            fdtd.Run(sim_path, cleanup=True, verbose=1, numThreads=opts.threads)
        finally:
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
    stats = _stats(log)
    stats["wall_s"] = time.time() - began
    stats["log"] = log

    data = {}
    for port in ports:
        h = handles[port.name]
        h.ReadUIData(sim_path, freq)
        measured = h.start[port.axis] + h.measplane_shift * h.direction
        plane = port.point[port.axis] + port.inward * port.reference_plane
        data[port.name] = dict(u=h.uf_tot, i=h.if_tot, beta=h.beta, zl=h.Z_ref,
                               shift_mm=(plane - measured) * port.inward)
    return data, stats

