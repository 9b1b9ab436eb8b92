"""Two S-parameter results side by side (tools/openems_reference.py compare): planarmom's HDF5
sweep, or the reference's .npz or Touchstone file.

Per entry on and below the diagonal: the largest |d|S|| in dB where the second result's |S| is
above -10 dB and above -20 dB, the largest phase difference above -20 dB, the frequency of each
|Sii| minimum, of each transmission's null (where both results dip below -30 dB: a rat race's
isolation, whose frequency measures its ring's electrical length) and the -3 dB and -10 dB
crossings of each transmission, with the first result's shift relative to the second's.
"""
import os
import sys

import numpy as np

THRESHOLDS_DB = (-10.0, -20.0)
CROSSINGS_DB = (-3.0, -10.0)
NULL_DB = -30.0


def load(path):
    """{'frequency', 's', 'port_names', 'label'} of a result file."""
    label = os.path.basename(path)
    if path.endswith(".h5"):
        sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        import read_sweep
        read_sweep.require_h5py()
        sweep = read_sweep.load(path)
        # An adaptive sweep's S at every point of its band (the fit), not its solves alone.
        frequency, s, _ = read_sweep.every_point(sweep)
        return dict(frequency=frequency, s=s, port_names=sweep["port_names"], label=label)
    if path.endswith(".npz"):
        data = np.load(path)
        return dict(frequency=data["frequency"], s=data["s"],
                    port_names=[str(n) for n in data["port_names"]], label=label)
    import skrf
    network = skrf.Network(path)
    return dict(frequency=network.f, s=network.s,
                port_names=[str(k + 1) for k in range(network.nports)], label=label)


def known(sa, sb, i, j):
    """Whether entry (i, j) is in both results (a partial reference leaves NaN columns)."""
    return not (np.isnan(sa[:, i, j]).any() or np.isnan(sb[:, i, j]).any())


def db(s):
    return 20 * np.log10(np.maximum(np.abs(s), 1e-15))


def minimum(f, y):
    """The frequency of y's smallest value, refined by a parabola through its neighbours."""
    k = int(np.argmin(y))
    if 0 < k < len(y) - 1:
        y0, y1, y2 = y[k - 1], y[k], y[k + 1]
        curvature = y0 - 2 * y1 + y2
        if curvature > 0:
            return f[k] + 0.5 * (y0 - y2) / curvature * (f[k + 1] - f[k])
    return f[k]


def null(f, s):
    """The frequency and depth (dB) of complex s's smallest magnitude: a quadratic in f fitted to
    the complex values at the five samples round the smallest |s|, its magnitude minimised on a
    fine grid. A deep null passes near zero between samples, where a parabola through |s| in dB
    (minimum above) is far from its shape; the complex values are smooth there. None where the
    smallest |s| is at the band's end: a skirt falling to it, not a null."""
    k = int(np.argmin(np.abs(s)))
    if k in (0, len(f) - 1):
        return None
    window = slice(max(k - 2, 0), min(k + 3, len(f)))
    x = (f[window] - f[k]) / 1e9
    coefficients = np.polyfit(x, s[window], min(2, len(x) - 1))
    fine = np.linspace(x[0], x[-1], 20001)
    magnitude = np.abs(np.polyval(coefficients, fine))
    best = int(np.argmin(magnitude))
    return f[k] + fine[best] * 1e9, 20 * np.log10(max(magnitude[best], 1e-15))


def crossings(f, y, level):
    """Frequencies where y crosses level (linear interpolation), with the sense (+1 rising)."""
    above = y > level
    found = []
    for k in np.flatnonzero(above[1:] != above[:-1]):
        t = (level - y[k]) / (y[k + 1] - y[k])
        found.append((f[k] + t * (f[k + 1] - f[k]), 1 if above[k + 1] else -1))
    return found


def _shift(fa, fb):
    return f"{fa / 1e9:.4f} vs {fb / 1e9:.4f} GHz ({(fa - fb) / fb * 100:+.2f}%)"


def report(a, b, plot):
    """Prints the comparison of a against b (b the reference); returns 0."""
    f = a["frequency"]
    if len(a["port_names"]) != len(b["port_names"]):
        raise ValueError(f"{a['label']} has {len(a['port_names'])} ports, {b['label']} "
                         f"{len(b['port_names'])}")
    if f.min() < b["frequency"].min() - 1 or f.max() > b["frequency"].max() + 1:
        raise ValueError(f"{b['label']} does not cover {a['label']}'s frequencies")
    sb = np.empty_like(a["s"])
    for i in range(sb.shape[1]):
        for j in range(sb.shape[2]):
            sb[:, i, j] = (np.interp(f, b["frequency"], b["s"][:, i, j].real)
                           + 1j * np.interp(f, b["frequency"], b["s"][:, i, j].imag))
    sa = a["s"]
    names = a["port_names"]
    print(f"{a['label']} against {b['label']}: {len(f)} frequencies {f[0] / 1e9:g}-{f[-1] / 1e9:g} GHz; "
          f"thresholds on the second's |S|")
    print(f"  {'entry':<22} {'max|d|S|| >-10 dB':>18} {'>-20 dB':>9} {'max d phase >-20 dB':>20}")
    for i in range(sa.shape[1]):
        for j in range(i + 1):
            if not known(sa, sb, i, j):
                continue
            da, dbb = db(sa[:, i, j]), db(sb[:, i, j])
            cells = []
            for level in THRESHOLDS_DB:
                mask = dbb > level
                cells.append(f"{np.abs(da - dbb)[mask].max():.3f}" if mask.any() else "-")
            mask = dbb > THRESHOLDS_DB[1]
            phase = np.degrees(np.abs(np.angle(sa[:, i, j] / sb[:, i, j])))
            cells.append(f"{phase[mask].max():.2f} deg" if mask.any() else "-")
            label = f"S{i + 1}{j + 1} ({names[i]}<-{names[j]})"
            print(f"  {label:<22} {cells[0]:>18} {cells[1]:>9} {cells[2]:>20}")
    for i in range(sa.shape[1]):
        if not known(sa, sb, i, i):
            continue
        da, dbb = db(sa[:, i, i]), db(sb[:, i, i])
        print(f"  |S{i + 1}{i + 1}| minimum: {_shift(minimum(f, da), minimum(f, dbb))}; "
              f"{da.min():.2f} vs {dbb.min():.2f} dB")
    for i in range(sa.shape[1]):
        for j in range(i):
            if not known(sa, sb, i, j) or min(db(sa[:, i, j]).min(), db(sb[:, i, j]).min()) > NULL_DB:
                continue
            na, nb = null(f, sa[:, i, j]), null(f, sb[:, i, j])
            if na is None or nb is None:
                continue
            (fa, da), (fb, dbb) = na, nb
            print(f"  |S{i + 1}{j + 1}| null: {_shift(fa, fb)}; {da:.1f} vs {dbb:.1f} dB")
    for i in range(sa.shape[1]):
        for j in range(i):
            if not known(sa, sb, i, j):
                continue
            for level in CROSSINGS_DB:
                ca, cb = crossings(f, db(sa[:, i, j]), level), crossings(f, db(sb[:, i, j]), level)
                if not ca and not cb:
                    continue
                if [s for _, s in ca] != [s for _, s in cb]:
                    print(f"  |S{i + 1}{j + 1}| {level:g} dB crossings differ: "
                          f"{[round(x / 1e9, 4) for x, _ in ca]} vs {[round(x / 1e9, 4) for x, _ in cb]} GHz")
                    continue
                text = "; ".join(_shift(x, y) for (x, _), (y, _) in zip(ca, cb))
                print(f"  |S{i + 1}{j + 1}| {level:g} dB crossings: {text}")
    if plot:
        _plot(f, sa, sb, names, a["label"], b["label"], plot)
    return 0


def _plot(f, sa, sb, names, label_a, label_b, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("  no plot: matplotlib is missing (python3-matplotlib)")
        return
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 8), sharex=True,
                                      gridspec_kw={"height_ratios": [3, 1]})
    for j in range(sa.shape[2]):
        for i in range(j, sa.shape[1]):
            style = dict(color=f"C{(i * sa.shape[1] + j) % 10}")
            top.plot(f / 1e9, db(sa[:, i, j]), "-", label=f"S{i + 1}{j + 1}", **style)
            top.plot(f / 1e9, db(sb[:, i, j]), "--", **style)
            difference = db(sa[:, i, j]) - db(sb[:, i, j])
            difference[db(sb[:, i, j]) < THRESHOLDS_DB[1]] = np.nan  # not the nulls' depths
            bottom.plot(f / 1e9, difference, "-", **style)
    top.set_ylabel("|S| dB (solid: first, dashed: second)")
    top.set_title(f"{label_a} (solid) vs {label_b} (dashed)")
    top.grid(True)
    top.legend(fontsize=7, ncol=2)
    bottom.set_ylabel(f"d|S| dB (|S| > {THRESHOLDS_DB[1]:g} dB)")
    bottom.set_xlabel("frequency (GHz)")
    bottom.grid(True)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print(f"  plot: {path}")
