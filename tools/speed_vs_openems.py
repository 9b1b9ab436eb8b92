#!/usr/bin/python3
"""planarmom against openEMS on the same cores: the whole process of each, side by side (issue 38).

Usage: speed_vs_openems.py CONFIG [--planarmom EXE] [--runs N] [--cold] [--cell-mm C]
                           [--work-dir DIR]

Runs `planarmom -q sweep CONFIG --restart` RUNS times (default 3; with --cold each run gets an
empty line cache and near-part store, PLANARMOM_CACHE_DIR), then openEMS once on CONFIG's layout
and band (`tools/openems_reference.py run CONFIG --cell-mm C --excite auto --nice 0`, C default
0.2 mm, the mesh docs/PERFORMANCE.md v0.30 found converged to ~0.06 dB on the coupler), and
prints each wall time, planarmom's median, the ratio, and the two results' differences
(`openems_reference.py compare`). Run it on a quiet machine: both are timed as a user would
see them. Exit status: the first failing command's, 0 otherwise.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(command, env=None):
    start = time.monotonic()
    done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True, check=False)
    seconds = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} exited {done.returncode}: {done.stderr.strip()[-400:]}")
    return seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("config")
    parser.add_argument("--planarmom", default=os.path.join(ROOT, "build", "apps", "planarmom"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cold", action="store_true",
                        help="each planarmom run with an empty line cache and near-part store")
    parser.add_argument("--cell-mm", type=float, default=0.2, help="openEMS's fine cell")
    parser.add_argument("--work-dir", default=None)
    args = parser.parse_args()
    if args.runs < 1:
        sys.exit("--runs must be 1 or more")
    if not os.access(args.planarmom, os.X_OK):
        sys.exit(f"no planarmom at {args.planarmom} (build it, or give --planarmom)")
    work = args.work_dir or tempfile.mkdtemp(prefix="speed_vs_openems_")
    os.makedirs(work, exist_ok=True)
    name = os.path.splitext(os.path.basename(args.config))[0]

    seconds = []
    for run in range(args.runs):
        env = dict(os.environ)
        if args.cold:
            env["PLANARMOM_CACHE_DIR"] = tempfile.mkdtemp(prefix="cache_", dir=work)
        seconds.append(timed([args.planarmom, "-q", "sweep", args.config, "--restart",
                              "--out-dir", os.path.join(work, "planarmom")], env))
        print(f"planarmom run {run + 1}: {seconds[-1]:.2f} s", flush=True)
    median = statistics.median(seconds)

    reference = os.path.join(ROOT, "tools", "openems_reference.py")
    fdtd = timed([sys.executable, reference, "run", args.config, "--cell-mm", str(args.cell_mm),
                  "--excite", "auto", "--nice", "0", "--out-dir", os.path.join(work, "openems"),
                  "--work-dir", os.path.join(work, "openems", "runs")])
    print(f"openEMS {args.cell_mm} mm: {fdtd:.1f} s")
    print(f"{name}: planarmom median {median:.2f} s of {args.runs}"
          f"{' (cold)' if args.cold else ''}; openEMS {fdtd:.1f} s; ratio {fdtd / median:.1f}x")
    subprocess.run([sys.executable, reference, "compare",
                    os.path.join(work, "planarmom", name + ".h5"),
                    os.path.join(work, "openems", f"{name}_openems_c{args.cell_mm:g}.npz")],
                   check=True)


if __name__ == "__main__":
    main()
