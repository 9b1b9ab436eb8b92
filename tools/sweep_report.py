#!/usr/bin/python3
"""Report on planarmom sweep files: per-frequency S, checks and stage totals; differences.

Usage:
  sweep_report.py SWEEP.h5                 table per frequency, then the summary
  sweep_report.py SWEEP.h5 --compare REF.h5 [--floor-db -30]
                                           the largest |S_ij| change in dB between the two
                                           runs over their common frequencies (e.g. a refined
                                           mesh, or another density, against a reference);
                                           then, as tools/cascade_check.py judges, the largest
                                           dB change of the entries above the floor in either
                                           run and the largest |S - S_ref| of those below it
                                           in both (a -39 dB null moving to -38.7 dB is 0.3 dB
                                           but 0.0004 in S)

An adaptive sweep's table lists its solves; its summary and --compare take every point (/fit).
The summary gives what the issue's coupler bars ask: |S - S^T| and the largest singular value
of S at every frequency, the frequency of minimum |S11| and S21, S31, S41 and the phase of
S21 over S31 there, the largest solution error against the dense solve (when the sweep ran with
the dense check) and the seconds each stage took over the whole sweep.
Exit status 77 when h5py/numpy are missing (as read_sweep.py).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import read_sweep  # noqa: E402

STAGES = ("greens_s", "fill_s", "sparsify_s", "solve_s", "deembed_s")


def db(value):
    import numpy as np
    return 20 * np.log10(np.maximum(np.abs(value), 1e-300))


def report(path):
    import numpy as np
    sweep = read_sweep.load(path)
    f, s = sweep["frequency"], sweep["s"]
    solver, timing = sweep["solver"], sweep["timing"]
    ports = s.shape[1]
    print(f"{path}: {len(f)} frequencies, {ports} ports, backend {sweep['attributes']['backend']}")
    print("f GHz  " + " ".join(f"S{i + 1}1 dB" for i in range(ports)) +
          "  |S-S^T|   sigma_max  dense_err  iters  solve s")
    recip = np.array([np.abs(m - m.T).max() for m in s])
    sigma = np.array([np.linalg.svd(m, compute_uv=False)[0] for m in s])
    for k in range(len(f)):
        print(f"{f[k] * 1e-9:6.3f} " + " ".join(f"{v:7.2f}" for v in db(s[k, :, 0])) +
              f"  {recip[k]:.1e}   {sigma[k]:.6f}  {solver['dense_error'][k]:9.3g}"
              f"  {int(solver['iterations'][k]):5d}  {timing['solve_s'][k]:.3f}")
    f, s, solved = read_sweep.every_point(sweep)
    if not solved.all():
        print(f"adaptive: {int(solved.sum())} of {len(f)} points solved; the summary takes every point")
        recip = np.array([np.abs(m - m.T).max() for m in s])
        sigma = np.array([np.linalg.svd(m, compute_uv=False)[0] for m in s])
    print(f"max |S - S^T| {recip.max():.2e}; max sigma_max(S) {sigma.max():.6f}")
    if ports == 4:
        k = int(np.argmin(np.abs(s[:, 0, 0])))
        m = s[k]
        phase = np.degrees(np.angle(m[1, 0] / m[2, 0]))
        print(f"|S11| minimum at {f[k] * 1e-9:.3f} GHz: S11 {db(m[0, 0]):.1f}, S21 {db(m[1, 0]):.2f}, "
              f"S31 {db(m[2, 0]):.2f}, S41 {db(m[3, 0]):.1f} dB, angle S21 - angle S31 {phase:.1f} deg")
    errors = solver["dense_error"]
    if np.isfinite(errors).any():
        print(f"solution error vs dense: max {np.nanmax(errors):.3g}, median {np.nanmedian(errors):.3g}")
    totals = {stage: float(np.sum(timing[stage])) for stage in STAGES}
    print("stage totals (s): " + ", ".join(f"{k[:-2]} {v:.1f}" for k, v in totals.items()) +
          f"; all {sum(totals.values()):.1f}; iterations mean {np.mean(solver['iterations']):.0f}")


def compare(path, reference, floor_db):
    import numpy as np
    (fa, a_s, _), (fb, b_s, _) = (read_sweep.every_point(read_sweep.load(p))
                                  for p in (path, reference))
    a, b = {"frequency": fa, "s": a_s}, {"frequency": fb, "s": b_s}
    common = np.intersect1d(a["frequency"], b["frequency"])
    if len(common) == 0 or a["s"].shape[1:] != b["s"].shape[1:]:
        print("no common frequencies or different port counts", file=sys.stderr)
        return 2
    ia = np.searchsorted(a["frequency"], common)
    ib = np.searchsorted(b["frequency"], common)
    diff = np.abs(db(a["s"][ia]) - db(b["s"][ib]))
    ports = diff.shape[1]
    print(f"{path} against {reference}: {len(common)} common frequencies")
    for i in range(ports):
        k = int(np.argmax(diff[:, i, 0]))
        print(f"  S{i + 1}1: max |change| {diff[k, i, 0]:.3f} dB at {common[k] * 1e-9:.3f} GHz "
              f"({db(b['s'][ib[k], i, 0]):.2f} -> {db(a['s'][ia[k], i, 0]):.2f} dB)")
    worst = np.unravel_index(np.argmax(diff), diff.shape)
    print(f"  largest over all S_ij: {diff[worst]:.3f} dB (S{worst[1] + 1}{worst[2] + 1} at "
          f"{common[worst[0]] * 1e-9:.3f} GHz)")
    sa, sb = a["s"][ia], b["s"][ib]
    above = np.maximum(db(sa), db(sb)) > floor_db
    if above.any():
        k = np.unravel_index(np.argmax(np.where(above, diff, -1.0)), diff.shape)
        print(f"  above {floor_db:g} dB: largest change {diff[k]:.3f} dB (S{k[1] + 1}{k[2] + 1} "
              f"at {common[k[0]] * 1e-9:.3f} GHz, {db(sb[k]):.2f} -> {db(sa[k]):.2f} dB)")
    if (~above).any():
        delta = np.abs(sa - sb)
        k = np.unravel_index(np.argmax(np.where(~above, delta, -1.0)), diff.shape)
        print(f"  below {floor_db:g} dB: largest |S - S_ref| {delta[k]:.2g} (S{k[1] + 1}{k[2] + 1} "
              f"at {common[k[0]] * 1e-9:.3f} GHz, {db(sb[k]):.2f} -> {db(sa[k]):.2f} dB)")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sweep")
    parser.add_argument("--compare", metavar="REF.h5")
    parser.add_argument("--floor-db", type=float, default=-30.0)
    args = parser.parse_args()
    read_sweep.require_h5py()
    if args.compare:
        return compare(args.sweep, args.compare, args.floor_db)
    report(args.sweep)
    return 0


if __name__ == "__main__":
    sys.exit(main())
