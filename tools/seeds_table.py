#!/usr/bin/env python3
"""The multi-algorithm paper's table from `planarmom bench` JSON: one row per matrix and
solver, one column per run file (e.g. GPU and CPU), each cell "outcome iterations / ms /
‖b − Ax‖∞" (the paper's measure).

    tools/seeds_table.py GPU.json:"GPU (H100)" CPU.json:"CPU (16 cores)" > table.md"""
import json
import sys

SHORT = {"converged": "conv", "max-iterations": "max-it", "stagnation": "stag",
         "NaN/Inf": "NaN", "residual gap": "gap"}


def cell(r):
    outcome = SHORT.get(r["outcome"], r["outcome"].replace("breakdown", "bd"))
    inf = r["true_residual_inf"]  # null in the JSON where it is NaN
    return "%s %d / %.2f / %s" % (outcome, r["iterations"], r["seconds_median"] * 1e3,
                                  "NaN" if inf is None else "%.1e" % inf)


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    columns, runs, order = [], {}, []
    for arg in argv:
        path, _, title = arg.partition(":")
        columns.append(title or path)
        with open(path) as f:
            for r in json.load(f)["runs"]:
                key = (r["matrix"], r["n"], r["solver"])
                if key not in runs:
                    runs[key] = {}
                    order.append(key)
                runs[key][len(columns) - 1] = r
    print("| matrix | n | solver | " + " | ".join(columns) + " |")
    print("|---|---:|---|" + "---|" * len(columns))
    for key in order:
        cells = [cell(runs[key][c]) if c in runs[key] else "-" for c in range(len(columns))]
        print("| %s | %d | %s | " % key + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
