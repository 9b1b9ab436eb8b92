#!/usr/bin/python3
"""Scans the series arm length of the branch-line coupler (examples/branch_line_coupler.yaml)
around its design value and reports the length that matches port 1 best at 3 GHz.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/scan_arm_length.py

The series arms (top and bottom, 15.6 mm centre to centre as designed) are lengthened or
shortened by moving the right shunt arm, the right feeds and ports 2 and 3 along x, in steps of
the 0.4 mm drawing grid. Square cells of 0.4 mm (half the example's unknowns, coarser than its
converged mesh) and three frequencies keep each sweep to seconds on 2 CPU cores; the feed line
checks are solved by the first sweep and read from the line cache by the others. The config is
the example's, loaded as a dict (PyYAML, Debian's python3-yaml) and changed in Python. Each
sweep warns on stderr, as the example's own does, that its feeds are short for the
de-embedding's fit at these frequencies.
"""
import copy
import os
import sys

import numpy as np
import yaml

import planarmom

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
DESIGN_MM = 15.6    # the series arms' length, centre to centre of the shunt arms
RIGHT_MM = 35.6     # the right shunt arm's left edge: what lies at or beyond it moves
CENTRE_HZ = 3.0e9


def with_series_arms(config, length_mm):
    """The coupler with series arms `length_mm` long: everything right of the ring's left half
    moved along x by the difference to the design."""
    shift = length_mm - DESIGN_MM
    moved = copy.deepcopy(config)
    for rect in moved["layout"]:
        for key in ("x0", "x1"):
            if rect[key] >= RIGHT_MM:
                rect[key] = round(rect[key] + shift, 6)
    for port in moved["ports"]:
        if port["x"] >= RIGHT_MM:
            port["x"] = round(port["x"] + shift, 6)
    return moved


def main():
    with open(os.path.join(EXAMPLES, "branch_line_coupler.yaml")) as f:
        coupler = yaml.safe_load(f)
    coupler["mesh"] = {"cell_mm": 0.4}
    coupler["frequencies"] = [2.9e9, CENTRE_HZ, 3.1e9]
    lengths = DESIGN_MM + 0.4 * np.arange(-2, 3)
    print("series arms   |S11| at 2.9 / 3.0 / 3.1 GHz (dB)   |S21|, |S31| at 3 GHz (dB)")
    s11_centre = []
    for length in lengths:
        result = planarmom.sweep(with_series_arms(coupler, length), folder=EXAMPLES,
                                 backend="cpu")
        db = 20 * np.log10(np.abs(result.s))
        centre = list(result.frequency_hz).index(CENTRE_HZ)
        s11_centre.append(db[centre, 0, 0])
        print(f"  {length:5.1f} mm    {db[0, 0, 0]:7.2f} {db[1, 0, 0]:7.2f} {db[2, 0, 0]:7.2f}"
              f"           {db[centre, 1, 0]:6.2f} {db[centre, 2, 0]:6.2f}")
    best = int(np.argmin(s11_centre))
    print(f"best match at 3 GHz: series arms {lengths[best]:.1f} mm, |S11| "
          f"{s11_centre[best]:.2f} dB (designed {DESIGN_MM} mm)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
