#!/usr/bin/python3
"""S over frequency from a planarmom sweep file, port 1 driven: |S_i1| in dB, the phase of the
transmissions S_i1 (i > 1) and the Smith chart of S11. plot_sweep.py SWEEP.h5 OUT.png.

Every solved frequency is marked with a dot; an adaptive sweep's fitted frequencies (/fit) are the
line between them.

Runs under Debian's /usr/bin/python3 (python3-h5py, python3-matplotlib)."""
import sys

try:
    import h5py
    import matplotlib
except ImportError:
    sys.exit(3)  # apps/plot_script.cpp: "install h5py and matplotlib", one line

matplotlib.use("Agg")
import matplotlib.patches as patches
import matplotlib.pyplot as plt
import numpy as np

# The Smith chart's grid: circles of constant normalised resistance r and arcs of constant
# reactance x, the reflection coefficient Γ = (z − 1)/(z + 1) of z = r + jx.
SMITH_R = (0.0, 0.2, 0.5, 1.0, 2.0, 5.0)
SMITH_X = (0.2, 0.5, 1.0, 2.0, 5.0)


def smith_axes(ax):
    ax.set_aspect("equal")
    ax.set_xlim(-1.05, 1.05)
    ax.set_ylim(-1.05, 1.05)
    ax.axis("off")
    disk = patches.Circle((0, 0), 1, transform=ax.transData, fill=False, color="0.3", lw=1)
    ax.add_patch(disk)
    for r in SMITH_R[1:]:
        ax.add_patch(patches.Circle((r / (1 + r), 0), 1 / (1 + r), fill=False, color="0.8", lw=0.6))
        ax.text(r / (1 + r) - 1 / (1 + r), 0.02, f"{r:g}", fontsize=6, color="0.5")
    for x in SMITH_X:
        for sign in (1, -1):
            arc = patches.Circle((1, sign / x), 1 / x, fill=False, color="0.8", lw=0.6)
            arc.set_clip_path(disk)
            ax.add_patch(arc)
    ax.plot([-1, 1], [0, 0], color="0.8", lw=0.6)


def main(path, out):
    with h5py.File(path, "r") as f:
        solved_freq = f["frequency"][:] * 1e-9
        solved_s = f["s"][:]
        names = [n.decode() if isinstance(n, bytes) else n for n in f["ports/name"][:]]
        fitted = "fit" in f
        freq, s = (f["fit/frequency"][:] * 1e-9, f["fit/s"][:]) if fitted else (solved_freq, solved_s)
    order = np.argsort(freq)
    freq, s = freq[order], s[order]
    mark = np.argsort(solved_freq)
    solved_freq, solved_s = solved_freq[mark], solved_s[mark]
    ports = s.shape[1]
    fig = plt.figure(figsize=(12, 6.5))
    grid = fig.add_gridspec(2, 2, width_ratios=(1.35, 1))
    db, phase, smith = fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[1, 0]), fig.add_subplot(grid[:, 1])
    for i in range(ports):
        label = f"S{i + 1}1 ({names[i]})"
        db.plot(freq, 20 * np.log10(np.abs(s[:, i, 0]) + 1e-300), color=f"C{i}", label=label)
        db.plot(solved_freq, 20 * np.log10(np.abs(solved_s[:, i, 0]) + 1e-300), ".",
                color=f"C{i}", ms=4)
        if i > 0:
            degrees = np.degrees(np.angle(s[:, i, 0]))
            # No line across the ±180° wrap: a gap where the phase jumps by more than 180°.
            degrees[1:][np.abs(np.diff(degrees)) > 180] = np.nan
            phase.plot(freq, degrees, color=f"C{i}", label=label)
            # The dots keep a sweep of a few points, whose phase wraps between each, visible.
            phase.plot(solved_freq, np.degrees(np.angle(solved_s[:, i, 0])), ".", color=f"C{i}",
                       ms=4)
    db.set_ylabel("|S| (dB)")
    db.set_ylim(bottom=max(-60.0, db.get_ylim()[0]))
    phase.set_ylabel("phase (degrees)")
    phase.set_ylim(-180, 180)
    phase.set_yticks(range(-180, 181, 90))
    for ax in (db, phase):
        ax.set_xlabel("frequency (GHz)")
        ax.grid(True)
        ax.legend(fontsize=8)
    smith_axes(smith)
    smith.plot(s[:, 0, 0].real, s[:, 0, 0].imag, color="C0", lw=1.5)
    for k, mark in ((0, "o"), (-1, "s")):
        smith.plot(s[k, 0, 0].real, s[k, 0, 0].imag, mark, color="C0",
                   label=f"{freq[k]:.3g} GHz")
    smith.legend(fontsize=8, loc="lower left")
    smith.set_title(f"S11 ({names[0]}) on the Smith chart", fontsize=10)
    how = (f"{len(solved_freq)} of {len(freq)} frequencies solved (dots), the others fitted"
           if fitted else "port 1 driven")
    fig.suptitle(f"{path}: {how}", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: plot_sweep.py SWEEP.h5 OUT.png")
    main(sys.argv[1], sys.argv[2])
