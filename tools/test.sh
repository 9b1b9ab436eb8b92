#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds every target, and runs every CTest test
# (GoogleTest suites, the CLI checks and the install/find_package check). Arguments go to the
# CMake configure step. Under CI (CI=true) compiler warnings, GCC's and nvcc's, are errors: the
# build is free of them, and a user's newer compiler may find new ones without failing here.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PLANARMOM_BUILD_DIR:-$root/build}
werror=()
[ "${CI:-}" = true ] && werror=(-DCMAKE_COMPILE_WARNING_AS_ERROR=ON)
bash "$root/tools/build.sh" "${werror[@]}" "$@"
ctest --test-dir "$build" --output-on-failure --parallel "$(nproc)"
