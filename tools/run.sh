#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs the default workload, which is the
# solver benchmark on the shared SuiteSparse matrices (until the sweep exists). Results go to
# out/bench.json and the table to the terminal.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PLANARMOM_BUILD_DIR:-$root/build}
bash "$root/tools/build.sh"
matrices=${PLANARMOM_MATRICES:-$root/../shared/matrices}
if [ ! -d "$matrices" ]; then
  echo "run.sh: no matrices at $matrices; set PLANARMOM_MATRICES to a folder of .mtx files" >&2
  exit 1
fi
mkdir -p "$root/out"
"$build/apps/planarmom" bench "$matrices" --json "$root/out/bench.json" "$@"
echo "run.sh: results in $root/out/bench.json"
