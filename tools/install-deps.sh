#!/usr/bin/env bash
# Installs the Debian packages planarmom needs to build and test. Idempotent and non-interactive:
# packages already present are left alone, and nothing is fetched when all are there.
# --fuzz adds what tools/fuzz.sh needs: clang with libFuzzer and the sanitizers, clang's OpenMP.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  libeigen3-dev libhdf5-dev libboost-log-dev libyaml-cpp-dev libcli11-dev
  libgtest-dev libgmock-dev libopenmpi-dev openmpi-bin nlohmann-json3-dev zlib1g-dev
  libfftw3-dev liblapacke-dev libopenblas-dev
  python3-h5py python3-numpy python3-scipy python3-matplotlib python3-yaml python3-scikit-rf
  pybind11-dev python3-dev
)
if [ "${1:-}" = --fuzz ]; then packages+=(clang libclang-rt-14-dev libomp-14-dev); fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
