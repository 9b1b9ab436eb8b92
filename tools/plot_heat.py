#!/usr/bin/python3
"""The temperature field of a planarmom heat file: plot_heat.py HEAT.h5 OUT.png.

Runs under Debian's /usr/bin/python3 (python3-h5py, python3-matplotlib)."""
import sys

try:
    import h5py
    import matplotlib
except ImportError:
    sys.exit(3)  # apps/plot_script.cpp: "install h5py and matplotlib", one line

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def main(path, out):
    with h5py.File(path, "r") as f:
        u = f["u"][:]
        n = int(f.attrs["n"])
        steps = int(f.attrs["steps"])
        time = float(f.attrs["time"])
    # The interior points lie at (i+1)h, h = 1/(n+1); each pixel is the cell around one.
    h = 1.0 / (n + 1)
    fig, ax = plt.subplots(figsize=(6, 5))
    image = ax.imshow(u, origin="lower", extent=(h / 2, 1 - h / 2, h / 2, 1 - h / 2),
                      cmap="inferno", interpolation="nearest")
    fig.colorbar(image, ax=ax, label="temperature")
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.set_title(f"heat equation, n = {n}, t = {time:g} ({steps} steps)")
    fig.tight_layout()
    fig.savefig(out, dpi=120)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: plot_heat.py HEAT.h5 OUT.png")
    main(sys.argv[1], sys.argv[2])
