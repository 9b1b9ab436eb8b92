#!/usr/bin/env python3
"""Mixed-precision refinement against double and single precision, from the JSON of one
`planarmom bench --precision double,single,mixed` run: per matrix, each precision's outcome,
iterations, time and ‖b − Ax‖∞, and whether mixed reached the tolerance wherever double did.

    tools/precision_check.py BENCH.json

The issue's bar: mixed converges on every matrix where double converges. Exit status 0 when
it holds, 1 otherwise."""
import argparse
import json
import sys


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bench", help="bench JSON with double, single and mixed rows")
    a = ap.parse_args(argv)
    with open(a.bench) as f:
        data = json.load(f)
    runs = {}
    for r in data["runs"]:
        runs.setdefault((r["matrix"], r["solver"]), {})[r.get("precision", "double")] = r
    print("tolerance %g, inner tolerance %g, backend %s" % (
        data["options"]["tolerance"], data["options"].get("inner_tolerance", float("nan")),
        data["options"]["backend"]))
    print("%-24s %-9s | %-28s | %-28s | %-36s | %s" % (
        "matrix", "solver", "double: it / ms / max|b-Ax|", "single", "mixed (refinements)",
        "mixed/double time"))

    def cell(r):
        if r is None:
            return "-"
        mark = "" if r["converged"] else " " + r["outcome"]
        return "%d / %.3g / %.2g%s" % (r["iterations"], r["seconds_median"] * 1e3,
                                       r["true_residual_inf"], mark)

    failures, both = [], 0
    for (matrix, solver), p in sorted(runs.items()):
        d, s, m = p.get("double"), p.get("single"), p.get("mixed")
        mixed = cell(m)
        if m is not None:
            mixed += " (%d%s)" % (m.get("refinements", 0),
                                  ", double finish" if m.get("finished_in_double") else "")
        ratio = ""
        if d and m and d["converged"]:
            if m["converged"]:
                both += 1
                ratio = "%.2f" % (m["seconds_median"] / d["seconds_median"])
            else:
                failures.append(matrix)
                ratio = "FAILS where double converges"
        print("%-24s %-9s | %-28s | %-28s | %-36s | %s" % (matrix, solver, cell(d), cell(s),
                                                        mixed, ratio))
    print("mixed converges on %d of the %d matrices where double does" %
          (both, both + len(failures)))
    if failures:
        print("mixed fails where double converges: " + ", ".join(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
