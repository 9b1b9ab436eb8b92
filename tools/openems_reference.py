#!/usr/bin/python3
"""An independent full-wave reference for planarmom's configs: openEMS (FDTD) S-parameters.

  openems_reference.py run CONFIG.yaml [--cell-mm 0.4 0.2] [--excite auto|all|NAME...] [--out-dir D]
  openems_reference.py compare A B [--plot OUT.png]

`run` models the config's layout (rectangles, polygons, paths, circles, arcs; not GDSII) as PEC
sheets of zero thickness on its substrate over a ground plane (or on top of layer metal_on of
its `stackup:`, every layer its own dielectric, a ground over the top one as the box's PEC top:
a stripline; a shape's or port's `layer: k` puts it on top of layer k, each port driven on its
own layer, and no mirror symmetry is looked for then), its lumped resistors as openEMS
lumped elements, its vias (`vias:`) as PEC cylinders from the ground up to the sheets with mesh
lines at their centres and edges, drives each port's feed in turn
through an openEMS MSL port, and writes S at the config's frequencies and reference planes
(OUT/NAME_openems_CELL.s{P}p and .npz). Given two or more --cell-mm, it runs each and then prints
how far the reference itself moved between them. `compare` puts two results side by side
(planarmom's .h5, or the .npz/.sNp written here): per entry the largest |d|S|| in dB above -10
and -20 dB, the |Sii| minima and the -3/-10 dB crossings of the transmissions, and a plot.

Needs Debian's openems and python3-openems (and python3-yaml, python3-matplotlib); run with
/usr/bin/python3. docs/VALIDATION.md, "Independent full-wave reference (openEMS)".
"""
import argparse
import json
import os
import sys
import time

import numpy as np
import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fullwave import compare, layout, sparams  # noqa: E402
from fullwave.ports import Port  # noqa: E402


def frequencies(config):
    spec = config["frequencies"]
    if isinstance(spec, list):
        return np.array(spec, float)
    return np.linspace(float(spec["start_hz"]), float(spec["stop_hz"]), int(spec["points"]))


def run_one(config, name, cell, args):
    """All the runs at one fine cell size; writes and returns the result files' stem."""
    from fullwave import mesh, model  # need openEMS: imported only for `run`

    stack = layout.stack(config)
    # Metal on each interface its shapes name (`layer:`), each port on its own.
    metal = layout.Layers(config["layout"], stack)
    ports = []
    for k, spec in enumerate(config["ports"]):
        interface, own = metal.of(spec)
        ports.append(Port(spec, own, k, bounds=metal, z=metal.z(interface)))
    several = len(metal.by_interface) > 1
    if several and config.get("vias"):
        raise layout.ConfigError("vias with metal on several layers are not modelled")
    vias = layout.vias(config, metal)
    if vias and len(stack.layers) > 1:
        # planarmom refuses vias under a cover or over a base; there is nothing to compare with.
        raise layout.ConfigError("vias with a stackup of more than one layer are not modelled "
                                 "(planarmom refuses vias under a cover or over a base)")
    height, eps_r = stack.metal_z, stack.substrate.eps_r  # one layer: the substrate's
    args.frequencies = frequencies(config)
    f_centre = 0.5 * (args.frequencies[0] + args.frequencies[-1])
    margin = args.margin_mm or max(20 * height, mesh.C0 / f_centre * 1e3 / 8)
    extension = model.FEED_SHIFT_CELLS * cell + max(10 * height, 20 * cell)
    box = mesh.Box(metal, {p.side for p in ports}, height, eps_r, args.frequencies[-1], cell,
                   margin, extension, vias, stack=stack, layer_cells=args.layer_cells)
    # A mirror of the layers' union need not map each layer onto itself: none looked for there.
    maps = sparams.mirror_maps(metal, ports, vias) if args.excite == ["auto"] and not several else [
        {p.name: p.name for p in ports}]
    driven = sparams.runs_needed(ports, maps, args.excite)
    print(f"{name}, cell {cell:g} mm: {box.summary()}; margin {margin:.3g} mm, feed extension "
          f"{extension:.3g} mm; symmetries {len(maps) - 1}; driving {', '.join(driven)}", flush=True)

    runs, stats = {}, {}
    for port in driven:
        sim_path = os.path.join(args.work_dir, f"{name}_c{cell:g}_{port}")
        print(f"  driving {port} (log {sim_path}.log) ...", flush=True)
        runs[port], stats[port] = model.run(config, metal, ports, box, port, sim_path, args)
        s = stats[port]
        print(f"  driving {port}: {s.get('steps', '?')} time steps of {s.get('timestep_s', 0):.4g} s, "
              f"energy decay {s.get('decay_db', float('nan')):.1f} dB, wall {s['wall_s']:.0f} s",
              flush=True)
    # Ports named to --excite: only their columns where no symmetry completes S.
    s = sparams.assemble(ports, runs, maps, partial=args.excite not in (["all"], ["auto"]))

    stem = os.path.join(args.out_dir, f"{name}_openems_c{cell:g}")
    impedances = {p.impedance for p in ports}
    comments = [f"openEMS FDTD reference of {args.config}, fine cell {cell:g} mm",
                box.summary(), f"driven ports: {', '.join(driven)}"]
    if len(impedances) == 1 and not np.isnan(s).any():
        sparams.write_touchstone(f"{stem}.s{len(ports)}p", args.frequencies, s, impedances.pop(),
                                 comments)
    np.savez(f"{stem}.npz", frequency=args.frequencies, s=s,
             port_names=np.array([p.name for p in ports]),
             reference_impedance_ohm=np.array([p.impedance for p in ports]),
             beta=np.array([runs[driven[0]][p.name]["beta"] for p in ports]),
             zl=np.array([runs[driven[0]][p.name]["zl"] for p in ports]),
             info=json.dumps({"config": args.config, "cell_mm": cell, "cells": box.cells(),
                              "margin_mm": margin, "extension_mm": extension, "runs": stats,
                              **({"vias": [vars(v) for v in vias]} if vias else {}),
                              **({"stackup": {"layers": [vars(l) for l in stack.layers],
                                              "metal_on": stack.metal_on + 1, "top": stack.top,
                                              "z_cells": box.layer_cells()}}
                                 if "stackup" in config else {})}))
    total = sum(v["wall_s"] for v in stats.values())
    touchstone = f" (and .s{len(ports)}p)" if os.path.exists(f"{stem}.s{len(ports)}p") else ""
    print(f"  wrote {stem}.npz{touchstone}; {len(driven)} runs, {total:.0f} s", flush=True)
    return stem


def cmd_run(args):
    with open(args.config) as f:
        config = yaml.safe_load(f)
    metal_spec = config.get("metal", {})
    if not metal_spec.get("pec", False):
        print("note: the reference models the metal as PEC (zero thickness); the config's "
              "conductivity is not modelled", flush=True)
    name = os.path.splitext(os.path.basename(args.config))[0]
    # openEMS's Run changes the working directory to its run folder: only absolute paths hold.
    args.out_dir, args.work_dir = os.path.abspath(args.out_dir), os.path.abspath(args.work_dir)
    os.makedirs(args.out_dir, exist_ok=True)
    if args.nice:
        os.nice(args.nice)
    began = time.time()
    stems = [run_one(config, name, cell, args) for cell in args.cell_mm]
    print(f"wall time {time.time() - began:.0f} s", flush=True)
    for coarse, fine in zip(stems, stems[1:]):
        print(f"\nHow far the reference moves from {os.path.basename(coarse)} to "
              f"{os.path.basename(fine)}:")
        compare.report(compare.load(f"{coarse}.npz"), compare.load(f"{fine}.npz"), None)
    return 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="compute the reference S-parameters of a config")
    r.add_argument("config")
    r.add_argument("--cell-mm", type=float, nargs="+", default=[0.4],
                   help="fine cell size(s) over the metal, mm; two or more: a refinement study")
    r.add_argument("--excite", nargs="+", default=["all"],
                   help="ports to drive: all (default), auto (one of each mirror-symmetric orbit; "
                   "the others by symmetry) or names (S's other columns then NaN, no Touchstone "
                   "file unless symmetry completes S)")
    r.add_argument("--margin-mm", type=float, default=0.0,
                   help="air and substrate beyond the metal to the MUR boundaries (default: the "
                   "larger of 20 substrate heights and an eighth of the free-space wavelength at "
                   "the band centre)")
    r.add_argument("--layer-cells", type=int, default=1,
                   help="z cells at least across each stackup layer other than the strips' one "
                   "(default 1; each is at most half a fine cell; the strips' layer has 3 at "
                   "least); a thin layer's cells set the time step")
    r.add_argument("--single-feed", action="store_true",
                   help="under a ground on top (stripline): drive the port between the strip and "
                   "the lower ground only, as openEMS's MSL port does (default: both grounds)")
    r.add_argument("--end-criteria", type=float, default=1e-5,
                   help="stop when the energy has decayed by this factor (default 1e-5, -50 dB)")
    r.add_argument("--max-steps", type=int, default=60000, help="time step limit (60000)")
    r.add_argument("--threads", type=int, default=2)
    r.add_argument("--nice", type=int, default=10, help="niceness increment (0: none)")
    r.add_argument("--out-dir", default=".")
    r.add_argument("--work-dir", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "openems_ref"),
                   help="openEMS's run folders (probes and logs)")
    c = sub.add_parser("compare", help="compare two results (planarmom .h5, .npz or .sNp)")
    c.add_argument("a")
    c.add_argument("b")
    c.add_argument("--plot", help="write |S| in dB of both into this picture")
    args = parser.parse_args(argv[1:])
    try:
        if args.command == "run":
            return cmd_run(args)
        return compare.report(compare.load(args.a), compare.load(args.b), args.plot)
    except (layout.ConfigError, ValueError) as error:
        print(f"openems_reference: {error}", file=sys.stderr)
        return 1
    except KeyError as error:
        print(f"openems_reference: the config lacks the key {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
