#!/usr/bin/python3
"""|S_ij| in dB over frequency from a planarmom sweep file: plot_sweep.py SWEEP.h5 OUT.png.

Runs under Debian's /usr/bin/python3 (python3-h5py, python3-matplotlib)."""
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np


def main(path, out):
    with h5py.File(path, "r") as f:
        freq = f["frequency"][:] * 1e-9
        s = f["s"][:]
        names = [n.decode() if isinstance(n, bytes) else n for n in f["ports/name"][:]]
    order = np.argsort(freq)
    fig, ax = plt.subplots(figsize=(8, 5))
    ports = s.shape[1]
    for i in range(ports):
        ax.plot(freq[order], 20 * np.log10(np.abs(s[order, i, 0]) + 1e-300),
                label=f"S{i + 1}1 ({names[i]})")
    ax.set_xlabel("frequency (GHz)")
    ax.set_ylabel("|S| (dB)")
    ax.set_ylim(bottom=max(-60.0, ax.get_ylim()[0]))
    ax.grid(True)
    ax.legend()
    ax.set_title(f"{path}: port 1 driven")
    fig.tight_layout()
    fig.savefig(out, dpi=120)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: plot_sweep.py SWEEP.h5 OUT.png")
    main(sys.argv[1], sys.argv[2])
