#!/usr/bin/python3
"""The Touchstone file a sweep writes, read by scikit-rf (Debian's python3-scikit-rf): the same
frequencies and S as the HDF5 file to 1e-12 and the ports' reference impedance as z0.

Usage: check_skrf.py PLANARMOM WORKDIR. A sweep of a cross junction (four ports of 75 ohm, so
that S is 4 x 4 and z0 is not scikit-rf's default 50) on the cpu backend. Exit 0 when they
agree, 1 when not, 77 (skipped) when scikit-rf, h5py or numpy is missing.
"""
import os
import subprocess
import sys

CONFIG = """\
substrate: {eps_r: 3.38, height_mm: 0.508, loss_tangent: 0.0027}
metal: {pec: true}
layout:
  - {x0: 0, y0: 16.0, x1: 33.2, y1: 17.2}
  - {x0: 16.0, y0: 0, x1: 17.2, y1: 33.2}
ports:
  - {name: w, x: 0, y: 16.6, direction: "+x", feed_length_mm: 14, impedance_ohm: 75}
  - {name: e, x: 33.2, y: 16.6, direction: "-x", feed_length_mm: 14, impedance_ohm: 75}
  - {name: s, x: 16.6, y: 0, direction: "+y", feed_length_mm: 14, impedance_ohm: 75}
  - {name: n, x: 16.6, y: 33.2, direction: "-y", feed_length_mm: 14, impedance_ohm: 75}
mesh: {cell_mm: 0.4}
frequencies: [2.0e9, 3.0e9, 4.5e9]
sparsify: {rule: exact}
solver: {backend: cpu, tolerance: 1.0e-10}
"""

def main():
    try:
        import numpy as np
        import skrf
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                        "tools"))
        import read_sweep
    except ImportError as error:
        print(f"check_skrf: skipped, {error} (install python3-scikit-rf, python3-h5py)")
        return 77
    exe, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    config = os.path.join(work, "lines.yaml")
    with open(config, "w") as f:
        f.write(CONFIG)
    run = subprocess.run([exe, "-q", "sweep", config], capture_output=True, text=True)
    if run.returncode != 0:
        print(f"check_skrf: the sweep failed: {run.stderr.strip()}")
        return 1
    sweep = read_sweep.load(os.path.join(work, "lines.h5"))
    network = skrf.Network(os.path.join(work, "lines.s4p"))
    order = np.argsort(sweep["frequency"])
    failures = []
    if not np.array_equal(network.f, sweep["frequency"][order]):
        failures.append(f"frequencies {network.f} against {sweep['frequency'][order]}")
    if network.s.shape != sweep["s"].shape:
        failures.append(f"S of shape {network.s.shape} against {sweep['s'].shape}")
    else:
        error = np.max(np.abs(network.s - sweep["s"][order]))
        print(f"check_skrf: {network.nports} ports, {len(network.f)} frequencies, largest "
              f"|S_skrf - S_h5| {error:.3g}, |S31| at 3 GHz {abs(network.s[1, 2, 0]):.4f}")
        if not error <= 1e-12:
            failures.append(f"S differs by {error:.3g} (bar 1e-12)")
    if not np.all(network.z0 == 75.0):
        failures.append(f"z0 {np.unique(network.z0)} against the ports' 75 ohm")
    for failure in failures:
        print(f"check_skrf: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
