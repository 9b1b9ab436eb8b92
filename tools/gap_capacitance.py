#!/usr/bin/python3
"""A microstrip series gap's π model from planarmom sweep files, beside a published closed form.

Usage: gap_capacitance.py FILE.h5 [FILE.h5 ...]
       gap_capacitance.py --self-test

Each file is a sweep of a symmetric gap: a layout of two rectangles of one width W in y with a
gap s in x between them, two ports whose reference planes lie at the gap's faces (examples/
gap_*.yaml). From S (to the ports' reference impedances) the admittance matrix
Y = √y (I − S)(I + S)⁻¹ √y, y = 1/Zref, gives the π model
    Y11 = jω(Cp1 + Cs) + Gp1 + Gs,   Y21 = −jωCs − Gs,
so Cs = −Im Y21/ω, Cp = Im(Y11 + Y21)/ω, and the conductances Gs = −Re Y21 (series) and
Gp = Re(Y11 + Y21) (shunt: what the gap radiates and launches into the slab). Beside them the
closed form of Kirschning, Jansen and Koster (1983) as the Qucs technical documentation
("Microstrip gap", "Microstrip open") writes it, with the open end's capacitance from its Δl on
the Hammerstad-Jensen static line, and the per cent difference. Its stated range
(0.1 <= W/h <= 3, 6 <= εr <= 13, s/h >= 0.2, 0.2-18 GHz) is checked and a point outside it
flagged. Files of one geometry at several cell sizes are grouped, finest last, with the change
of the means from one cell to the next (docs/VALIDATION.md, "Disconnected metal: a series
gap's capacitances").

--self-test turns known π networks (unequal capacitances and conductances, unequal reference
impedances) into S and checks that the extraction gives them back.

Exit status: 0 when every file was read (or the self-test passed), 1 when one is not a
two-rectangle gap sweep (or the self-test failed), 77 when h5py, numpy or PyYAML is missing.
"""
import math
import sys

import read_sweep  # this folder's reader of sweep files

read_sweep.require_h5py()  # exits 77, saying why, without h5py or numpy
import numpy as np  # noqa: E402 (present once h5py is)

yaml = read_sweep.require_yaml()  # exits 77, saying why, without PyYAML

C0 = 299_792_458.0          # m/s
ZF0 = 376.730_313_668       # Ω, the free-space wave impedance
KJK_RANGE = {"W/h": (0.1, 3.0), "eps_r": (6.0, 13.0), "s/h": (0.2, math.inf),
             "f_GHz": (0.2, 18.0)}


class GapError(Exception):
    """The sweep is not of a symmetric two-rectangle gap; the message says why."""


def hammerstad_jensen(u, eps_r):
    """Static εeff and Z0 (Ω) of a zero-thickness strip, u = W/h (Hammerstad & Jensen 1980)."""
    a = (1 + math.log((u**4 + (u / 52)**2) / (u**4 + 0.432)) / 49
         + math.log(1 + (u / 18.1)**3) / 18.7)
    b = 0.564 * ((eps_r - 0.9) / (eps_r + 3))**0.053
    eps_eff = (eps_r + 1) / 2 + (eps_r - 1) / 2 * (1 + 10 / u)**(-a * b)
    f_u = 6 + (2 * math.pi - 6) * math.exp(-(30.666 / u)**0.7528)
    z_air = ZF0 / (2 * math.pi) * math.log(f_u / u + math.sqrt(1 + (2 / u)**2))
    return eps_eff, z_air / math.sqrt(eps_eff)


def open_end_capacitance(w, h, eps_r):
    """C_end (F) of an open end: Kirschning-Jansen-Koster's Δl times C' = √εeff/(c0 Z0)."""
    u = w / h
    eps_eff, z0 = hammerstad_jensen(u, eps_r)
    e = eps_eff**0.81
    q1 = 0.434907 * (e + 0.26) / (e - 0.189) * (u**0.8544 + 0.236) / (u**0.8544 + 0.87)
    q2 = 1 + u**0.371 / (2.358 * eps_r + 1)
    q3 = 1 + 0.5274 / eps_eff**0.9236 * math.atan(0.084 * u**(1.9413 / q2))
    q4 = 1 + 0.0377 * (6 - 5 * math.exp(0.036 * (1 - eps_r))) * math.atan(0.067 * u**1.456)
    q5 = 1 - 0.218 * math.exp(-7.5 * u)
    delta_l = h * q1 * q3 * q5 / q4
    return math.sqrt(eps_eff) / (C0 * z0) * delta_l


def kjk_gap(w, h, s, eps_r):
    """(Cs, Cp) in F of a symmetric gap (W1 = W2 = w), Kirschning-Jansen-Koster; lengths in m."""
    u, g = w / h, s / h
    q5 = 1.23                                   # 1.23 / (1 + 0.12 (W2/W1 − 1)^0.9), W2 = W1
    q1 = 0.04598 * (0.03 + u**q5) * (0.272 + 0.07 * eps_r)
    q2 = 0.107 * (u + 9) * g**3.23 + 2.09 * g**1.05 * (1.5 + 0.3 * u) / (1 + 0.6 * u)
    q3 = math.exp(-0.5978) - 0.55                # exp(−0.5978 (W2/W1)^1.35) − 0.55
    width_term = 1 + 4.19 * (1 - math.exp(-0.785 * math.sqrt(h / w)))   # W2/W1 = 1
    cs_pf = 500 * h * math.exp(-1.86 * g) * q1 * width_term
    cp = open_end_capacitance(w, h, eps_r) * (q2 + q3) / (q2 + 1)
    return cs_pf * 1e-12, cp


def outside_range(w, h, s, eps_r, f_ghz):
    """The KJK range's quantities this gap lies outside of, as 'name value' strings."""
    values = {"W/h": w / h, "eps_r": eps_r, "s/h": s / h}
    out = [f"{name} {value:.3g}" for name, value in values.items()
           if not KJK_RANGE[name][0] <= value <= KJK_RANGE[name][1]]
    low, high = KJK_RANGE["f_GHz"]
    out += [f"f {f:g} GHz" for f in f_ghz if not low <= f <= high]
    return out


def geometry(config_text):
    """(eps_r, h, W, s, cell) in mm from the sweep's config: two rectangles of one width."""
    config = yaml.safe_load(config_text)
    layout = config.get("layout")
    if not isinstance(layout, list) or len(layout) != 2 or not all(
            isinstance(r, dict) and {"x0", "y0", "x1", "y1"} <= r.keys() for r in layout):
        raise GapError("the layout is not two rectangles {x0, y0, x1, y1}")
    left, right = sorted(layout, key=lambda r: r["x0"])
    if (left["y0"], left["y1"]) != (right["y0"], right["y1"]):
        raise GapError("the two rectangles do not span the same y (a symmetric gap has one width)")
    s = right["x0"] - left["x1"]
    if s <= 0:
        raise GapError("the rectangles touch or overlap in x: no gap between them")
    cell = config["mesh"]["cell_mm"]
    cell = float(cell) if isinstance(cell, (int, float)) else str(cell)  # [dx, dy] or auto
    return (float(config["substrate"]["eps_r"]), float(config["substrate"]["height_mm"]),
            float(left["y1"] - left["y0"]), float(s), cell)


def pi_model(s_matrix, z_ref, frequency):
    """Per frequency (Cs, Cp1, Cp2, Gs, Gp1, Gp2) in F and S from S [F, 2, 2]."""
    root = np.diag(1 / np.sqrt(z_ref))
    eye = np.eye(2)
    rows = []
    for f, s in zip(frequency, s_matrix):
        y = root @ (eye - s) @ np.linalg.inv(eye + s) @ root
        omega = 2 * math.pi * f
        rows.append((-y[1, 0].imag / omega, (y[0, 0] + y[1, 0]).imag / omega,
                     (y[1, 1] + y[0, 1]).imag / omega, -y[1, 0].real,
                     (y[0, 0] + y[1, 0]).real, (y[1, 1] + y[0, 1]).real))
    return np.array(rows)


def s_of_pi(cs, cp1, cp2, gs, gp1, gp2, z_ref, frequency):
    """S [F, 2, 2] of a π network to the reference impedances z_ref: the inverse of pi_model."""
    root = np.diag(np.sqrt(z_ref))
    eye = np.eye(2)
    out = []
    for f in frequency:
        jw = 2j * math.pi * f
        series = jw * cs + gs
        y = np.array([[jw * cp1 + gp1 + series, -series], [-series, jw * cp2 + gp2 + series]])
        yn = root @ y @ root
        out.append((eye - yn) @ np.linalg.inv(eye + yn))
    return np.array(out)


def self_test():
    """The extraction on known π networks; 0 when it gives them back to 1e-9."""
    frequency = np.array([1e9, 3e9, 10e9])
    cases = [((22.7e-15, 8.3e-15, 8.3e-15, 5e-6, 2e-6, 2e-6), np.array([50.0, 50.0])),
             ((91e-15, 20e-15, 35e-15, 8e-5, 3e-5, 1e-6), np.array([50.0, 75.0]))]
    worst = 0.0
    for values, z_ref in cases:
        got = pi_model(s_of_pi(*values, z_ref, frequency), z_ref, frequency)
        for row in got:
            worst = max(worst, max(abs(g - v) / max(abs(v), 1e-30) for g, v in zip(row, values)))
    print(f"self-test: pi model recovered to {worst:.2e} (bar 1e-9)")
    return 0 if worst < 1e-9 else 1


def percent(value, reference):
    return 100 * (value - reference) / reference


def report(path):
    """Print one file's table; return (geometry key, cell, mean Cs, mean Cp) for the grouping."""
    sweep = read_sweep.load(path)
    if len(sweep["port_names"]) != 2:
        raise GapError(f"{len(sweep['port_names'])} ports, a gap sweep has 2")
    eps_r, h, w, s, cell = geometry(read_sweep._text(sweep["attributes"]["config"]))
    frequency = sweep["frequency"]
    model = pi_model(sweep["s"], sweep["reference_impedance_ohm"], frequency)
    cs_kjk, cp_kjk = kjk_gap(w * 1e-3, h * 1e-3, s * 1e-3, eps_r)
    print(f"{path}: eps_r {eps_r:g}, h {h:g} mm, W {w:g} mm, gap {s:g} mm, cell {cell} mm; "
          f"reference planes {', '.join(f'{p:g}' for p in sweep['reference_plane_mm'])} mm")
    outside = outside_range(w, h, s, eps_r, frequency / 1e9)
    if outside:
        print(f"  outside Kirschning-Jansen-Koster's stated range: {', '.join(outside)}")
    print(f"  {'f GHz':>6} {'Cs fF':>8} {'KJK':>7} {'diff':>7} {'Cp1 fF':>8} {'Cp2 fF':>8} "
          f"{'KJK':>7} {'diff':>7} {'Gs mS':>8} {'Gp1 mS':>8} {'Gp2 mS':>8}")
    for f, (cs, cp1, cp2, gs, gp1, gp2) in zip(frequency, model):
        cp = (cp1 + cp2) / 2
        print(f"  {f / 1e9:6.3g} {cs * 1e15:8.3f} {cs_kjk * 1e15:7.3f} "
              f"{percent(cs, cs_kjk):+6.1f}% {cp1 * 1e15:8.3f} {cp2 * 1e15:8.3f} "
              f"{cp_kjk * 1e15:7.3f} {percent(cp, cp_kjk):+6.1f}% {gs * 1e3:8.4f} "
              f"{gp1 * 1e3:8.4f} {gp2 * 1e3:8.4f}")
    mean_cs = float(np.mean(model[:, 0]))
    mean_cp = float(np.mean(model[:, 1:3]))
    return (eps_r, h, w, s), cell, mean_cs, mean_cp, cs_kjk, cp_kjk


def convergence(results):
    """Per geometry swept at several cells: the band's mean Cs and Cp per cell, coarse to fine."""
    groups = {}
    for key, cell, cs, cp, cs_kjk, cp_kjk in results:
        groups.setdefault(key, []).append((cell, cs, cp, cs_kjk, cp_kjk))
    for (eps_r, h, w, s), rows in groups.items():
        if len(rows) < 2:
            continue
        rows.sort(key=lambda row: -row[0] if isinstance(row[0], float) else 0)
        print(f"eps_r {eps_r:g}, h {h:g} mm, W {w:g} mm, gap {s:g} mm: band means by cell")
        previous = None
        for cell, cs, cp, cs_kjk, cp_kjk in rows:
            step = "" if previous is None else (f"; change {percent(cs, previous[0]):+.2f}% Cs, "
                                                f"{percent(cp, previous[1]):+.2f}% Cp")
            print(f"  cell {cell} mm: Cs {cs * 1e15:.3f} fF ({percent(cs, cs_kjk):+.1f}% of KJK), "
                  f"Cp {cp * 1e15:.3f} fF ({percent(cp, cp_kjk):+.1f}% of KJK){step}")
            previous = (cs, cp)


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 1
    if argv[1:] == ["--self-test"]:
        return self_test()
    status, results = 0, []
    for path in argv[1:]:
        try:
            results.append(report(path))
        except (GapError, read_sweep.LayoutError, KeyError, OSError) as error:
            print(f"{path}: not a gap sweep this tool reads: {error}", file=sys.stderr)
            status = 1
    convergence(results)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
