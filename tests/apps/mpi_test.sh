#!/usr/bin/env bash
# `mpirun -np R planarmom sweep` (sweep/mpi_sweep.hpp) on the cpu backend, one CTest test per case:
#   coupler       examples/branch_line_coupler.yaml at 5 frequencies: 2 ranks give the serial
#                 sweep's S within 1e-7 (both solve to the example's tolerance, 1e-9, from other
#                 initial guesses and preconditioners; S is smooth in the currents, so 100x that
#                 tolerance bounds their difference), the frequencies in order in the file
#   band_tables   the coupler at 16 frequencies, where the host interpolates the offset tables
#                 over the band: 2 ranks evaluate the nodes' tables between them (each its share,
#                 then broadcast), the same checks' error as serially and S within 1e-7
#   resume        a 2-rank sweep killed (SIGKILL to every process) resumed by 1 rank, and a
#                 serial one killed resumed by 2 ranks: the serial sweep's S (within 1e-7, the
#                 solver's tolerance), the frequencies already written kept
#   rank_killed   one rank killed mid-sweep: mpirun ends the run saying which rank died, exit
#                 status not 0, the partial file resumes (2 ranks) to the serial sweep's S
#   setup_errors  a rank that reads another sweep, or a config with an error: exit 1, one error
#                 line from rank 0 naming that rank and what is wrong, nothing written
#   disk_full     the disk (a tmpfs) fills under a 2-rank sweep: one error line with the
#                 system's reason and --resume, exit 1; the partial file resumes once there is room
# Usage: mpi_test.sh CASE PLANARMOM SWEEP_CHECK WORK_DIR. Exit status 77 (CTest: skipped) where
# there is no mpirun or (disk_full) no mount namespace, with a line saying why.
set -euo pipefail
case_name=$1
exe=$2
check=$3
work=$4/$case_name
script=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
source "$(dirname "$script")/lib.sh"
examples=$(cd "$(dirname "$script")/../../examples" && pwd)
skip=77

command -v mpirun >/dev/null ||
  { echo "SKIP: no mpirun on PATH (Debian: openmpi-bin; tools/install-deps.sh installs it)"; exit $skip; }
# Open MPI refuses root unless told; CI runs as root. --oversubscribe: 2 ranks on 1 core work too.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export PLANARMOM_CACHE_DIR=$work/cache
mpi() { mpirun --oversubscribe "$@"; }

if [ "${MPI_IN_NAMESPACE:-}" != 1 ]; then
  rm -rf "$work"
  mkdir -p "$work"
fi
# fault_test.sh's line at 200 frequencies: ~0.1 s each on one core of the 2-core VM, ~0.02 s on
# a fast host, so a run is still going when the kills below come after its 4th or 6th record.
points=200
line=$work/line.yaml
line_config "$line" $points

# The serial sweep of the line, that the others compare with.
reference() {
  "$exe" sweep "$line" --out-dir "$work/reference" >"$work/reference.log" 2>&1 ||
    fail "serial sweep: $(cat "$work/reference.log")"
}

# start LOG COMMAND...: in the background, in a process group of its own; its pid in $run_pid.
start() {
  local log=$1
  shift
  : >"$log"
  setsid "$@" >"$log" 2>&1 &
  run_pid=$!
}

# wait_for_log LOG PATTERN: until the run started last has logged PATTERN; fails if it ended.
wait_for_log() {
  until grep -q -- "$2" "$1"; do
    kill -0 "$run_pid" 2>/dev/null || grep -q -- "$2" "$1" || fail "no '$2' in: $(cat "$1")"
    sleep 0.05
  done
}

# ended PID: the process is gone or a zombie.
ended() {
  local state
  ! state=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) || [ "$state" = Z ]
}

# kill_run LOG: SIGKILL to the run's process group and to every rank its log names (mpirun puts
# its ranks in process groups of their own, and they can outlive it holding the file), then
# waits until all are gone.
kill_run() {
  kill -KILL -- "-$run_pid" $(rank_pids "$1") 2>/dev/null || true
  wait "$run_pid" 2>/dev/null || true
  wait_ranks "$1"
}

# The pids of the ranks a run's log names.
rank_pids() { sed -n 's/.*rank [0-9]* of [0-9]* (.*, pid \([0-9]*\)).*/\1/p' "$1"; }

# wait_ranks LOG: until every rank the log names has ended.
wait_ranks() {
  local p
  for p in $(rank_pids "$1"); do until ended "$p"; do sleep 0.05; done; done
}

# The count in "resuming FILE: K frequencies already done".
resumed() { sed -n 's/.*resuming .*: \([0-9]*\) frequencies already done.*/\1/p' "$1" | grep . || echo 0; }

close_to() {  # REFERENCE FILE WHAT
  "$check" close "$1" "$2" 1e-7 >"$work/close.txt" || fail "$3: $(cat "$work/close.txt")"
  echo "$3: $(cat "$work/close.txt")"
}

# coupler_at POINTS: the coupler example on the cpu backend at POINTS frequencies, serially and on
# 2 ranks, into $work/serial and $work/mpi; their S within 1e-7 (above).
coupler_at() {
  local config=$work/coupler.yaml
  sed "s/^frequencies:.*/frequencies: {start_hz: 2.0e9, stop_hz: 4.0e9, points: $1}/" \
    "$examples/branch_line_coupler.yaml" | sed 's/^solver: {/solver: {backend: cpu, /' >"$config"
  grep -q 'backend: cpu' "$config" || fail "coupler: the config's solver line was not found"
  "$exe" sweep "$config" --out-dir "$work/serial" >"$work/serial.log" 2>&1 ||
    fail "serial: $(cat "$work/serial.log")"
  mpi -np 2 "$exe" sweep "$config" --out-dir "$work/mpi" >"$work/mpi.log" 2>&1 ||
    fail "2 ranks: $(cat "$work/mpi.log")"
  grep -q "$1 frequencies to compute on 2 ranks" "$work/mpi.log" || fail "2 ranks: $(cat "$work/mpi.log")"
  grep -q "on rank 1" "$work/mpi.log" || fail "rank 1 computed nothing: $(cat "$work/mpi.log")"
  grep -qE "line checks: .* 0 solved, 0 from the cache, [1-9][0-9]* shared" "$work/mpi.log" ||
    fail "the line checks were not shared: $(grep 'line checks:' "$work/mpi.log")"
  close_to "$work/serial/coupler.h5" "$work/mpi/coupler.h5" "coupler at $1 frequencies, 2 ranks against serial"
}

case_coupler() {
  coupler_at 5
  # `close` compares record by record: the 2-rank file holds the frequencies in the serial order.
  "$check" touchstone "$work/mpi/coupler.h5" "$work/mpi/coupler.s4p" >/dev/null ||
    fail "the 2-rank Touchstone file does not hold its sweep"
}

case_band_tables() {
  coupler_at 16
  local serial shared
  serial=$(sed -n 's/.*interpolated from \([0-9]* frequencies\) (\([0-9]*\) evaluated, checked between them to \([^ ]*\) .*/\1, \2 evaluated, \3/p' "$work/serial.log")
  shared=$(sed -n 's/.*interpolated from \([0-9]* frequencies\) (\([0-9]*\) evaluated, shared by the ranks, checked between them to \([^ ]*\) .*/\1, \2 evaluated, \3/p' "$work/mpi.log")
  [ -n "$serial" ] || fail "the serial sweep did not interpolate the tables: $(grep 'offset tables' "$work/serial.log")"
  [ "$shared" = "$serial" ] ||
    fail "the ranks' shared tables ($shared) are not the serial ones ($serial)"
  echo "band tables: serial $serial; shared by 2 ranks: the same"
}

case_resume() {
  reference
  start "$work/two.log" mpirun --oversubscribe -np 2 "$exe" sweep "$line" --out-dir "$work/a"
  wait_for_log "$work/two.log" "\[6/$points\]"
  kill_run "$work/two.log"
  [ -e "$work/a/line.h5.partial" ] && [ ! -e "$work/a/line.h5" ] || fail "no partial file alone: $(ls "$work/a")"
  "$exe" sweep "$line" --out-dir "$work/a" --resume >"$work/a.log" 2>&1 || fail "resume by 1: $(cat "$work/a.log")"
  [ "$(resumed "$work/a.log")" -ge 6 ] || fail "resume by 1 kept $(resumed "$work/a.log") records"
  close_to "$work/reference/line.h5" "$work/a/line.h5" "killed with 2 ranks, resumed by 1 ($(resumed "$work/a.log") kept)"

  start "$work/one.log" "$exe" sweep "$line" --out-dir "$work/b"
  wait_for_log "$work/one.log" "\[6/$points\]"
  kill_run "$work/one.log"
  mpi -np 2 "$exe" sweep "$line" --out-dir "$work/b" --resume >"$work/b.log" 2>&1 ||
    fail "resume by 2: $(cat "$work/b.log")"
  [ "$(resumed "$work/b.log")" -ge 6 ] || fail "resume by 2 kept $(resumed "$work/b.log") records"
  grep -q "to compute on 2 ranks" "$work/b.log" || fail "resume by 2: $(cat "$work/b.log")"
  close_to "$work/reference/line.h5" "$work/b/line.h5" "killed serial, resumed by 2 ranks ($(resumed "$work/b.log") kept)"
}

case_rank_killed() {
  reference
  start "$work/run.log" mpirun --oversubscribe -np 2 "$exe" sweep "$line" --out-dir "$work/a"
  wait_for_log "$work/run.log" "\[4/$points\]"
  local pid
  pid=$(sed -n 's/.*rank 1 of 2 (.*, pid \([0-9]*\)).*/\1/p' "$work/run.log" | head -1)
  [ -n "$pid" ] || fail "no pid of rank 1 logged: $(cat "$work/run.log")"
  kill -KILL "$pid"
  local status=0
  wait "$run_pid" || status=$?
  wait_ranks "$work/run.log"
  [ "$status" -ne 0 ] || fail "the run went on after rank 1 died: $(cat "$work/run.log")"
  grep -q "rank 1 .*signal 9" "$work/run.log" || fail "no line says rank 1 died: $(cat "$work/run.log")"
  echo "rank 1 killed: exit $status, $(grep 'rank 1 .*signal 9' "$work/run.log")"
  [ -e "$work/a/line.h5.partial" ] && [ ! -e "$work/a/line.h5" ] || fail "no partial file alone: $(ls "$work/a")"
  mpi -np 2 "$exe" sweep "$line" --out-dir "$work/a" --resume >"$work/a.log" 2>&1 ||
    fail "resume: $(cat "$work/a.log")"
  [ "$(resumed "$work/a.log")" -ge 4 ] || fail "resume kept $(resumed "$work/a.log") records"
  close_to "$work/reference/line.h5" "$work/a/line.h5" "rank 1 killed, resumed by 2 ranks ($(resumed "$work/a.log") kept)"
}

# setup_error NAME RANK1_CONFIG TEXT...: rank 1 reads RANK1_CONFIG; exit 1, one error line holding
# every TEXT, no output folder.
setup_error() {
  local name=$1 other=$2
  shift 2
  local status=0
  mpi -np 1 "$exe" -q sweep "$line" --out-dir "$work/$name" : -np 1 "$exe" -q sweep "$other" \
    --out-dir "$work/$name" >"$work/$name.out" 2>"$work/$name.log" || status=$?
  [ "$status" -ne 0 ] || fail "$name: exit status 0"
  grep '^\[error\]' "$work/$name.log" >"$work/$name.err" || true
  expect_error_line "$name" 1 "$work/$name.err" "$@"
  [ ! -e "$work/$name" ] || fail "$name: output written: $(ls "$work/$name")"
  echo "$name: $(cat "$work/$name.err")"
}

case_setup_errors() {
  sed "s/points: $points/points: 7/" "$line" >"$work/other.yaml"
  setup_error other_sweep "$work/other.yaml" "rank 1 of 2 (" "read another sweep than rank 0"
  sed 's/eps_r: 3.38/eps_r: -1/' "$line" >"$work/bad.yaml"
  setup_error bad_config "$work/bad.yaml" "rank 1 of 2 (" "bad.yaml:1: substrate eps_r must be"
}

case_disk_full() {
  if [ "${MPI_IN_NAMESPACE:-}" != 1 ]; then
    for how in -m -rm; do
      if unshare "$how" true 2>/dev/null; then
        MPI_IN_NAMESPACE=1 exec unshare "$how" --propagation private -- \
          "$script" "$case_name" "$exe" "$check" "$4"
      fi
    done
    echo "SKIP: no mount namespace here (neither 'unshare -m' nor 'unshare -rm'), so no small disk"
    exit $skip
  fi
  reference
  local disk=$work/disk out=$work/disk/out status=0
  mkdir -p "$disk"
  mount -t tmpfs -o size=4m tmpfs "$disk"
  start "$work/full.log" mpirun --oversubscribe -np 2 "$exe" sweep "$line" --out-dir "$out"
  wait_for_log "$work/full.log" "\[4/$points\]"
  kill -STOP -- "-$run_pid" $(rank_pids "$work/full.log")
  dd if=/dev/zero of="$disk/filler" bs=64k 2>/dev/null || true
  kill -CONT -- "-$run_pid" $(rank_pids "$work/full.log")
  wait "$run_pid" || status=$?
  wait_ranks "$work/full.log"
  grep '^\[error\]' "$work/full.log" >"$work/full.err" || true
  expect_error_line "disk_full" "$([ "$status" -ne 0 ] && echo 1 || echo 0)" "$work/full.err" \
    "No space left on device" "--resume"
  echo "disk full under 2 ranks: exit $status, $(cat "$work/full.err")"
  [ -e "$out/line.h5.partial" ] && [ ! -e "$out/line.h5" ] || fail "disk_full: $(ls "$out")"
  rm "$disk/filler"
  "$exe" sweep "$line" --out-dir "$out" --resume >"$work/resume.log" 2>&1 ||
    fail "resume after freeing space: $(cat "$work/resume.log")"
  close_to "$work/reference/line.h5" "$out/line.h5" "disk full, resumed by 1 ($(resumed "$work/resume.log") kept)"
}

"case_$case_name" "$@"
