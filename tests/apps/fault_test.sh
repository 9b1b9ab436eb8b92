#!/usr/bin/env bash
# Fault injection on `planarmom sweep` (docs/RELIABILITY.md, "Fault injection"), one CTest test
# per case, on a sweep of about 10 s on 2 cores (a short straight line, 6 frequencies, cpu):
#   reference        the uninterrupted sweep that the others compare with, and its duration
#   kill_resume      SIGKILL after random delays drawn from that duration (FAULT_KILLS of them,
#                    default 20; the seed is printed, FAULT_SEED repeats it), each killed run
#                    resumed, itself perhaps killed, until one ends: the same S as the reference,
#                    bit for bit
#   disk_full        the disk (a tmpfs) fills mid-sweep: one error line, exit 1, and the partial
#                    file resumes, once there is space, to the same S
#   unwritable       an output folder that cannot be written (a read-only mount; a folder of
#                    another user): one line, exit 1, nothing written
#   corrupt_partial  a partial file overwritten or truncated is refused (one line naming it and
#                    what to do; the file left as it was); a damaged last record is computed again
# Usage: fault_test.sh CASE PLANARMOM SWEEP_CHECK WORK_DIR. Exit status 77 (CTest: skipped) where
# this machine cannot stage the fault, with a line saying why.
set -euo pipefail
case_name=$1
exe=$2
check=$3
work=$4
script=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
source "$(dirname "$script")/lib.sh"
config=$work/line.yaml
reference=$work/reference/line.h5
skip=77

# start_sweep LOG ARGS...: `planarmom sweep` of the config in the background, in a process group
# of its own (so that a kill reaches the plot script it may be running); its pid in $sweep_pid.
start_sweep() {
  local log=$1
  shift
  : >"$log"
  setsid "$exe" sweep "$config" "$@" >"$log" 2>&1 &
  sweep_pid=$!
}

# Whether the sweep started last is still running (a zombie counts as ended).
sweep_running() {
  local state
  state=$(awk '{ print $3 }' "/proc/$sweep_pid/stat" 2>/dev/null) && [ "$state" != Z ]
}

# wait_for_log LOG PATTERN: waits until the running sweep has logged PATTERN; false if it ended
# without.
wait_for_log() {
  until grep -q -- "$2" "$1"; do
    sweep_running || grep -q -- "$2" "$1" || return 1
    sleep 0.05
  done
}

# kill_sweep: SIGKILL to the sweep's process group; its exit status in $sweep_status.
kill_sweep() {
  kill -KILL -- "-$sweep_pid" 2>/dev/null || true
  exit_status sweep_status wait "$sweep_pid" 2>/dev/null  # (quiet: bash would say "Killed")
}

# Records a run logged as written: its "[k/n]" lines.
records_logged() { grep -c '\] \[[0-9]*/[0-9]*\] ' "$1" || true; }

# The count in a resumed run's "resuming FILE: K frequencies already done", or 0.
records_resumed() {
  sed -n 's/.*resuming .*: \([0-9]*\) frequencies already done.*/\1/p' "$1" | grep . || echo 0
}

# same_as_reference FILE WHAT: FILE holds the reference's sweep bit for bit.
same_as_reference() {
  "$check" same "$reference" "$1" >"$work/same_$case_name.txt" ||
    fail "$2: the sweep differs from the uninterrupted one: $(cat "$work/same_$case_name.txt")"
}

# in_mount_namespace CASE [STATUS]: runs this script's CASE where it may mount a tmpfs, in a
# private mount namespace (as root, or as root of a new user namespace), so that nothing
# outlives it. Where there is none: says so and exits with STATUS (default 77, skipped; 0 when
# the case has tested something already).
in_mount_namespace() {
  local how
  for how in -m -rm; do
    if unshare "$how" true 2>/dev/null; then
      FAULT_IN_NAMESPACE=1 exec unshare "$how" --propagation private -- \
        "$script" "$1" "$exe" "$check" "$work"
    fi
  done
  echo "SKIP: $case_name: no mount namespace here (neither 'unshare -m' nor 'unshare -rm'" \
    "works), so no small or read-only disk to write to"
  exit "${2:-$skip}"
}

need_reference() {
  [ -s "$reference" ] && [ -s "$work/reference/duration_ms" ] ||
    fail "$case_name: no reference sweep in $work/reference: run the fault_reference test first"
}

case_reference() {
  rm -rf "$work"
  mkdir -p "$work"
  line_config "$config" 6
  local start end
  start=$(date +%s%N)
  "$exe" sweep "$config" --out-dir "$work/reference" >"$work/reference.log" 2>&1 ||
    fail "reference sweep: $(cat "$work/reference.log")"
  end=$(date +%s%N)
  echo $(((end - start) / 1000000)) >"$work/reference/duration_ms"
  echo "reference: 6 frequencies in $(cat "$work/reference/duration_ms") ms"
}

# A chain: a fresh run of the sweep into $out, killed, resumed, killed again... until a run ends
# before its kill; its file must then be the reference's. Kills are counted, not runs, and the
# output is cleared for the next chain.
case_kill_resume() {
  need_reference
  local duration_ms kills seed out run=0 killed=0 chains=0 in_chain=0 delay delay_ms log resumed
  local written where startup=0 midway=0
  duration_ms=$(cat "$work/reference/duration_ms")
  kills=${FAULT_KILLS:-20}
  seed=${FAULT_SEED:-$(date +%s)}
  echo "kill_resume: $kills kills after delays drawn from [0, $duration_ms) ms, seed $seed" \
    "(FAULT_SEED=$seed repeats them)"
  RANDOM=$seed
  out=$work/killed
  rm -rf "$out" "$work"/kill_*.log
  while [ "$killed" -lt "$kills" ] || [ -e "$out" ]; do
    run=$((run + 1))
    [ "$run" -le $((4 * kills + 4)) ] || fail "kill_resume: $run runs and only $killed kills"
    log=$work/kill_$run.log
    start_sweep "$log" --out-dir "$out" --resume
    if [ "$killed" -lt "$kills" ]; then
      delay_ms=$(((RANDOM * 32768 + RANDOM) % duration_ms))
      delay=$((delay_ms / 1000)).$(printf '%03d' $((delay_ms % 1000)))
      sleep "$delay"
      kill_sweep
      delay="kill at $delay s"
    else  # the last chain runs to its end
      delay="not killed"
      exit_status sweep_status wait "$sweep_pid"
    fi
    resumed=$(records_resumed "$log")
    written=$(records_logged "$log")
    case $sweep_status in
      137) killed=$((killed + 1))
           in_chain=$((in_chain + 1))
           if [ "$written" -eq 0 ]; then
             where="kill $killed, in start-up, before its first record"
             startup=$((startup + 1))
           elif [ $((resumed + written)) -lt 6 ]; then
             where="kill $killed, after its record $written"
             midway=$((midway + 1))
           else
             where="kill $killed, after its last record, finishing (HDF5 close, Touchstone, plot)"
             midway=$((midway + 1))
           fi ;;
      0) [ ! -e "$out/line.h5.partial" ] || fail "kill_resume: a finished run left its partial file"
         same_as_reference "$out/line.h5" "kill_resume (seed $seed, run $run)"
         [ "$in_chain" -eq 0 ] || chains=$((chains + 1))
         where="finished after $in_chain kills: the reference's S, bit for bit"
         in_chain=0
         rm -rf "$out" ;;
      *) fail "kill_resume: run $run exited $sweep_status by itself: $(cat "$log")" ;;
    esac
    printf 'run %2d, %-18s resumed %d records, wrote %d: %s\n' \
      "$run" "$delay:" "$resumed" "$written" "$where"
  done
  echo "kill_resume: $kills kills ($startup in start-up, $midway after a record) in $chains" \
    "chains of runs from scratch, each ending in the reference's S, currents, iterations and" \
    "residuals, bit for bit"
}

case_disk_full() {
  need_reference
  [ "${FAULT_IN_NAMESPACE:-}" = 1 ] || in_mount_namespace disk_full
  local disk=$work/disk out=$work/disk/out resumed
  rm -rf "$disk" "$work"/full*.log
  mkdir -p "$disk"
  mount -t tmpfs -o size=4m tmpfs "$disk"
  # Stopped after its third record, the sweep finds the disk full when it goes on: filled by
  # hand while it waits, at a point that does not hang on how HDF5 lays out its file. (It may
  # write a record or two more into space it reserved before.)
  start_sweep "$work/full.log" --out-dir "$out"
  wait_for_log "$work/full.log" '\[3/6\]' ||
    fail "disk_full: no third record: $(cat "$work/full.log")"
  kill -STOP -- "-$sweep_pid"
  dd if=/dev/zero of="$disk/filler" bs=64k 2>/dev/null || true
  [ "$(df --output=avail "$disk" | tail -1)" -eq 0 ] || fail "disk_full: $disk is not full"
  kill -CONT -- "-$sweep_pid"
  exit_status sweep_status wait "$sweep_pid"
  grep -v '^\[info\]' "$work/full.log" >"$work/full.err" || true
  expect_error_line "disk_full" "$sweep_status" "$work/full.err" "[error] $out/line.h5.partial: " \
    "No space left on device" "--resume"
  echo "disk full: $(cat "$work/full.err")"
  [ -e "$out/line.h5.partial" ] && [ ! -e "$out/line.h5" ] ||
    fail "disk_full: expected the partial file alone: $(ls "$out")"
  rm "$disk/filler"
  "$exe" sweep "$config" --out-dir "$out" --resume >"$work/full_resume.log" 2>&1 ||
    fail "disk_full: --resume after freeing space: $(cat "$work/full_resume.log")"
  resumed=$(records_resumed "$work/full_resume.log")
  [ "$resumed" -ge 3 ] || fail "disk_full: resumed $resumed records, expected at least 3"
  same_as_reference "$out/line.h5" "disk_full"
  echo "disk full: --resume after freeing space kept $resumed records and gave the reference's S"
}

# unwritable_run NAME OUT_DIR REASON [COMMAND PREFIX...]: the sweep into OUT_DIR fails at once,
# with one line naming the folder and the system's REASON, exit 1.
unwritable_run() {
  local name=$1 out=$2 reason=$3
  shift 3
  exit_status sweep_status "$@" "$exe" -q sweep "$config" --out-dir "$out" \
    >"$work/$name.out" 2>"$work/$name.err"
  expect_error_line "unwritable ($name)" "$sweep_status" "$work/$name.err" "$out" "$reason"
  echo "unwritable ($name): $(cat "$work/$name.err")"
}

# Nothing but the config and this case's logs beside the config: no output went astray.
expect_nothing_written() {
  local left
  left=$(cd "$work" && ls -d line.* | grep -v '^line\.yaml$' || true)
  [ -z "$left" ] || fail "unwritable: output written beside the config: $left"
}

case_unwritable() {
  need_reference
  if [ "${FAULT_IN_NAMESPACE:-}" = 1 ]; then
    local ro=$work/readonly
    mkdir -p "$ro"
    mount -t tmpfs -o ro tmpfs "$ro"
    unwritable_run readonly "$ro" "Read-only file system"
    unwritable_run readonly_new "$ro/new" "Read-only file system"
    expect_nothing_written
    return
  fi
  # A folder of another user. Root writes anywhere whatever the mode, so root runs the sweep
  # as nobody; anyone else owns no folder it cannot chmod, so it takes the write bit off its own.
  local locked=$work/locked
  rm -rf "$locked" "$work"/locked.*
  mkdir -p "$locked"
  if [ "$(id -u)" -ne 0 ]; then
    chmod a-w "$locked"
    unwritable_run locked "$locked" "Permission denied"
    chmod u+w "$locked"
  elif setpriv --reuid=65534 --regid=65534 --clear-groups test -r "$config" -a -x "$exe" \
    2>/dev/null; then
    unwritable_run locked "$locked" "Permission denied" \
      setpriv --reuid=65534 --regid=65534 --clear-groups
  else
    echo "SKIP: unwritable (another user's folder): setpriv cannot run the sweep as nobody here"
  fi
  [ -z "$(ls -A "$locked")" ] || fail "unwritable: written into $locked: $(ls -A "$locked")"
  expect_nothing_written
  in_mount_namespace unwritable "$([ -e "$work/locked.err" ] && echo 0 || echo "$skip")"
}

# damaged_copy NAME: the reference sweep as the partial file of a run in its own folder (a
# partial file and a finished one differ in their `complete` attribute alone), to damage.
damaged_copy() {
  rm -rf "$work/$1"
  mkdir -p "$work/$1"
  cp "$reference" "$work/$1/line.h5.partial"
  damaged=$work/$1/line.h5.partial
}

# The offset of the 8 bytes of a float64 in the damaged copy, -1 unless they occur once.
offset_of_double() {
  perl -0777 -ne 'BEGIN { $bytes = pack("d<", shift @ARGV) }
    my @at; my $from = 0;
    while ((my $i = index($_, $bytes, $from)) >= 0) { push @at, $i; $from = $i + 1 }
    print @at == 1 ? $at[0] : -1' "$1" "$damaged"
}

# overwrite_double VALUE: the record's stored frequency VALUE replaced by another number.
overwrite_double() {
  local at
  at=$(offset_of_double "$1")
  [ "$at" -ge 0 ] || fail "corrupt_partial: $1 is not stored once in the partial file"
  perl -e 'print pack("d<", 1.25e9)' |
    dd of="$damaged" bs=1 seek="$at" conv=notrunc status=none
}

# refused NAME: --resume on the damaged copy is refused, and the file is left as it was.
refused() {
  cp "$damaged" "$work/$1/before"
  exit_status sweep_status "$exe" -q sweep "$config" --out-dir "$work/$1" --resume \
    >"$work/$1.out" 2>"$work/$1.err"
  expect_error_line "corrupt_partial ($1)" "$sweep_status" "$work/$1.err" "$damaged" \
    "Delete $damaged to start the sweep afresh, or run with --restart."
  cmp -s "$damaged" "$work/$1/before" || fail "corrupt_partial ($1): the file was changed"
  [ ! -e "$work/$1/line.h5" ] || fail "corrupt_partial ($1): a sweep file was written"
  echo "corrupt_partial ($1): $(cat "$work/$1.err")"
}

case_corrupt_partial() {
  need_reference
  local size
  size=$(stat -c %s "$reference")
  damaged_copy signature
  printf '\0\0\0\0\0\0\0\0' | dd of="$damaged" bs=1 conv=notrunc status=none
  refused signature
  damaged_copy second_record
  overwrite_double 8.2e9
  refused second_record
  grep -qF "record 2 of 6 fails its checksum" "$work/second_record.err" ||
    fail "corrupt_partial: the damaged record is not named"
  for length in 0 100 $((size / 2)) $((size - 1)); do
    damaged_copy "truncated_$length"
    truncate -s "$length" "$damaged"
    refused "truncated_$length"
  done

  # The last record damaged: it may be the one a run was writing when it stopped, so it is
  # computed again, saying so, and the sweep ends as the reference did.
  damaged_copy last_record
  overwrite_double 9.0e9
  "$exe" sweep "$config" --out-dir "$work/last_record" --resume >"$work/last_record.log" 2>&1 ||
    fail "corrupt_partial (last record): $(cat "$work/last_record.log")"
  grep -qF "[warning] $damaged: record 6 of 6 fails its checksum" "$work/last_record.log" ||
    fail "corrupt_partial (last record): no warning: $(cat "$work/last_record.log")"
  [ "$(records_resumed "$work/last_record.log")" -eq 5 ] ||
    fail "corrupt_partial (last record): not resumed from 5 records: $(cat "$work/last_record.log")"
  same_as_reference "$work/last_record/line.h5" "corrupt_partial (last record)"
  echo "corrupt_partial (last record): computed again, then the reference's S"
}

case $case_name in
  reference | kill_resume | disk_full | unwritable | corrupt_partial) "case_$case_name" ;;
  *) fail "unknown case '$case_name'" ;;
esac
