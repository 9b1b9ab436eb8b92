#!/usr/bin/python3
"""What the staircase costs a trace that runs at an angle to the grid: its effective
permittivity against the same strip along x, on the same cells (docs/VALIDATION.md, "Slanted
traces").

Usage: slanted_line.py PLANARMOM WORK_DIR --cell MM [--cell MM ...] [--run K] [--backend cpu|cuda]

A 50 ohm strip on RO4003 (W 1.2 mm, h 0.508 mm, lossless): two ports on 20 mm feeds along x,
joined by a slanted stretch (a `path`, joints mitred) that rises d while it runs K·d, for d = 10
and 20 mm (K = 1, the default: 45 degrees; K = 2: 26.6 degrees); the phase of S21 between the two
lengths gives the slanted line's β, so the bends and the ports cancel. The straight line's β
comes alike from lengths 50 and 60 mm. Prints, per cell and
frequency (3 and 5 GHz), εeff of both, the slanted one's excess and that times the cells across
(the constant of mesh's staircase warning, geometry/src/staircase.cpp). --check-cell MM runs one
cell and exits 1 unless the excess times the cells across lies within 20% of that constant.

Exit status: 0, 1 (a run failed, or --check-cell out of range), 77 without h5py/numpy.
"""
import argparse
import math
import os
import subprocess
import sys

import read_sweep  # this folder's reader of sweep files

read_sweep.require_h5py()  # exits 77, saying why, without h5py or numpy
import numpy as np  # noqa: E402 (present once h5py is)

WIDTH = 1.2
FREQUENCIES = [3.0e9, 5.0e9]
C0 = 299792458.0
WARNING_CONSTANT = 0.53  # geometry/src/staircase.cpp, kStaircaseExcess
HEADER = """substrate: {{eps_r: 3.38, height_mm: 0.508, loss_tangent: 0.0}}
metal: {{pec: true}}
layout:
  - {layout}
ports:
  - {{name: P1, x: 0, y: 0.6, direction: "+x", feed_length_mm: 14, reference_plane_mm: 20}}
  - {{name: P2, x: {x2}, y: {y2}, direction: "-x", feed_length_mm: 14, reference_plane_mm: 20}}
mesh: {{cell_mm: {cell}}}
frequencies: [{frequencies}]
sparsify: {{rule: exact}}
solver: {{tolerance: 1.0e-9, backend: {backend}}}
"""


def config(kind, size, cell, backend, run=1):
    if kind == "slanted":  # feeds 20 mm, the stretch rising d = size while it runs run·d
        y2, x = 0.6 + size, 20 + run * size
        layout = (f"{{path: [[0, 0.6], [20, 0.6], [{x}, {y2}], [{x + 20}, {y2}]], "
                  f"width_mm: {WIDTH}}}")
        x2 = x + 20
    else:  # a straight strip `size` mm long
        layout = f"{{x0: 0, y0: 0, x1: {size}, y1: {WIDTH}}}"
        x2, y2 = size, 0.6
    return HEADER.format(layout=layout, x2=x2, y2=y2, cell=cell, backend=backend,
                         frequencies=", ".join(f"{f:.1e}" for f in FREQUENCIES))


def s21(planarmom, work, name, text):
    path = os.path.join(work, name + ".yaml")
    with open(path, "w") as f:
        f.write(text)
    run = subprocess.run([planarmom, "-q", "sweep", path, "--out-dir", os.path.join(work, name)],
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"slanted_line: {name}: {run.stderr.strip()}")
    sweep = read_sweep.load(os.path.join(work, name, name + ".h5"))
    return sweep["frequency"], sweep["s"][:, 1, 0]


def eps_eff(planarmom, work, kind, sizes, length_step, cell, backend, run=1):
    """εeff from the phase that length_step mm more of the line adds to S21."""
    f, short = s21(planarmom, work, f"{kind}{run}_{sizes[0]}_{cell}",
                   config(kind, sizes[0], cell, backend, run))
    _, long = s21(planarmom, work, f"{kind}{run}_{sizes[1]}_{cell}",
                  config(kind, sizes[1], cell, backend, run))
    added = -np.angle(long / short)  # the extra delay, modulo 2π
    guess = 2 * math.pi * f * math.sqrt(2.7) / C0 * length_step * 1e-3
    added += 2 * math.pi * np.round((guess - added) / (2 * math.pi))
    beta = added / (length_step * 1e-3)
    return f, (beta * C0 / (2 * math.pi * f)) ** 2


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("planarmom")
    parser.add_argument("work")
    parser.add_argument("--cell", type=float, action="append", default=[])
    parser.add_argument("--check-cell", type=float)
    parser.add_argument("--run", type=int, default=1, help="the stretch runs K mm per mm it rises")
    parser.add_argument("--backend", default="cpu", choices=["cpu", "cuda"])
    args = parser.parse_args()
    if args.check_cell and args.run != 1:
        parser.error("--check-cell checks the warning's constant, which is the 45-degree one: "
                     "leave --run out")
    cells = args.cell + ([args.check_cell] if args.check_cell else [])
    if not cells:
        parser.error("give --cell or --check-cell")
    os.makedirs(args.work, exist_ok=True)
    ok = True
    for cell in cells:
        f, slanted = eps_eff(args.planarmom, args.work, "slanted", (10, 20),
                             10 * math.hypot(1, args.run), cell, args.backend, args.run)
        _, straight = eps_eff(args.planarmom, args.work, "straight", (50, 60), 10, cell,
                              args.backend)
        across = WIDTH / cell
        for k in range(len(f)):
            excess = slanted[k] / straight[k] - 1
            print(f"cell {cell} mm ({across:.0f} across), {f[k] / 1e9:.1f} GHz: εeff slanted "
                  f"{slanted[k]:.4f}, straight {straight[k]:.4f}, excess {100 * excess:+.2f}%, "
                  f"times cells across {excess * across:.3f}")
            if cell == args.check_cell and abs(excess * across / WARNING_CONSTANT - 1) > 0.2:
                ok = False
                print(f"FAIL: {excess * across:.3f} is not within 20% of the warning's "
                      f"{WARNING_CONSTANT}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
