#!/usr/bin/env python3
"""Prints max |S_b - S_a| of two sweep files at the same frequencies (0 when bit for bit).

Usage: compare_sweeps.py A.h5 B.h5. Exit 1 when the frequencies differ or a file is missing."""
import sys

import h5py
import numpy as np


def main():
    try:
        with h5py.File(sys.argv[1], "r") as a, h5py.File(sys.argv[2], "r") as b:
            if not np.array_equal(a["frequency"][()], b["frequency"][()]):
                print("frequencies-differ")
                return 1
            sa, sb = a["s"][()], b["s"][()]
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
