#!/usr/bin/python3
"""|J| on the meshed layout from a current picture's CSV (planarmom sweep with `output:
{currents: [Hz, ...]}` writes STEM_J_<GHz>GHz_<port>.csv): plot_currents.py PICTURE.csv OUT.png.

Runs under Debian's /usr/bin/python3 (python3-numpy, python3-matplotlib)."""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np


def main(path, out):
    with open(path) as f:
        title = f.readline().lstrip("# ").strip()
    x, y, j = np.loadtxt(path, delimiter=",", skiprows=2, ndmin=2).T

    def step(v):  # the cell's side along one axis: oblong cells have two
        u = np.unique(v)
        return np.min(np.diff(u)) if len(u) > 1 else 1.0

    dx, dy = step(x), step(y)
    i = np.rint((x - x.min()) / dx).astype(int)
    k = np.rint((y - y.min()) / dy).astype(int)
    grid = np.full((k.max() + 1, i.max() + 1), np.nan)
    grid[k, i] = j
    extent = (x.min() - dx / 2, x.max() + dx / 2, y.min() - dy / 2, y.max() + dy / 2)
    width, height = extent[1] - extent[0], extent[3] - extent[2]
    fig, ax = plt.subplots(figsize=(10, 10 * height / width + 1.2))
    image = ax.imshow(grid, origin="lower", extent=extent, cmap="viridis", vmin=0,
                      interpolation="nearest")
    fig.colorbar(image, ax=ax, label="|J| (A/m, 1 V gap)", shrink=0.8)
    ax.set_xlabel("x (mm)")
    ax.set_ylabel("y (mm)")
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: plot_currents.py PICTURE.csv OUT.png")
    main(sys.argv[1], sys.argv[2])
