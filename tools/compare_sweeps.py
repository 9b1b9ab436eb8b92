#!/usr/bin/env python3
"""Prints max |S_b - S_a| of two sweep files at the same frequencies (0 when bit for bit); an
adaptive sweep's S at every frequency is its /fit group's.

Usage: compare_sweeps.py A.h5 B.h5. Exit 1 when the frequencies differ or a file is missing."""
import sys

import h5py
import numpy as np


def every_frequency(f):
    """The frequencies and S of every point of the sweep: /fit's where there is one."""
    group = f["fit"] if "fit" in f else f
    return group["frequency"][()], group["s"][()]


def main():
    try:
        with h5py.File(sys.argv[1], "r") as a, h5py.File(sys.argv[2], "r") as b:
            (fa, sa), (fb, sb) = every_frequency(a), every_frequency(b)
            if not np.array_equal(fa, fb):
                print("frequencies-differ")
                return 1
    except OSError as e:
        print("missing")
        print(e, file=sys.stderr)
        return 1
    sa = sa["r"] + 1j * sa["i"] if sa.dtype.names else sa
    sb = sb["r"] + 1j * sb["i"] if sb.dtype.names else sb
    print("%.2e" % np.abs(sb - sa).max())
    return 0


if __name__ == "__main__":
    sys.exit(main())
