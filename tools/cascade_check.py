#!/usr/bin/python3
"""Check the two-coupler sweep against network theory: the single coupler's S, cascaded.

Usage: cascade_check.py SINGLE.h5 TWO.h5 [--plot FILE.png] [--tol-db 1] [--abs-tol 0.03]
                        [--floor-db -30] [--line-deg 360] [--f0-ghz 3] [--exact]
                        [--max-step-mhz 100]
       cascade_check.py --self-test

SINGLE.h5 is a planarmom sweep of examples/branch_line_coupler.yaml (ports in, through,
coupled, isolated), TWO.h5 one of examples/two_couplers.yaml (ports A.in, A.coupled,
A.isolated, B.through, B.coupled, B.isolated; docs/TWO_COUPLERS.md). The reference is the
cascade, by network theory, of coupler A (the single coupler's 4-port S), an ideal matched line
of the ports' reference impedance and of electrical length line_deg · f / f0 (360° at 3 GHz by
default; the layout's line is rounded to the mesh grid, 0.32° long, which --line-deg 360.32
models), and coupler B (the same S): A's port 2 to the line's port 1, the line's port 2 to B's
port 1. The three networks are put side by side as one 10-port and the two connections are
made at once: with the connected ports' incident waves a_i = C b_i (C swaps the two ports of
each connection),

    S_ext = S_ee + S_ei C (I - S_ii C)^-1 S_ie.

Every |S_ij| of the 6-port (all 36 entries) is compared with the cascade at each frequency of
TWO.h5. The bar is the issue's: within --tol-db (1 dB) where the entry is above --floor-db
(-30 dB) in either. Below that in both, dB differences say little: -45 dB against -38 dB is 7 dB
apart but both are "nothing", and such entries (isolations, matches) are the differences of
nearly equal paths, so sensitive to the small errors the comparison should not fail on (the
line's rounding and dispersion, the reference planes' de-embedding). They are compared in
absolute terms instead: the complex difference |S_two - S_cascade| must be below --abs-tol
(0.03, i.e. -30 dB: the size of an entry at the floor itself).

The single coupler's S is taken at each two-coupler frequency: exactly where the single sweep
has it (to 1e-9 relative), else interpolated linearly in real and imaginary parts between its
two neighbours, provided they are at most --max-step-mhz apart (S varies little over a few tens
of MHz here: the interpolation error is far below the tolerances). A frequency outside the
single sweep is an error; --exact makes any frequency missing from it one too.

Exit status: 0 when every entry agrees, 1 when one does not, 2 when the files do not fit
(missing file, port names, reference impedances, frequencies), 77 without numpy/h5py
(Debian's /usr/bin/python3 has them: python3-numpy, python3-h5py). --self-test checks the
cascade routine and the comparison on synthetic data and needs numpy only.
"""
import argparse
import os
import sys

try:
    import numpy as np
except ImportError as error:
    print(f"SKIP: {sys.executable} cannot import numpy ({error}); install python3-numpy",
          file=sys.stderr)
    sys.exit(77)

SKIP = 77
SINGLE_PORTS = ("in", "through", "coupled", "isolated")
TWO_PORTS = ("A.in", "A.coupled", "A.isolated", "B.through", "B.coupled", "B.isolated")


class InputError(Exception):
    """The sweep files do not fit the comparison (exit 2)."""


# --- network theory -------------------------------------------------------------------------

def line_s(theta):
    """S of ideal matched lines of electrical length theta (rad, shape (F,)): (F, 2, 2)."""
    theta = np.atleast_1d(np.asarray(theta, dtype=float))
    s = np.zeros((theta.size, 2, 2), dtype=complex)
    s[:, 0, 1] = s[:, 1, 0] = np.exp(-1j * theta)
    return s


def side_by_side(*networks):
    """Unconnected networks (each (F, n, n), one reference impedance for all) as one (F, N, N)."""
    f = networks[0].shape[0]
    n = sum(s.shape[1] for s in networks)
    out = np.zeros((f, n, n), dtype=complex)
    k = 0
    for s in networks:
        m = s.shape[1]
        out[:, k:k + m, k:k + m] = s
        k += m
    return out


def connect(s, pairs):
    """Join pairs of ports (p, q) of the network s (F, N, N): the S of the remaining ports, in
    their original order. All ports share one reference impedance, so a connection is a_p = b_q,
    a_q = b_p; with C the swap of each pair, S_ext = S_ee + S_ei C (I - S_ii C)^-1 S_ie."""
    n = s.shape[1]
    internal = [p for pair in pairs for p in pair]
    if len(set(internal)) != len(internal) or any(not 0 <= p < n for p in internal):
        raise ValueError(f"connect: bad port pairs {pairs} for a {n}-port")
    external = [p for p in range(n) if p not in internal]
    c = np.zeros((len(internal), len(internal)))
    for k in range(0, len(internal), 2):
        c[k, k + 1] = c[k + 1, k] = 1.0
    s_ee = s[:, external][:, :, external]
    s_ei = s[:, external][:, :, internal]
    s_ie = s[:, internal][:, :, external]
    s_ii = s[:, internal][:, :, internal]
    eye = np.eye(len(internal))
    return s_ee + s_ei @ c @ np.linalg.solve(eye - s_ii @ c, s_ie)


def two_couplers(s_a, s_b, theta):
    """The 6-port of coupler A (port 2) - line of theta - coupler B (port 1), ports in the order
    A.in, A.coupled, A.isolated, B.through, B.coupled, B.isolated. s_a, s_b: (F, 4, 4) in the
    port order in, through, coupled, isolated."""
    # 10-port: A 0..3, line 4..5, B 6..9; external ports left: 0, 2, 3, 7, 8, 9 (in that order)
    return connect(side_by_side(s_a, line_s(theta), s_b), [(1, 4), (5, 6)])


# --- comparison -----------------------------------------------------------------------------

def db(s):
    return 20.0 * np.log10(np.maximum(np.abs(s), 1e-300))


def compare(s_two, s_ref, tol_db=1.0, abs_tol=0.03, floor_db=-30.0):
    """Per entry: (above floor in either, |ΔdB|, |ΔS|, failed), each (F, n, n)."""
    d_two, d_ref = db(s_two), db(s_ref)
    big = np.maximum(d_two, d_ref) > floor_db
    ddb = np.abs(d_two - d_ref)
    dabs = np.abs(s_two - s_ref)
    failed = np.where(big, ddb > tol_db, dabs > abs_tol)
    return big, ddb, dabs, failed


def single_at(freq_single, s_single, freq, exact=False, max_step_hz=100e6):
    """The single coupler's S at the frequencies `freq`: exact points, else linear in re/im.
    Returns (S (F, n, n), number interpolated, widest bracketing step used in Hz)."""
    order = np.argsort(freq_single)
    fs, ss = freq_single[order], s_single[order]
    out = np.empty((len(freq),) + ss.shape[1:], dtype=complex)
    interpolated, widest = 0, 0.0
    for k, f in enumerate(freq):
        hit = np.flatnonzero(np.abs(fs - f) <= 1e-9 * f)
        if hit.size:
            out[k] = ss[hit[0]]
            continue
        if exact:
            raise InputError(f"{f / 1e9:.6g} GHz is not a frequency of the single-coupler sweep "
                             "(--exact); sweep the single coupler there or drop --exact")
        if not fs[0] <= f <= fs[-1]:
            raise InputError(f"{f / 1e9:.6g} GHz is outside the single-coupler sweep "
                             f"({fs[0] / 1e9:g}-{fs[-1] / 1e9:g} GHz): no extrapolation")
        j = int(np.searchsorted(fs, f))
        step = fs[j] - fs[j - 1]
        if step > max_step_hz:
            raise InputError(f"{f / 1e9:.6g} GHz falls between single-coupler points "
                             f"{step / 1e6:.4g} MHz apart, more than --max-step-mhz "
                             f"{max_step_hz / 1e6:g}")
        w = (f - fs[j - 1]) / step
        out[k] = (1 - w) * ss[j - 1] + w * ss[j]
        interpolated += 1
        widest = max(widest, step)
    return out, interpolated, widest


def entry_name(i, j, names):
    return f"S{i + 1}{j + 1} ({names[i]}<-{names[j]})"


def report(freq, s_two, s_ref, names, tol_db, abs_tol, floor_db):
    """The table; returns the number of failing (frequency, entry) pairs."""
    big, ddb, dabs, failed = compare(s_two, s_ref, tol_db, abs_tol, floor_db)
    print(f"{'f GHz':>7}  {'max|ΔdB|':>8}  {'worst entry (> ' + format(floor_db, 'g') + ' dB)':<34}"
          f"{'two dB':>8}{'casc dB':>9}  {'max|ΔS| small':>13}  status")
    for k, f in enumerate(freq):
        row = np.where(big[k], ddb[k], -1.0)
        i, j = np.unravel_index(np.argmax(row), row.shape)
        small = np.where(big[k], -1.0, dabs[k])
        small_max = small.max()
        status = "FAIL" if failed[k].any() else "ok"
        if failed[k].any():
            status += f" ({int(failed[k].sum())} entries)"
        print(f"{f / 1e9:7.4f}  {row[i, j]:8.3f}  {entry_name(i, j, names):<34}"
              f"{db(s_two[k, i, j]):8.2f}{db(s_ref[k, i, j]):9.2f}  "
              f"{(f'{small_max:.4f}' if small_max >= 0 else '-'):>13}  {status}")
    count = int(failed.sum())
    worst = np.where(big, ddb, -1.0)
    k, i, j = np.unravel_index(np.argmax(worst), worst.shape)
    print(f"worst above {floor_db:g} dB: {worst[k, i, j]:.3f} dB, {entry_name(i, j, names)} at "
          f"{freq[k] / 1e9:g} GHz (bar {tol_db:g} dB); worst |ΔS| below it: "
          f"{np.where(big, 0.0, dabs).max():.4f} (bar {abs_tol:g})")
    if count:
        for k, i, j in zip(*np.nonzero(failed)):
            what = (f"|ΔdB| {ddb[k, i, j]:.3f}" if big[k, i, j] else f"|ΔS| {dabs[k, i, j]:.4f}")
            print(f"  FAIL {freq[k] / 1e9:g} GHz {entry_name(i, j, names)}: two "
                  f"{db(s_two[k, i, j]):.2f} dB, cascade {db(s_ref[k, i, j]):.2f} dB, {what}")
    print("PASS: the two-coupler sweep agrees with the cascade" if count == 0 else
          f"FAIL: {count} (frequency, entry) pairs outside the bar")
    return count


def plot(path, freq, s_two, s_ref, names, tol_db, floor_db):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    big, ddb, _, _ = compare(s_two, s_ref, tol_db, 1.0, floor_db)
    ghz = freq / 1e9
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 5))
    for i in range(s_two.shape[1]):
        line, = ax1.plot(ghz, db(s_two[:, i, 0]), ".-", label=f"S{i + 1}1 {names[i]}")
        ax1.plot(ghz, db(s_ref[:, i, 0]), "x--", color=line.get_color())
    ax1.set_xlabel("frequency (GHz)")
    ax1.set_ylabel("|S| (dB)")
    ax1.set_ylim(bottom=max(-60.0, ax1.get_ylim()[0]))
    ax1.set_title("port 1 driven: two-coupler sweep (dots, solid), cascade (x, dashed)")
    ax1.grid(True)
    ax1.legend(fontsize=8)
    ax2.plot(ghz, np.where(big, ddb, 0.0).max(axis=(1, 2)), "o-",
             label=f"max |ΔdB| over entries above {floor_db:g} dB")
    ax2.axhline(tol_db, color="r", linestyle=":", label=f"bar {tol_db:g} dB")
    ax2.set_xlabel("frequency (GHz)")
    ax2.set_ylabel("|ΔdB|")
    ax2.set_ylim(0, max(1.2 * tol_db, ax2.get_ylim()[1]))
    ax2.set_title("two-coupler sweep against the cascade")
    ax2.grid(True)
    ax2.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


# --- the sweep files ------------------------------------------------------------------------

def load(path):
    """What the comparison needs of a sweep file, read directly: /frequency, /s (compound r, i),
    /ports/name and /ports/reference_impedance_ohm, and whether it is complete. Other datasets
    are not looked at, so files of older or newer layouts do. A partial file (a killed run) may
    hold /s one row longer than /frequency: only rows with a frequency count."""
    try:
        import h5py
    except ImportError as error:
        print(f"SKIP: {sys.executable} cannot import h5py ({error}); install python3-h5py",
              file=sys.stderr)
        sys.exit(SKIP)
    try:
        with h5py.File(path, "r") as f:
            frequency = np.asarray(f["frequency"][()], dtype=float)
            s = f["s"]
            if s.dtype != np.complex128:
                raise InputError(f"{path}: /s has dtype {s.dtype}, expected complex128 "
                                 "(compound r, i)")
            names = [n.decode() if isinstance(n, bytes) else str(n)
                     for n in f["ports/name"][()]]
            n = len(names)
            if s.ndim != 3 or s.shape[1:] != (n, n) or s.shape[0] < len(frequency):
                raise InputError(f"{path}: /s has shape {s.shape}, expected "
                                 f"({len(frequency)}, {n}, {n})")
            sweep = {
                "frequency": frequency,
                "s": s[:len(frequency)],
                "port_names": names,
                "reference_impedance_ohm": np.asarray(f["ports/reference_impedance_ohm"][()],
                                                      dtype=float),
                "complete": bool(f.attrs.get("complete", True)),
            }
    except (KeyError, OSError) as error:
        raise InputError(f"{path}: not a readable planarmom sweep file: {error}") from error
    if len(sweep["frequency"]) == 0:
        raise InputError(f"{path}: no frequencies")
    z = sweep["reference_impedance_ohm"]
    if not np.allclose(z, z[0]):
        raise InputError(f"{path}: the ports' reference impedances differ ({z}); the cascade "
                         "assumes one, that of the line")
    return sweep


def run(args):
    single, two = load(args.single), load(args.two)
    names = list(single["port_names"])
    missing = [n for n in SINGLE_PORTS if n not in names]
    if missing:
        raise InputError(f"{args.single}: ports {names}, expected {list(SINGLE_PORTS)}")
    order = [names.index(n) for n in SINGLE_PORTS]
    s_single = single["s"][:, order][:, :, order]
    if list(two["port_names"]) != list(TWO_PORTS):
        raise InputError(f"{args.two}: ports {list(two['port_names'])}, expected "
                         f"{list(TWO_PORTS)} in that order (examples/two_couplers.yaml)")
    z1, z2 = single["reference_impedance_ohm"][0], two["reference_impedance_ohm"][0]
    if abs(z1 - z2) > 1e-9 * z1:
        raise InputError(f"reference impedances differ: {z1:g} ohm (single), {z2:g} ohm (two)")
    order2 = np.argsort(two["frequency"])
    freq, s_two = two["frequency"][order2], two["s"][order2]
    s_a, interpolated, widest = single_at(single["frequency"], s_single, freq, args.exact,
                                          args.max_step_mhz * 1e6)
    theta = np.deg2rad(args.line_deg) * freq / (args.f0_ghz * 1e9)
    s_ref = two_couplers(s_a, s_a, theta)
    print(f"single coupler: {args.single} ({len(single['frequency'])} frequencies); "
          f"two couplers: {args.two} ({len(freq)} frequencies, "
          f"{freq[0] / 1e9:g}-{freq[-1] / 1e9:g} GHz)")
    print(f"cascade: A.through - ideal {z1:g} ohm line of {args.line_deg:g}° at "
          f"{args.f0_ghz:g} GHz - B.in; single-coupler S "
          + (f"interpolated at {interpolated} of {len(freq)} frequencies (steps up to "
             f"{widest / 1e6:.4g} MHz)" if interpolated else "at exactly these frequencies"))
    for label, sweep in (("single", single), ("two", two)):
        if not sweep["complete"]:
            print(f"note: the {label}-coupler file is a partial sweep")
    failures = report(freq, s_two, s_ref, TWO_PORTS, args.tol_db, args.abs_tol, args.floor_db)
    if args.plot:
        plot(args.plot, freq, s_two, s_ref, TWO_PORTS, args.tol_db, args.floor_db)
        print(f"wrote {args.plot}")
    return 1 if failures else 0


# --- self-test ------------------------------------------------------------------------------

def random_network(rng, f, n, matched=False, reciprocal=True):
    s = 0.3 * (rng.standard_normal((f, n, n)) + 1j * rng.standard_normal((f, n, n)))
    if reciprocal:
        s = 0.5 * (s + np.swapaxes(s, 1, 2))
    if matched:
        s[:, np.arange(n), np.arange(n)] = 0
    return s


def ideal_coupler(f):
    """The ideal 3 dB branch-line coupler, ports in, through, coupled, isolated (Pozar 7.5)."""
    s = np.array([[0, 1j, 1, 0], [1j, 0, 0, 1], [1, 0, 0, 1j], [0, 1, 1j, 0]]) * (-1 / np.sqrt(2))
    return np.broadcast_to(s, (f, 4, 4)).astype(complex)


def s_to_t(s):
    """Two-port S to the chain (T) matrix of wave amplitudes: [b1, a1] = T [a2, b2]."""
    s11, s12, s21, s22 = s[:, 0, 0], s[:, 0, 1], s[:, 1, 0], s[:, 1, 1]
    t = np.empty_like(s)
    t[:, 0, 0] = s12 - s11 * s22 / s21
    t[:, 0, 1] = s11 / s21
    t[:, 1, 0] = -s22 / s21
    t[:, 1, 1] = 1 / s21
    return t


def t_to_s(t):
    t11, t12, t21, t22 = t[:, 0, 0], t[:, 0, 1], t[:, 1, 0], t[:, 1, 1]
    s = np.empty_like(t)
    s[:, 0, 0] = t12 / t22
    s[:, 0, 1] = t11 - t12 * t21 / t22
    s[:, 1, 0] = 1 / t22
    s[:, 1, 1] = -t21 / t22
    return s


def self_test():
    rng = np.random.default_rng(20240601)
    checks = []

    def check(name, error, tol=1e-12):
        ok = error <= tol
        checks.append(ok)
        print(f"  {'ok  ' if ok else 'FAIL'} {name}: error {error:.2e} (tolerance {tol:.0e})")

    f = 7
    t1, t2 = rng.uniform(-10, 10, f), rng.uniform(-10, 10, f)
    joined = connect(side_by_side(line_s(t1), line_s(t2)), [(1, 2)])
    check("line θ1 + line θ2 = line θ1+θ2", np.abs(joined - line_s(t1 + t2)).max())

    theta = rng.uniform(-10, 10, f)
    tt = np.exp(-1j * theta)
    for matched in (True, False):
        s = random_network(rng, f, 4, matched=matched)
        for k in range(4):
            # the line's port 1 on port k; its port 2 (5th of the 6) takes port k's place, last
            got = connect(side_by_side(s, line_s(theta)), [(k, 4)])
            order = [p for p in range(4) if p != k] + [k]
            want = s[:, order][:, :, order].copy()
            want[:, 3, :3] *= tt[:, None]
            want[:, :3, 3] *= tt[:, None]
            want[:, 3, 3] *= tt ** 2
            check(f"{'matched' if matched else 'unmatched'} 4-port, line on port {k + 1}: "
                  "only that port's row/column rotate", np.abs(got - want).max())

    a, b = random_network(rng, f, 2, reciprocal=False), random_network(rng, f, 2, reciprocal=False)
    got = connect(side_by_side(a, b), [(1, 2)])
    check("two 2-ports: connect() = chain-matrix product", np.abs(
        got - t_to_s(s_to_t(a) @ s_to_t(b))).max(), 1e-10)

    s = random_network(rng, f, 5)
    got = connect(s, [(1, 3)])
    check("one network's own two ports joined: stays reciprocal",
          np.abs(got - np.swapaxes(got, 1, 2)).max())

    ideal = ideal_coupler(f)
    casc = two_couplers(ideal, ideal, theta)
    check("ideal couplers + line: lossless (S^H S = I)",
          np.abs(np.conj(np.swapaxes(casc, 1, 2)) @ casc - np.eye(6)).max())
    check("ideal couplers + line: reciprocal", np.abs(casc - np.swapaxes(casc, 1, 2)).max())
    # port 1 drives: A.coupled gets S31 = -1/√2; B.through S21·T·S21, B.coupled S31·T·S21
    want = np.zeros((f, 6), dtype=complex)
    want[:, 1] = -1 / np.sqrt(2)
    want[:, 3] = (-1j / np.sqrt(2)) ** 2 * tt
    want[:, 4] = (-1 / np.sqrt(2)) * (-1j / np.sqrt(2)) * tt
    check("ideal couplers + line: port 1 column (-3 dB A.coupled, -6 dB B.through, B.coupled)",
          np.abs(casc[:, :, 0] - want).max())
    at3 = two_couplers(ideal[:1], ideal[:1], np.deg2rad([360.0]))
    check("ideal, 360°: |S41| = |S51| = -6.02 dB", np.abs(
        db(at3[0, [3, 4], 0]) - 20 * np.log10(0.5)).max())

    s_ref = two_couplers(random_network(rng, f, 4), random_network(rng, f, 4), theta)
    _, _, _, failed = compare(s_ref, s_ref)
    check("compare: identical data pass", float(failed.sum()), 0)
    bumped = s_ref.copy()
    k, i, j = 2, 0, 3
    bumped[k, i, j] = s_ref[k, i, j] * 10 ** (1.5 / 20)
    bumped[:, 5, 5] = 0.01                     # two tiny entries, 0.02 apart: fine
    ref2 = s_ref.copy()
    ref2[:, 5, 5] = -0.01
    big, _, _, failed = compare(bumped, ref2)
    check("compare: a 1.5 dB error above -30 dB fails, only it", float(
        abs(failed.sum() - 1) + (not failed[k, i, j]) + big[:, 5, 5].any()), 0)
    ref2[:, 5, 5] = -0.025                     # 0.035 apart: fails in absolute terms
    _, _, _, failed = compare(bumped, ref2)
    check("compare: entries below -30 dB fail only beyond |ΔS| 0.03",
          float(abs(failed[:, 5, 5].sum() - f)), 0)

    fs = np.linspace(2e9, 4e9, 101)
    ss = random_network(rng, 101, 2)
    got, n, _ = single_at(fs, ss, np.array([2.5e9, 3.0e9]))
    check("frequencies: exact points taken as they are", np.abs(got - ss[[25, 50]]).max()
          + n, 0)
    got, n, step = single_at(fs, ss, np.array([2.55e9]))
    check("frequencies: between points, linear in re/im",
          np.abs(got[0] - (0.5 * ss[27] + 0.5 * ss[28])).max() + abs(n - 1)
          + abs(step - 20e6) / 1e6, 1e-9)
    refused = 0
    for freq, exact in (([4.1e9], False), ([2.55e9], True)):
        try:
            single_at(fs, ss, np.array(freq), exact=exact)
        except InputError:
            refused += 1
    check("frequencies: outside the sweep, or between points with --exact: refused",
          float(2 - refused), 0)

    print(f"self-test: {sum(checks)} of {len(checks)} checks passed")
    return 0 if all(checks) else 1


def main(argv):
    parser = argparse.ArgumentParser(
        description="Compare the two-coupler sweep with the cascade of the single coupler's S "
                    "and an ideal line (docs/TWO_COUPLERS.md).")
    parser.add_argument("single", nargs="?", help="sweep HDF5 of examples/branch_line_coupler.yaml")
    parser.add_argument("two", nargs="?", help="sweep HDF5 of examples/two_couplers.yaml")
    parser.add_argument("--self-test", action="store_true",
                        help="check the cascade and comparison on synthetic data, then exit")
    parser.add_argument("--plot", metavar="PNG", help="write |S_i1| and |ΔdB| over frequency")
    parser.add_argument("--tol-db", type=float, default=1.0, help="bar above the floor (dB)")
    parser.add_argument("--abs-tol", type=float, default=0.03,
                        help="bar on |S_two - S_cascade| below the floor (linear)")
    parser.add_argument("--floor-db", type=float, default=-30.0,
                        help="entries below this in both are compared in absolute terms")
    parser.add_argument("--line-deg", type=float, default=360.0,
                        help="the line's electrical length at f0, degrees")
    parser.add_argument("--f0-ghz", type=float, default=3.0)
    parser.add_argument("--exact", action="store_true",
                        help="require every two-coupler frequency in the single sweep")
    parser.add_argument("--max-step-mhz", type=float, default=100.0,
                        help="widest single-sweep step to interpolate across")
    args = parser.parse_args(argv[1:])
    if args.self_test:
        return self_test()
    if not args.single or not args.two:
        parser.error("give SINGLE.h5 and TWO.h5, or --self-test")
    try:
        return run(args)
    except InputError as error:
        print(f"cascade_check: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
