#!/usr/bin/env bash
# The main job: installs what is missing, builds the planarmom app, the Python module and the
# libraries they link (target main-job; tools/test.sh builds the rest, tests included), and sweeps the branch-line coupler example
# (examples/branch_line_coupler.yaml, 2-4 GHz, 101 points) into out/: HDF5, Touchstone, |S|
# plot and layout picture. `tools/run.sh bench [ARGS]` runs the solver benchmark instead, on
# the shared SuiteSparse matrices and built-in MoM-like ones (table, out/bench.json).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PLANARMOM_BUILD_DIR:-$root/build}
bash "$root/tools/build.sh" --target main-job
# `import planarmom` from Debian's python3 without PYTHONPATH: a .pth file in the user's
# site-packages names the build's module folder (as an editable install does).
if [ -d "$build/python/planarmom" ] && [ -x /usr/bin/python3 ]; then
  site=$(/usr/bin/python3 -m site --user-site)
  mkdir -p "$site" && echo "$build/python" >"$site/planarmom.pth"
  echo "run.sh: python3 imports planarmom from $build/python ($site/planarmom.pth)"
fi
mkdir -p "$root/out"
if [ "${1:-}" = bench ]; then
  shift
  matrices=${PLANARMOM_MATRICES:-$root/../shared/matrices}
  inputs=()
  if [ -d "$matrices" ]; then
    inputs=("$matrices")
  else
    echo "run.sh: no matrix folder at $matrices (set PLANARMOM_MATRICES to one);" \
         "benchmarking the built-in MoM-like matrices only" >&2
  fi
  "$build/apps/planarmom" bench "${inputs[@]}" --synthetic 2000,4000 --json "$root/out/bench.json" "$@"
  echo "run.sh: table above; results in $root/out/bench.json"
  exit 0
fi
"$build/apps/planarmom" sweep "$root/examples/branch_line_coupler.yaml" --out-dir "$root/out" "$@"
echo "run.sh: S-parameters in $root/out/branch_line_coupler.h5 and .s4p, |S| plot in" \
     "$root/out/branch_line_coupler.png, the meshed layout in $root/out/branch_line_coupler.svg"
