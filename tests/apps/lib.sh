# Helpers shared by the command-line test scripts (cli_test.sh, fault_test.sh); sourced, not run.

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

# expect_error_line WHAT STATUS ERR_FILE TEXT...: a command failed as a user error must: exit
# status 1 and exactly one line on stderr, holding every TEXT.
expect_error_line() {
  local what=$1 status=$2 err=$3
  shift 3
  [ "$status" -eq 1 ] || fail "$what: exit status $status, expected 1: $(cat "$err")"
  [ "$(wc -l <"$err")" -eq 1 ] || fail "$what: expected one line on stderr, got: $(cat "$err")"
  local text
  for text in "$@"; do
    grep -qF -- "$text" "$err" || fail "$what: the error lacks '$text': $(cat "$err")"
  done
}
