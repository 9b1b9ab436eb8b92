# Helpers shared by the command-line test scripts (cli_test.sh, fault_test.sh, adaptive_test.sh);
# sourced, not run.

# Reports a failed check and ends the test.
fail() { echo "FAIL: $*" >&2; exit 1; }

# exit_status VAR COMMAND...: runs COMMAND and puts its exit status in VAR, so that a failure the
# test expects does not end a script running under set -e.
exit_status() {
  local -n _status=$1
  shift
  _status=0
  "$@" || _status=$?
}

# What a failed expectation on ERR_FILE shows: its lines, and where the run's whole log lies
# beside it (NAME.log for NAME.err, the error lines picked from it) the log's last lines, which
# say what the run did when the error line is missing (mpi_test.sh's disk_full once ended so on
# a busy host).
error_context() {
  local err=$1 log=${1%.err}.log
  cat "$err"
  [ -f "$log" ] && printf '\nthe run'"'"'s log ends:\n%s' "$(tail -n 20 "$log")"
  return 0
}

# expect_error_line WHAT STATUS ERR_FILE TEXT...: a command failed as a user error must: exit
# status 1 and exactly one line on stderr, holding every TEXT.
expect_error_line() {
  local what=$1 status=$2 err=$3
  shift 3
  [ "$status" -eq 1 ] || fail "$what: exit status $status, expected 1: $(error_context "$err")"
  [ "$(wc -l <"$err")" -eq 1 ] ||
    fail "$what: expected one line on stderr, got: $(error_context "$err")"
  local text
  for text in "$@"; do
    grep -qF -- "$text" "$err" || fail "$what: the error lacks '$text': $(error_context "$err")"
  done
}

# line_config FILE POINTS: the sweep fault_test.sh and mpi_test.sh run: a 50-ohm line, 33 mm
# (15 mm feeds: their fitted stretch is λg/4 at 8 GHz, so the sweep has no warning to print),
# 2 cells across: 163 unknowns; short termination, so that start-up has only the feed lines' Z0
# checks; POINTS frequencies from 8 to 9 GHz on the cpu backend, every one solved (not adaptive:
# the tests compare runs on one rank and on several, and an adaptive sweep runs on one). The
# finished file keeps every frequency's solutions (keep_solutions): the runs are compared with
# them bit for bit, and fault_test.sh damages a finished file as it would a partial one.
line_config() {
  cat >"$1" <<YAML
substrate: {eps_r: 3.38, height_mm: 0.508, loss_tangent: 0}
metal: {pec: true}
layout:
  - {x0: 0, y0: 0, x1: 33.0, y1: 1.2}
ports:
  - {name: a, x: 0, y: 0.6, direction: "+x", feed_length_mm: 15, reference_plane_mm: 15}
  - {name: b, x: 33.0, y: 0.6, direction: "-x", feed_length_mm: 15, reference_plane_mm: 15}
mesh: {cell_mm: 0.6}
frequencies: {start_hz: 8.0e9, stop_hz: 9.0e9, points: $2, adaptive: false}
sparsify: {density: 1.0}
solver: {backend: cpu}
termination: short
output: {keep_solutions: true}
YAML
}

# kill_once_logged LOG PATTERN COMMAND...: runs COMMAND in the background, its stderr into LOG,
# and kills it (SIGKILL) once LOG matches PATTERN (grep -E), or it ends by itself; the test fails
# unless it was killed (status 137) after PATTERN appeared: a kill-and-continue test that ran to
# the end would resume nothing.
kill_once_logged() {
  local log=$1 pattern=$2
  shift 2
  "$@" >/dev/null 2>"$log" &
  local pid=$! rc=0
  for _ in $(seq 2400); do  # up to 4 minutes
    grep -qE "$pattern" "$log" && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || rc=$?  # (quiet: bash would report the job's "Killed")
  grep -qE "$pattern" "$log" || fail "no '$pattern' in the log (status $rc): $(cat "$log")"
  [ "$rc" -eq 137 ] || fail "the run ended by itself (status $rc) before it could be killed at" \
    "'$pattern'; nothing would be continued. Log: $(cat "$log")"
}
