#!/usr/bin/env bash
# Paired A/B of two planarmom binaries on the sweep's routes: the examples as they ship and
# variants of the coupler example that take each route that makes Z·x (sweep/src/routes/), each
# swept by both binaries on one backend; prints per config max |S_new - S_old| (0: bit for bit)
# and both wall times. The LU preconditioner renews its LU where measured times say (rule exact's
# default), so runs with it agree to the solver's tolerance, not bit for bit (so do runs through
# the device's HYB product, whose COO part adds with atomics): every config is swept twice by the
# old binary, the first untimed (it fills the line cache the timed runs read), and the two give
# the spread of identical runs.
# Usage: tools/ab_sweeps.sh OLD_BIN NEW_BIN OUT_DIR BACKEND(cpu|cuda) [examples|variants|all]
# NEW_FLAGS: options for the new binary's sweeps only (e.g. --no-adaptive, where the new binary
# would sweep adaptively what the old solves at every frequency).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
old=$1 new=$2 out=$3 backend=$4 which=${5:-all}
py=python3
$py -c 'import h5py' 2>/dev/null || py=/usr/bin/python3
mkdir -p "$out"
export PLANARMOM_CACHE_DIR=$out/line-cache  # both binaries read the same line checks
configs=()
if [ "$which" != variants ]; then
  for ex in branch_line_coupler branch_line_coupler_fr4 two_couplers; do
    sed -e 's/^output:.*//' "$root/examples/$ex.yaml" >"$out/$ex.yaml"
    configs+=("$ex:lu")
  done
fi
if [ "$which" != examples ]; then
  variant() {  # name, sparsify line, solver line[, mesh line]
    local mesh=()
    [ -n "${4:-}" ] && mesh=(-e "s/^mesh:.*/$4/")
    sed -e "s/^sparsify:.*/$2/" -e "s/^solver:.*/$3/" -e 's/^output:.*//' "${mesh[@]}" \
      -e 's/^frequencies:.*/frequencies: {start_hz: 2.9e9, stop_hz: 3.1e9, points: 3}/' \
      "$root/examples/branch_line_coupler.yaml" >"$out/$1.yaml"
    configs+=("$1:fixed")
  }
  variant fft_block 'sparsify: {rule: exact}' 'solver: {tolerance: 1.0e-9, preconditioner: block}'
  variant fft_lu 'sparsify: {rule: exact}' 'solver: {tolerance: 1.0e-9}'
  configs[-1]=fft_lu:lu
  variant magnitude 'sparsify: {density: 0.2}' 'solver: {tolerance: 1.0e-9}'
  # The mpie rule's reaches need square cells.
  square='mesh: {cell_mm: 0.4}'
  variant pattern 'sparsify: {density: 0.05, rule: mpie}' 'solver: {tolerance: 1.0e-9}' "$square"
  variant assembled_check 'sparsify: {density: 0.2, rule: mpie, check_dense: true}' \
    'solver: {tolerance: 1.0e-9}' "$square"
  variant assembled_hyb 'sparsify: {density: 0.05, rule: mpie, format: hyb}' \
    'solver: {tolerance: 1.0e-9, preconditioner: jacobi}' "$square"
fi
sweep() {  # binary, config, tag: OUT/tag/NAME.h5, wall seconds on stdout
  local start end
  mkdir -p "$out/$3"
  start=$(date +%s.%N)
  local flags=()
  [ "$1" = "$new" ] && read -ra flags <<<"${NEW_FLAGS:-}"
  "$1" -q sweep "$2" "${flags[@]}" --backend "$backend" --out-dir "$out/$3" \
    >"$out/$3/$(basename "$2" .yaml).log" 2>&1 ||
    echo "FAILED: $3 $(basename "$2") (log $out/$3/$(basename "$2" .yaml).log)" >&2
  end=$(date +%s.%N)
  awk "BEGIN { print $end - $start }"
}
printf '%-26s %-5s %12s %12s %8s %8s\n' config route "|dS| new-old" "|dS| old-old" "old s" "new s"
for entry in "${configs[@]}"; do
  name=${entry%%:*} kind=${entry##*:}
  # The first run fills the line cache (untimed); it is also the old binary's second run.
  sweep "$old" "$out/$name.yaml" old2 >/dev/null
  t_old=$(sweep "$old" "$out/$name.yaml" old)
  t_new=$(sweep "$new" "$out/$name.yaml" new)
  spread=$($py "$root/tools/compare_sweeps.py" "$out/old/$name.h5" "$out/old2/$name.h5")
  diff=$($py "$root/tools/compare_sweeps.py" "$out/old/$name.h5" "$out/new/$name.h5")
  printf '%-26s %-5s %12s %12s %8.1f %8.1f\n' "$name" "$kind" "$diff" "$spread" "$t_old" "$t_new"
done
