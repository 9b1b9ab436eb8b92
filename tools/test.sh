#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds, and runs every CTest test
# (GoogleTest suites, the CLI checks and the install/find_package check).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PLANARMOM_BUILD_DIR:-$root/build}
bash "$root/tools/build.sh"
ctest --test-dir "$build" --output-on-failure --parallel "$(nproc)"
