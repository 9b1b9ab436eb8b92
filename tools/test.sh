#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds every target, and runs every CTest test
# (GoogleTest suites, the CLI checks and the install/find_package check). Arguments go to the
# CMake configure step (.ci/run turns compiler warnings into errors this way).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PLANARMOM_BUILD_DIR:-$root/build}
bash "$root/tools/build.sh" "$@"
ctest --test-dir "$build" --output-on-failure --parallel "$(nproc)"
