#!/usr/bin/python3
"""Convergence study of a planarmom sweep: the config's S at a few frequencies, then again with
each knob pushed one step, and per knob the largest change it makes.

Usage: converge.py CONFIG.yaml [--points K] [--knobs LIST] [--backend auto|cpu|cuda]
                   [--planarmom EXE] [--work DIR] [--json FILE]

Knobs, each a run of its own against the config as given (the baseline):
  density    the sparsify density doubled (at most 1), or a reach_heights times √2; skipped
             with rule exact, which keeps every interaction
  dense      every entry of Z kept (density 1); with rule exact, the dense Z's product in place
             of the FFTs (the two must agree to the solver's tolerance)
  feeds      every port's feed twice as long: the layout extended outward by the feed's length,
             its reference plane kept where it was on the circuit
  cells      the cell halved (both sides of an oblong one; auto and cells_per_wavelength: twice
             the cells per wavelength)
  tables     the Green's tables 100 times more accurate and every Gauss order doubled
             (accuracy: {greens_table, quadrature})
  tolerance  the solver's tolerance times 0.01
Frequencies: K (default 5) evenly over the config's band and, where the baseline's |S11| is
smallest inside the band, five more within ±2% of that minimum, from which a parabola through
|S11|² places it. Per knob: the largest change of |S| in dB and of its phase over the entries
above -30 dB, the largest |ΔS| of the entries below, and the shift of the |S11| minimum; a knob
is converged when they are within 0.1 dB and 0.3% (docs/VALIDATION.md). Each run's log goes to
WORK/NAME.log, its frequency lines to the terminal. Exit status 0 when the study ran (whatever
it found), 1 when a run failed, 2 for bad arguments, 77 when h5py, numpy or PyYAML is missing.
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

import read_sweep  # this folder's reader of sweep files

read_sweep.require_h5py()  # exits 77, saying why, without h5py or numpy
import numpy as np  # noqa: E402 (present once h5py is)

yaml = read_sweep.require_yaml()  # exits 77, saying why, without PyYAML

KNOBS = ("density", "dense", "feeds", "cells", "tables", "tolerance")
FLOOR_DB = -30.0        # entries above: compared in dB and phase; below: by |ΔS|
BAR_DB, BAR_MIN = 0.1, 0.3e-2
LOCAL = (-0.02, -0.01, 0.0, 0.01, 0.02)  # around the coarse minimum, relative


class StudyError(Exception):
    """A run failed or the config cannot be varied; the message says which and why."""


def band(config):
    """The config's frequencies in Hz, as planarmom reads them."""
    f = config["frequencies"]
    if isinstance(f, list):
        return [float(x) for x in f]
    n = int(f["points"])
    start, stop = float(f["start_hz"]), float(f["stop_hz"])
    return [start + (stop - start) * i / (n - 1) for i in range(n)] if n > 1 else [start]


def coarse_frequencies(config, k):
    f = band(config)
    if len(f) <= k:
        return f
    return [f[round(i * (len(f) - 1) / (k - 1))] for i in range(k)] if k > 1 else [f[len(f) // 2]]


def feed_span(layout, axis, at, across):
    """The across-extent (low, high) of the shape edge on the port's line (axis = at) that holds
    the port's point: a rectangle's side, or a polygon's edge along that line; None if none."""
    other = "y" if axis == "x" else "x"
    k, j = (0, 1) if axis == "x" else (1, 0)  # a vertex's coordinate along and across
    for shape in layout:
        if "polygon" in shape:
            ring = [tuple(map(float, v)) for v in shape["polygon"]]
            for a, b in zip(ring, ring[1:] + ring[:1]):
                if abs(a[k] - at) < 1e-9 and abs(b[k] - at) < 1e-9:
                    lo, hi = sorted((a[j], b[j]))
                    if lo <= across <= hi:
                        return lo, hi
        elif all(c in shape for c in ("x0", "y0", "x1", "y1")):
            if any(abs(float(shape[f"{axis}{e}"]) - at) < 1e-9 for e in (0, 1)) and \
                    float(shape[f"{other}0"]) <= across <= float(shape[f"{other}1"]):
                return float(shape[f"{other}0"]), float(shape[f"{other}1"])
    return None


def longer_feeds(config):
    """Each edge port's feed extended outward by its own length (a rectangle of the feed's width, read
    from the rectangle or polygon edge at the port, beyond the port), the port moved to the new
    end, its reference plane kept in place."""
    layout = config.get("layout")
    if not isinstance(layout, list):
        raise StudyError("the feeds knob needs the layout as a list of shapes")
    config = dict(config, layout=list(layout), ports=[dict(p) for p in config["ports"]])
    for port in config["ports"]:
        if "axis" in port:  # an internal port: no feed to lengthen
            continue
        x, y, d, length = float(port["x"]), float(port["y"]), port["direction"], float(
            port["feed_length_mm"])
        axis, sign = ("x", 1.0) if d in ("+x", "x") else ("x", -1.0) if d == "-x" else (
            ("y", 1.0) if d in ("+y", "y") else ("y", -1.0))
        at, across = (x, y) if axis == "x" else (y, x)
        other = "y" if axis == "x" else "x"
        span = feed_span(layout, axis, at, across)
        if span is None:
            raise StudyError(f"port {port['name']}: no rectangle or polygon edge ends at the port, "
                             "so the feeds knob cannot tell the feed's width")
        new_end = at - sign * length
        ext = {f"{other}0": span[0], f"{other}1": span[1],
               f"{axis}0": min(at, new_end), f"{axis}1": max(at, new_end)}
        config["layout"].append({k: ext[k] for k in ("x0", "y0", "x1", "y1")})
        port[axis] = new_end
        port["feed_length_mm"] = 2 * length
        port["reference_plane_mm"] = float(port.get("reference_plane_mm", 0.0)) + length
    return config


def knob_config(config, knob):
    c = {k: (dict(v) if isinstance(v, dict) else v) for k, v in config.items()}
    sparsify = c.setdefault("sparsify", {})
    solver = c.setdefault("solver", {})
    exact = sparsify.get("rule") == "exact"
    if knob == "density" and exact:
        return None  # every interaction is kept: nothing to double
    if knob == "density" and "reach_heights" in sparsify:
        sparsify["reach_heights"] = math.sqrt(2) * float(sparsify["reach_heights"])  # ~2x area
    elif knob == "density":
        sparsify["density"] = min(1.0, 2 * float(sparsify.get("density", 0.05)))
    elif knob == "dense":
        # With rule exact: the dense Z's product instead of the FFTs, an independent check.
        sparsify.pop("reach_heights", None)
        if exact:
            sparsify.pop("rule")
            if solver.get("preconditioner") == "lu":
                solver.pop("preconditioner")
        sparsify["density"] = 1.0
    elif knob == "feeds":
        c = longer_feeds(c)
    elif knob == "cells":
        mesh = c["mesh"]
        cell = mesh.get("cell_mm")
        if cell == "auto":  # auto's largest cell halved: twice its cells per wavelength
            mesh["cells_per_wavelength"] = 2 * float(mesh.get("cells_per_wavelength", 20))
        elif isinstance(cell, list):  # oblong cells [dx, dy]: both sides halved
            mesh["cell_mm"] = [float(side) / 2 for side in cell]
        elif cell is not None:
            mesh["cell_mm"] = float(cell) / 2
        else:
            mesh["cells_per_wavelength"] = 2 * float(mesh["cells_per_wavelength"])
    elif knob == "tables":
        accuracy = c.setdefault("accuracy", {})
        accuracy["greens_table"] = float(accuracy.get("greens_table", 1e-6)) / 100
        accuracy["quadrature"] = 2 * int(accuracy.get("quadrature", 1))
    elif knob == "tolerance":
        solver["tolerance"] = float(solver.get("tolerance", 1e-7)) / 100
    return c


def run(exe, name, config, frequencies, work, backend):
    """Sweeps `config` at `frequencies` into WORK/NAME/; returns (f, S, seconds)."""
    c = dict(config, frequencies=[float(f) for f in frequencies])
    c.pop("output", None)
    path = os.path.join(work, f"{name}.yaml")
    with open(path, "w") as out:
        yaml.safe_dump(c, out, sort_keys=False)
    # --restart: a study times every run, so an earlier study's file in WORK is not continued.
    cmd = [exe, "sweep", path, "--restart", "--out-dir", os.path.join(work, name)]
    if backend:
        cmd += ["--backend", backend]
    print(f"== {name}: {len(frequencies)} frequencies ({' '.join(cmd)})", flush=True)
    start = time.monotonic()
    with open(os.path.join(work, f"{name}.log"), "w") as log:
        child = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in child.stdout:
            log.write(line)
            # Frequencies, line checks, what a long step is doing, and anything gone wrong.
            if any(w in line for w in ("GHz:", "line check", "still", "warning", "error", "unknowns")):
                print(f"  {name}: {line.rstrip()}", flush=True)
        status = child.wait()
    seconds = time.monotonic() - start
    if status != 0:
        raise StudyError(f"the {name} run failed (exit {status}): see {log.name}")
    sweep = read_sweep.load(os.path.join(work, name, f"{name}.h5"))
    return sweep["frequency"], sweep["s"], seconds


def s11_minimum(f, s):
    """Where a parabola through |S11|² at the frequencies within 2% of its smallest sample is
    smallest (|S11|² is quadratic in f near a simple null), or None."""
    i = int(np.argmin(np.abs(s[:, 0, 0])))
    window = [j for j in range(len(f)) if abs(f[j] / f[i] - 1) <= 0.021]
    if len(window) < 3:
        return None
    x = f[window] / f[i] - 1
    a, b, _ = np.polyfit(x, np.abs(s[window, 0, 0]) ** 2, 2)
    if a <= 0:
        return None
    at = -b / (2 * a)
    return f[i] * (1 + at) if x.min() <= at <= x.max() else None


def compare(base, other):
    """Largest changes of `other` against `base` (both F×P×P)."""
    db = lambda s: 20 * np.log10(np.maximum(np.abs(s), 1e-300))
    above = db(base) > FLOOR_DB
    d_db = np.abs(db(other) - db(base))[above]
    d_phase = np.abs(np.angle(other[above] / base[above], deg=True))
    d_below = np.abs(other - base)[~above]
    return {"db": float(d_db.max(initial=0)), "phase_deg": float(d_phase.max(initial=0)),
            "below_abs": float(d_below.max(initial=0))}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("config")
    parser.add_argument("--points", type=int, default=5)
    parser.add_argument("--knobs", default=",".join(KNOBS))
    parser.add_argument("--backend", choices=("auto", "cpu", "cuda"))
    parser.add_argument("--planarmom", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "build", "apps", "planarmom"))
    parser.add_argument("--work", help="folder for the runs (default: a temporary one, removed)")
    parser.add_argument("--json", help="also write the table as JSON to this file")
    a = parser.parse_args()
    knobs = [k for k in a.knobs.split(",") if k]
    unknown = [k for k in knobs if k not in KNOBS]
    if unknown or a.points < 1:
        parser.error(f"unknown knob {unknown[0]} (knobs: {', '.join(KNOBS)})" if unknown
                     else "--points must be at least 1")
    try:
        with open(a.config) as file:
            config = yaml.safe_load(file)
    except (OSError, yaml.YAMLError) as error:
        print(f"converge.py: cannot read {a.config}: {error}", file=sys.stderr)
        return 1
    work = a.work or tempfile.mkdtemp(prefix="planarmom-converge-")
    os.makedirs(work, exist_ok=True)
    # Relative paths in the config (none today but outputs, which are dropped) stay valid only
    # beside it; the layout and ports are inline.
    try:
        coarse = coarse_frequencies(config, a.points)
        f, s, _ = run(a.planarmom, "coarse", config, coarse, work, a.backend)
        i = int(np.argmin(np.abs(s[:, 0, 0])))
        frequencies = list(coarse)
        if 0 < i < len(coarse) - 1:
            frequencies = sorted(set(coarse) | {coarse[i] * (1 + x) for x in LOCAL})
        f, base, seconds = run(a.planarmom, "baseline", config, frequencies, work, a.backend)
        base_min = s11_minimum(f, base) if len(frequencies) > len(coarse) else None
        rows = [{"knob": "baseline", "seconds": seconds,
                 "s11_min_ghz": base_min / 1e9 if base_min else None}]
        for knob in knobs:
            pushed = knob_config(config, knob)
            if pushed is None:
                print(f"knob {knob}: not applicable (rule exact keeps every interaction)")
                continue
            f2, other, seconds = run(a.planarmom, knob, pushed, frequencies, work, a.backend)
            row = {"knob": knob, "seconds": seconds, **compare(base, other)}
            m = s11_minimum(f2, other) if base_min else None
            row["s11_min_ghz"] = m / 1e9 if m else None
            row["s11_min_shift"] = (m / base_min - 1) if m and base_min else None
            row["converged"] = bool(row["db"] <= BAR_DB and (
                row["s11_min_shift"] is None or abs(row["s11_min_shift"]) <= BAR_MIN))
            rows.append(row)
    except StudyError as error:
        print(f"converge.py: {error}", file=sys.stderr)
        return 1
    finally:
        if not a.work:
            shutil.rmtree(work, ignore_errors=True)
    print(f"\n{a.config}: {len(frequencies)} frequencies "
          f"{frequencies[0] / 1e9:.4g}-{frequencies[-1] / 1e9:.4g} GHz"
          + (f", |S11| minimum at {base_min / 1e9:.4f} GHz" if base_min else
             ", no |S11| minimum inside the band"))
    print(f"{'knob':10} {'max d|S| dB':>12} {'max dphase':>11} {'max |dS| <-30':>14} "
          f"{'S11 min GHz':>12} {'shift':>8} {'time s':>8}  converged "
          f"(<= {BAR_DB} dB, <= {BAR_MIN:.1%})")
    for r in rows[1:]:
        shift = f"{r['s11_min_shift']:+.2%}" if r["s11_min_shift"] is not None else "-"
        smin = f"{r['s11_min_ghz']:.4f}" if r["s11_min_ghz"] else "-"
        print(f"{r['knob']:10} {r['db']:12.4f} {r['phase_deg']:10.2f}° {r['below_abs']:14.2e} "
              f"{smin:>12} {shift:>8} {r['seconds']:8.1f}  {'yes' if r['converged'] else 'NO'}")
    if a.json:
        with open(a.json, "w") as out:
            json.dump({"config": a.config, "frequencies_hz": frequencies, "rows": rows}, out,
                      indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
