#!/usr/bin/env bash
# End-to-end checks of the planarmom CLI: every subcommand has --help, a small complex system
# solves and its solution is written, and bad input gives one error line and a non-zero exit.
set -euo pipefail
exe=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

for sub in "" bench solve line device-info; do
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

echo "cli checks passed"
