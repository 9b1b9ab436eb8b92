#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs the default workload, which is the
# solver benchmark on the shared SuiteSparse matrices and on built-in MoM-like matrices (until
# the sweep exists). The table goes to the terminal, the results to out/bench.json.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PLANARMOM_BUILD_DIR:-$root/build}
bash "$root/tools/build.sh"
matrices=${PLANARMOM_MATRICES:-$root/../shared/matrices}
inputs=()
if [ -d "$matrices" ]; then
  inputs=("$matrices")
else
  echo "run.sh: no matrix folder at $matrices (set PLANARMOM_MATRICES to one);" \
       "benchmarking the built-in MoM-like matrices only" >&2
fi
mkdir -p "$root/out"
"$build/apps/planarmom" bench "${inputs[@]}" --synthetic 2000,4000 --json "$root/out/bench.json" "$@"
echo "run.sh: table above; results in $root/out/bench.json"
