#!/usr/bin/env bash
# The adaptive sweep end to end (issue 38): an open stub's notch (a quarter wave at ~3 GHz on
# RO4003, 0.4 mm cells, 691 unknowns) swept at 41 points in full and adaptively. The adaptive S at
# every point must be within its tolerance (|dS| 1e-3) of the full sweep's, from at most 15
# solves; its file, Touchstone and plot hold every point; killed and resumed it reuses its solves
# and ends as close. `planarmom line` refuses the adaptive keys.
# Usage: adaptive_test.sh PLANARMOM WORK_DIR SWEEP_CHECK (tests/apps/sweep_check.cpp)
set -euo pipefail
exe=$1
work=$2
check=${3:?usage: adaptive_test.sh PLANARMOM WORK_DIR SWEEP_CHECK}
rm -rf "$work"
mkdir -p "$work"
source "$(dirname "$0")/lib.sh"

cat >"$work/stub.yaml" <<'YAML'
substrate: {eps_r: 3.38, height_mm: 0.508, loss_tangent: 0.0027}
metal: {pec: true}
layout:
  - {x0: 0, y0: 0, x1: 40.0, y1: 1.2}
  - {x0: 19.2, y0: 1.2, x1: 20.4, y1: 16.4}
ports:
  - {name: a, x: 0, y: 0.6, direction: "+x", feed_length_mm: 12, reference_plane_mm: 12}
  - {name: b, x: 40.0, y: 0.6, direction: "-x", feed_length_mm: 12, reference_plane_mm: 12}
mesh: {cell_mm: 0.4}
frequencies: {start_hz: 2.0e9, stop_hz: 4.0e9, points: 41}
sparsify: {rule: exact}
solver: {backend: cpu, tolerance: 1.0e-9}
YAML
$exe sweep "$work/stub.yaml" --out-dir "$work/full" >/dev/null 2>"$work/full.log" ||
  fail "full sweep exited non-zero: $(cat "$work/full.log")"
# The notch is there: |S21| falls below -20 dB somewhere in the band.
awk '/^[!#]/ || NF == 0 { next } { s21 = sqrt($4^2 + $5^2); if (s21 < 0.1) notch = 1 }
     END { exit !notch }' "$work/full/stub.s2p" || fail "the stub shows no notch: $(cat "$work/full/stub.s2p")"

$exe sweep "$work/stub.yaml" --adaptive --out-dir "$work/ad" >/dev/null 2>"$work/ad.log" ||
  fail "adaptive sweep exited non-zero: $(cat "$work/ad.log")"
"$check" adaptive "$work/ad/stub.h5" >"$work/ad.txt" || fail "adaptive file: $(cat "$work/ad.txt")"
solves=$(sed -n 's/^adaptive: \([0-9]*\) of 41 .*/\1/p' "$work/ad.txt")
[ -n "$solves" ] && [ "$solves" -le 15 ] || fail "adaptive: more than 15 solves: $(cat "$work/ad.txt")"
"$check" close "$work/full/stub.h5" "$work/ad/stub.h5" 1e-3 >"$work/close.txt" ||
  fail "adaptive S is not the full sweep's within 1e-3: $(cat "$work/close.txt")"
"$check" touchstone "$work/ad/stub.h5" "$work/ad/stub.s2p" >"$work/ts.txt" ||
  fail "adaptive Touchstone is not its /fit: $(cat "$work/ts.txt")"
grep -q "^! adaptive sweep: $solves of the 41 frequencies solved" "$work/ad/stub.s2p" ||
  fail "the Touchstone file does not say it is fitted: $(head -5 "$work/ad/stub.s2p")"
if /usr/bin/python3 -c 'import h5py, matplotlib' 2>/dev/null; then
  head -c 8 "$work/ad/stub.png" | grep -q PNG || fail "adaptive sweep wrote no PNG plot"
fi
echo "adaptive: $solves solves of 41; $(cat "$work/close.txt")"

# Killed after its third solve, then resumed: the solves in the file are not repeated.
res=$work/resumed
kill_once_logged "$work/killed.log" '\[3/' $exe sweep "$work/stub.yaml" --adaptive --out-dir "$res"
$exe sweep "$work/stub.yaml" --adaptive --out-dir "$res" --resume >/dev/null 2>"$work/resume.log" ||
  fail "adaptive --resume exited non-zero: $(cat "$work/resume.log")"
grep -qE "adaptive sweep: [3-9] solves from the file resumed" "$work/resume.log" ||
  fail "adaptive --resume did not reuse the killed run's solves: $(cat "$work/resume.log")"
"$check" adaptive "$res/stub.h5" >"$work/res.txt" || fail "resumed adaptive file: $(cat "$work/res.txt")"
"$check" close "$work/full/stub.h5" "$res/stub.h5" 1e-3 >"$work/res_close.txt" ||
  fail "resumed adaptive S is not the full sweep's within 1e-3: $(cat "$work/res_close.txt")"

# A tolerance the solves cannot meet (1e-7 of a fit to solves made to a residual of 1e-4): the
# sweep gives up with a warning and writes the solves it made, no fitted curve.
sed -e 's/points: 41}/points: 101, adaptive: true, adaptive_tolerance: 1.0e-7}/' \
    -e 's/tolerance: 1.0e-9}/tolerance: 1.0e-4}/' "$work/stub.yaml" >"$work/stall.yaml"
$exe sweep "$work/stall.yaml" --out-dir "$work/stall" >/dev/null 2>"$work/stall.log" ||
  fail "adaptive sweep with an unmeetable tolerance exited non-zero: $(cat "$work/stall.log")"
grep -q "warning.*adaptive sweep: after [0-9]* solves the competing models come no closer" \
  "$work/stall.log" || fail "no warning that the tolerance was not met: $(cat "$work/stall.log")"
if "$check" adaptive "$work/stall/stall.h5" >/dev/null; then
  fail "a sweep that did not meet its tolerance wrote a fit"
fi
"$check" touchstone "$work/stall/stall.h5" "$work/stall/stall.s2p" >"$work/stall_ts.txt" ||
  fail "the stalled sweep's Touchstone is not its solves: $(cat "$work/stall_ts.txt")"
grep -q "^same: [0-9]* frequencies" "$work/stall_ts.txt" && ! grep -q "^same: 101 " "$work/stall_ts.txt" ||
  fail "the stalled sweep should hold fewer than 101 solves: $(cat "$work/stall_ts.txt")"

# `planarmom line` solves every frequency: the adaptive keys are not its.
cat >"$work/line.yaml" <<'YAML'
substrate: {eps_r: 3.38, height_mm: 0.508}
line: {z0_ohm: 50}
frequencies: {start_hz: 2.0e9, stop_hz: 3.0e9, points: 2, adaptive: true}
YAML
set +e
$exe line --config "$work/line.yaml" >/dev/null 2>"$work/line.err"
rc=$?
set -e
[ "$rc" -ne 0 ] && grep -q "line.yaml:3: unknown key 'adaptive' in /frequencies" "$work/line.err" ||
  fail "line with adaptive: status $rc, $(cat "$work/line.err")"
echo "adaptive_test: passed"
