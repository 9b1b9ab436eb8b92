#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz (clang, ASan + UBSan, no CUDA) into build-fuzz/ (or
# $PLANARMOM_FUZZ_BUILD_DIR) and runs each for a time or a number of executions. New inputs are
# collected in a scratch folder and merged (-merge=1, minimised) into tests/fuzz/corpus/TARGET;
# crash, leak, timeout and out-of-memory inputs are copied to tests/fuzz/crashes/TARGET. Exits
# non-zero when any target reported one. Logs: BUILD_DIR/fuzz-logs/TARGET.log.
# Usage: tools/fuzz.sh [--time SECONDS | --runs N] [--jobs J] [TARGET...]
#   default --time 60, all targets; --jobs J: J processes per target sharing its corpus, each
#   for the time given or N/J executions
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PLANARMOM_FUZZ_BUILD_DIR:-$root/build-fuzz}
fuzz_dir=$root/tests/fuzz

seconds=60
runs=
jobs=1
targets=()
while [ $# -gt 0 ]; do
  case $1 in
    --time) seconds=${2:?--time needs seconds}; runs=; shift 2 ;;
    --runs) runs=${2:?--runs needs a count}; shift 2 ;;
    --jobs) jobs=${2:?--jobs needs a count}; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
limit=(-max_total_time="$seconds")
[ -z "$runs" ] || limit=(-runs=$(((runs + jobs - 1) / jobs)))
parallel=()
[ "$jobs" -le 1 ] || parallel=(-jobs="$jobs" -workers="$jobs")
known=$(cd "$fuzz_dir" && ls fuzz_*.cpp | sed 's/^fuzz_\(.*\)\.cpp$/\1/')
[ ${#targets[@]} -gt 0 ] || mapfile -t targets <<<"$known"
for t in "${targets[@]}"; do
  grep -qx "$t" <<<"$known" ||
    { echo "fuzz.sh: no target '$t' (known: $(echo $known))" >&2; exit 2; }
done

bash "$root/tools/install-deps.sh" --fuzz
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DPLANARMOM_FUZZ=ON -DPLANARMOM_WITH_CUDA=OFF
fi
cmake --build "$build" --parallel "$(nproc)" --target "${targets[@]/#/fuzz_}"

# A libFuzzer log's last status line (executions, cov: coverage, corpus) and final statistics.
summarise() {
  grep -E '^#[0-9]+[[:space:]]' "$1" | tail -1 || true
  grep -E '^Done [0-9]+ runs|^stat::(average_exec_per_sec|new_units_added|peak_rss_mb)' "$1" ||
    true
}

logs=$build/fuzz-logs
mkdir -p "$logs"
failed=()
for t in "${targets[@]}"; do
  exe=$build/tests/fuzz/fuzz_$t
  corpus=$fuzz_dir/corpus/$t
  scratch=$(mktemp -d)
  mkdir -p "$corpus" "$scratch/new" "$scratch/artifacts" "$scratch/merged"
  dict=()
  [ -f "$fuzz_dir/dict/$t.dict" ] && dict=(-dict="$fuzz_dir/dict/$t.dict")
  echo "== $t: ${limit[*]} ${parallel[*]}"
  # New inputs go to the first folder, the scratch one; the corpus is only read. With -jobs each
  # process logs to fuzz-N.log in the working directory, the scratch folder.
  set +e
  (cd "$scratch" && "$exe" "${limit[@]}" "${parallel[@]}" "${dict[@]}" -timeout=10 \
     -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$scratch/artifacts/" \
     "$scratch/new" "$corpus") >"$logs/$t.log" 2>&1
  rc=$?
  set -e
  if [ "$jobs" -le 1 ]; then
    summarise "$logs/$t.log"
  else
    # (libFuzzer has already copied each job's log into the main one.)
    for job in "$scratch"/fuzz-*.log; do
      echo "$(basename "$job"):"
      summarise "$job"
    done
    cat "$scratch"/fuzz-*.log | awk '/^Done [0-9]+ runs/ { n += $2 } END { print "runs in all:", n }'
  fi
  if compgen -G "$scratch/artifacts/*" >/dev/null; then
    mkdir -p "$fuzz_dir/crashes/$t"
    cp "$scratch/artifacts/"* "$fuzz_dir/crashes/$t/"
    echo "$t: reproducers copied to tests/fuzz/crashes/$t: $(cd "$scratch/artifacts" && echo *)"
  fi
  if [ "$rc" -ne 0 ]; then
    failed+=("$t")
    echo "$t: FAILED (exit $rc), see $logs/$t.log:"
    grep -E 'ERROR: |SUMMARY: |runtime error|fuzz contract broken' "$logs/$t.log" | head -5 || true
  fi
  # A fresh minimal corpus covering everything the old one and the new inputs cover.
  before=$(ls "$corpus" | wc -l)
  if "$exe" -merge=1 -timeout=10 -rss_limit_mb=2048 "$scratch/merged" "$corpus" "$scratch/new" \
       >"$logs/$t.merge.log" 2>&1 && compgen -G "$scratch/merged/*" >/dev/null; then
    rm -f "$corpus"/*
    cp "$scratch/merged/"* "$corpus/"
    echo "$t: corpus $before -> $(ls "$corpus" | wc -l) files"
  else
    failed+=("$t")
    echo "$t: the merge failed, corpus left as it was: see $logs/$t.merge.log"
  fi
  rm -rf "$scratch"
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz.sh: crashes, leaks, timeouts or sanitizer reports in: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz.sh: ${targets[*]}: no crash, leak, timeout or sanitizer report"
