#!/usr/bin/env bash
# Configures and builds planarmom into build/ (or $PLANARMOM_BUILD_DIR), after installing any
# missing Debian packages. `--target NAME` (repeatable, before the rest) builds only NAME and
# what it links, as tools/run.sh does for the planarmom app; without it every target is built,
# tests included. The remaining arguments go to the CMake configure step.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PLANARMOM_BUILD_DIR:-$root/build}
targets=()
while [ "${1:-}" = --target ]; do
  targets+=(--target "${2:?build.sh: --target needs a target name}")
  shift 2
done
bash "$root/tools/install-deps.sh"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "$@"
elif [ $# -gt 0 ]; then
  cmake "$build" "$@"
fi
cmake --build "$build" --parallel "$(nproc)" "${targets[@]}"
