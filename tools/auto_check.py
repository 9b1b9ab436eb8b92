#!/usr/bin/env python3
"""Scores `--solver auto --format auto` against every (solver, format) pair, from the JSON of
`planarmom bench` runs on the same matrices and backend: per matrix the best converged pair's
time, auto's time, and whether auto failed where some pair converged.

    tools/auto_check.py PAIRS.json... --auto AUTO.json

The issue's bar: auto within 10% of the best pair on at least 80% of the matrices, and never a
failure where another pair converges. Exit status 0 when both hold, 1 otherwise."""
import argparse
import json
import sys


def load(paths):
    runs = []
    for p in paths:
        with open(p) as f:
            runs += json.load(f)["runs"]
    return runs


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pairs", nargs="+", help="bench JSON files of the named (solver, format) runs")
    ap.add_argument("--auto", required=True, help="bench JSON of the auto runs")
    ap.add_argument("--slack", type=float, default=0.10, help="allowed excess over the best")
    a = ap.parse_args(argv)

    best = {}
    for r in load(a.pairs):
        if r.get("automatic") or not r["converged"]:
            continue
        key = r["matrix"]
        if key not in best or r["seconds_median"] < best[key]["seconds_median"]:
            best[key] = r
    rows, within, failed_wrongly = [], 0, []
    for r in load([a.auto]):
        m = r["matrix"]
        b = best.get(m)
        if b is None:
            verdict = "no pair converges" + ("" if not r["converged"] else "; auto does")
            ok = True
        elif not r["converged"]:
            verdict, ok = "FAILS where %s/%s converges" % (b["solver"], b["format"]), False
            failed_wrongly.append(m)
        else:
            ratio = r["seconds_median"] / b["seconds_median"]
            ok = ratio <= 1 + a.slack
            verdict = "%.2fx of best" % ratio
        within += ok
        rows.append((m, "%s/%s" % (r["solver"], r["format"]),
                     "%s/%s" % (b["solver"], b["format"]) if b else "-",
                     r["seconds_median"] * 1e3, b["seconds_median"] * 1e3 if b else float("nan"),
                     verdict))
    print("%-30s %-18s %-18s %10s %10s  %s" % ("matrix", "auto chose", "best pair",
                                               "auto ms", "best ms", "verdict"))
    for row in rows:
        print("%-30s %-18s %-18s %10.3f %10.3f  %s" % row)
    share = within / len(rows) if rows else 0.0
    print("\nwithin %.0f%% of the best pair (or nothing converges): %d of %d = %.0f%% (bar 80%%)"
          % (100 * a.slack, within, len(rows), 100 * share))
    print("auto failing where a pair converges: %d %s" % (len(failed_wrongly), failed_wrongly))
    return 0 if share >= 0.8 and not failed_wrongly else 1


if __name__ == "__main__":
    sys.exit(main())
