#!/usr/bin/python3
"""Reads the files write_sweep_example wrote (DIR given) through tools/read_sweep.py and h5py,
and checks every value exactly: they are binary fractions, stored as float64 and int64.
Exits 77 (CTest: skipped) when h5py is not installed for this Python."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import read_sweep  # noqa: E402

read_sweep.require_h5py()
import numpy as np  # noqa: E402


def expected(count):
    """Mirror of example_record in write_sweep_example.cpp."""
    f = np.arange(count, dtype=float)
    i = np.arange(2, dtype=float)
    s = (f[:, None, None] + 0.5 * i[None, :, None]) + 1j * (-0.25 * i[None, None, :] - 0.125)
    n = np.arange(3, dtype=float)
    currents = (f[:, None, None] + 0.25 * i[None, :, None]) + 1j * (0.0625 * n[None, None, :])
    return {
        "frequency": (f + 1.0) * 1e9,
        "s": s,
        "currents": currents,
        "iterations": 10 + np.arange(count),
        "residual": 2.0 ** -10 * (f + 1.0),
        "nnz": 2 ** 40 + np.arange(count),
        "solve_s": 1.0 + f,
    }


def check(path, count, complete):
    sweep = read_sweep.load(path)
    want = expected(count)
    failures = []

    def same(name, actual, wanted):
        if np.shape(actual) != np.shape(wanted) or not np.array_equal(actual, wanted):
            failures.append(f"{name}: got {actual!r}, expected {wanted!r}")

    same("s.dtype", sweep["s"].dtype, np.dtype(np.complex128))
    same("frequency", sweep["frequency"], want["frequency"])
    same("s", sweep["s"], want["s"])
    same("currents.dtype", sweep["currents"].dtype, np.dtype(np.complex128))
    same("currents", sweep["currents"], want["currents"])
    same("currents_kept", sweep["currents_kept"], np.ones(count, dtype=bool))
    same("iterations", sweep["solver"]["iterations"], want["iterations"])
    same("residual", sweep["solver"]["residual"], want["residual"])
    same("nnz", sweep["solver"]["nnz"], want["nnz"])
    same("solve_s", sweep["timing"]["solve_s"], want["solve_s"])
    same("port names", sweep["port_names"], ["in", "out"])
    same("planes", sweep["reference_plane_mm"], np.array([1.5, 2.5]))
    same("complete", int(sweep["attributes"]["complete"]), int(complete))
    same("config", read_sweep._text(sweep["attributes"]["config"]), "ports: [in, out]\n")
    print(read_sweep.summary(path, sweep))
    return failures


def main(directory):
    failures = check(os.path.join(directory, "complete.h5"), 3, True)
    failures += check(os.path.join(directory, "killed.h5.partial"), 2, False)
    for failure in failures:
        print("FAIL:", failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
