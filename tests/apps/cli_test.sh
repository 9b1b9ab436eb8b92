#!/usr/bin/env bash
# End-to-end checks of the planarmom CLI: every subcommand has --help, a small complex system
# solves and its solution is written, and bad input gives one error line and a non-zero exit.
set -euo pipefail
exe=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

for sub in "" bench solve line sweep device-info; do
  $exe $sub --help >"$work/help.txt" || fail "planarmom $sub --help exited non-zero"
  grep -q "Usage" "$work/help.txt" || fail "planarmom $sub --help printed no usage"
done

# A 3x3 complex symmetric, diagonally dominant system (COCG applies).
cat >"$work/a.mtx" <<'MTX'
%%MatrixMarket matrix coordinate complex symmetric
3 3 5
1 1 4 1
2 1 1 0.5
2 2 5 -1
3 2 -1 0.25
3 3 6 2
MTX
$exe solve "$work/a.mtx" -o "$work/x.mtx" >"$work/solve.txt" 2>"$work/solve.err" ||
  fail "solve exited non-zero: $(cat "$work/solve.err")"
grep -q "converged" "$work/solve.txt" || fail "solve did not report convergence"
head -1 "$work/x.mtx" | grep -q "%%MatrixMarket matrix array complex general" ||
  fail "solution file has the wrong banner"
# b = A*1 by default, so every entry of x is 1 (to the tolerance).
awk '/^%/ { next } !size { size = 1; next } { n++; if (($1-1)^2 + $2^2 > 1e-10) bad = 1 }
     END { exit bad || n != 3 }' \
  "$work/x.mtx" || fail "solution of A x = A 1 is not 1"

# A malformed file: one error line naming file and line, exit status 1.
printf '%%%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1.0\n' >"$work/bad.mtx"
set +e
$exe solve "$work/bad.mtx" -o "$work/y.mtx" >"$work/bad.out" 2>"$work/bad.err"
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "malformed input exited $rc, expected 1"
[ "$(wc -l <"$work/bad.err")" -eq 1 ] || fail "expected one error line, got: $(cat "$work/bad.err")"
grep -q "bad.mtx:3:" "$work/bad.err" || fail "error does not name file and line: $(cat "$work/bad.err")"
[ ! -e "$work/y.mtx" ] || fail "a failed solve left an output file"

# Unknown option: CLI11's message and a non-zero exit.
if $exe bench --no-such-option "$work" >/dev/null 2>&1; then fail "unknown option accepted"; fi

$exe bench "$work/a.mtx" --reps 1 --warmup 0 --json "$work/bench.json" >"$work/bench.txt" ||
  fail "bench failed"
grep -q "cocg" "$work/bench.txt" || fail "bench table lacks the COCG row"
grep -q '"true_residual"' "$work/bench.json" || fail "bench JSON lacks residuals"
# The MoM line check on a short FR-4 line: a table row with eps_eff and Z0.
$exe -q line --eps-r 4.4 --height-mm 1.6 --cells-across 4 --freq-ghz 3 >"$work/line.txt" ||
  fail "line failed"
grep -qE "^ +3\.000 " "$work/line.txt" || fail "line printed no row for 3 GHz: $(cat "$work/line.txt")"

# The line settings from YAML (examples/microstrip_line.yaml): a short 2-cells-across line at
# two frequencies from a range, rows in the flag form's columns.
examples=$(cd "$(dirname "$0")/../../examples" && pwd)
cat >"$work/line.yaml" <<'YAML'
substrate: {eps_r: 3.38, height_mm: 0.508}
line: {z0_ohm: 50, cells_across: 2, half_length_mm: 18}
frequencies: {start_hz: 2.0e9, stop_hz: 3.0e9, points: 2}
YAML
$exe -q line --config "$work/line.yaml" >"$work/line_yaml.txt" 2>"$work/line_yaml.err" ||
  fail "line --config failed: $(cat "$work/line_yaml.err")"
grep -q "W 1.1765 mm .*2 cells across" "$work/line_yaml.txt" ||
  fail "line --config: wrong width or mesh: $(head -1 "$work/line_yaml.txt")"
grep -qE "^ +f GHz +half mm +unknowns +eps_eff +KJ +diff % +Z0 ohm +diff % +assembly s +LU s$" \
  "$work/line_yaml.txt" || fail "line --config printed no column header"
awk '$1 ~ /^[0-9.]+$/ { if (NF != 10) bad = 1; f = f " " $1 }
     END { exit bad || f != " 2.000 3.000" }' "$work/line_yaml.txt" ||
  fail "line --config rows are not 2 and 3 GHz: $(cat "$work/line_yaml.txt")"
# Every example parses and runs, the flags overriding the file (short lines, one frequency).
for ex in microstrip_line:18 microstrip_line_fr4:40 microstrip_line_100ohm:8; do
  $exe -q line --config "$examples/${ex%%:*}.yaml" --cells-across 2 --half-length-mm "${ex##*:}" \
    --freq-ghz 3 >"$work/example.txt" 2>"$work/example.err" ||
    fail "examples/${ex%%:*}.yaml failed: $(cat "$work/example.err")"
  grep -qE "^ +3\.000 +${ex##*:}\.00 " "$work/example.txt" ||
    fail "examples/${ex%%:*}.yaml printed no 3 GHz row: $(cat "$work/example.txt")"
done

# Bad line settings: one error line "FILE:LINE: ..." naming the key path, exit status 1.
bad_line_config() {  # name, line, expected text; the YAML on stdin
  cat >"$work/$1.yaml"
  set +e
  $exe line --config "$work/$1.yaml" >/dev/null 2>"$work/$1.err"
  local rc=$?
  set -e
  [ "$rc" -eq 1 ] || fail "$1.yaml exited $rc, expected 1"
  [ "$(wc -l <"$work/$1.err")" -eq 1 ] ||
    fail "$1.yaml: expected one error line: $(cat "$work/$1.err")"
  grep -qF "$1.yaml:$2: $3" "$work/$1.err" ||
    fail "$1.yaml: expected '$1.yaml:$2: $3', got: $(cat "$work/$1.err")"
}
bad_line_config unknown_key 3 \
  "unknown key 'cells_acros' in /line (did you mean 'cells_across'?)" <<'YAML'
substrate: {eps_r: 3.38, height_mm: 0.508}
line:
  cells_acros: 2
  z0_ohm: 50
frequencies: [3.0e9]
YAML
bad_line_config missing_field 2 "missing required key 'eps_r' in /substrate" <<'YAML'
substrate:
  height_mm: 0.508
line: {z0_ohm: 50}
frequencies: [3.0e9]
YAML
bad_line_config negative_height 3 "/substrate/height_mm must be > 0, got -0.5" <<'YAML'
substrate:
  eps_r: 3.38
  height_mm: -0.5
line: {z0_ohm: 50}
frequencies: [3.0e9]
YAML
bad_line_config zero_width 3 "/line/width_mm must be > 0, got 0" <<'YAML'
substrate: {eps_r: 3.38, height_mm: 0.508}
line:
  width_mm: 0
frequencies: [3.0e9]
YAML
bad_line_config z0_and_width 4 "/line needs exactly one of 'z0_ohm' or 'width_mm'" <<'YAML'
substrate: {eps_r: 3.38, height_mm: 0.508}
line:
  z0_ohm: 50
  width_mm: 1.2
frequencies: [3.0e9]
YAML
bad_line_config empty_frequencies 3 "/frequencies must not be an empty list" <<'YAML'
substrate: {eps_r: 3.38, height_mm: 0.508}
line: {z0_ohm: 50}
frequencies: []
YAML
bad_line_config no_points 6 "/frequencies/points must be >= 1, got 0" <<'YAML'
substrate: {eps_r: 3.38, height_mm: 0.508}
line: {z0_ohm: 50}
frequencies:
  start_hz: 1.0e9
  stop_hz: 2.0e9
  points: 0
YAML
bad_line_config stop_below_start 5 \
  "/frequencies/stop_hz must be >= start_hz (3.0e9), got 2.0e9" <<'YAML'
substrate: {eps_r: 3.38, height_mm: 0.508}
line: {z0_ohm: 50}
frequencies:
  start_hz: 3.0e9
  stop_hz: 2.0e9
  points: 2
YAML

# A sweep of a straight 50 Ω two-port line (1.2 mm = 3 cells of 0.4 mm, 78 mm, 30 mm feeds),
# all entries kept: HDF5, Touchstone and layout written, no partial file left, and the line
# matched and transparent between its reference planes.
cat >"$work/line2.yaml" <<'YAML'
substrate: {eps_r: 3.38, height_mm: 0.508, loss_tangent: 0}
metal: {pec: true}
layout:
  - {x0: 0, y0: 0, x1: 78.0, y1: 1.2}
ports:
  - {name: a, x: 0, y: 0.6, direction: "+x", feed_length_mm: 30, reference_plane_mm: 30}
  - {name: b, x: 78.0, y: 0.6, direction: "-x", feed_length_mm: 30, reference_plane_mm: 30}
mesh: {cell_mm: 0.4}
frequencies: [2.9e9, 3.0e9]
sparsify: {density: 1.0}
solver: {backend: cpu}
YAML
$exe -q sweep "$work/line2.yaml" >"$work/sweep.out" 2>"$work/sweep.err" ||
  fail "sweep exited non-zero: $(cat "$work/sweep.err")"
for f in line2.h5 line2.s2p line2.svg; do
  [ -s "$work/$f" ] || fail "sweep wrote no $f"
done
[ ! -e "$work/line2.h5.partial" ] || fail "sweep left its partial file behind"
# Touchstone 2-port rows: f S11 S21 S12 S22 (re im each).
awk '/^[!#]/ || NF == 0 { next }
     { n++; s11 = sqrt($2^2 + $3^2); s21 = sqrt($4^2 + $5^2)
       if (s11 > 0.05 || s21 < 0.99 || s21 > 1.001) bad = 1 }
     END { exit bad || n != 2 }' "$work/line2.s2p" ||
  fail "straight line is not matched and transparent: $(cat "$work/line2.s2p")"

# A bad sweep config: one error line naming file, line and key path, exit 1, no output files.
sed 's/solver: {backend: cpu}/solver: {backnd: cpu}/' "$work/line2.yaml" >"$work/badsweep.yaml"
set +e
$exe sweep "$work/badsweep.yaml" >/dev/null 2>"$work/badsweep.err"
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "bad sweep config exited $rc, expected 1"
[ "$(wc -l <"$work/badsweep.err")" -eq 1 ] ||
  fail "bad sweep config: expected one error line: $(cat "$work/badsweep.err")"
grep -qF "badsweep.yaml:11: unknown key 'backnd' in /solver (did you mean 'backend'?)" \
  "$work/badsweep.err" || fail "bad sweep config: unexpected message: $(cat "$work/badsweep.err")"
ls "$work"/badsweep.* | grep -qv "badsweep\.\(yaml\|err\)$" &&
  fail "bad sweep config left output behind: $(ls "$work"/badsweep.*)"

# A YAML syntax error: one line with the file and line.
printf 'frequencies: [1.0e9\nsolver: {\n' >"$work/syntax.yaml"
set +e
$exe sweep "$work/syntax.yaml" >/dev/null 2>"$work/syntax.err"
rc=$?
set -e
[ "$rc" -eq 1 ] && [ "$(wc -l <"$work/syntax.err")" -eq 1 ] &&
  grep -qF "syntax.yaml:2: " "$work/syntax.err" ||
  fail "YAML syntax error: expected one 'syntax.yaml:2: ...' line, exit 1: $(cat "$work/syntax.err")"

echo "cli checks passed"
