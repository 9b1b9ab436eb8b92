#!/usr/bin/env bash
# Builds planarmom with CUDA on a GPU machine, runs the test suite (GPU tests included), the
# sanitizers, the SASS check and the GPU benchmarks, and writes everything to $OUT (default
# out/gpu). Stages: build test sanitize sass bench kernels paper_spmv paper_saving sweep (default:
# all, in that order; paper_* are the BiCGSTAB paper's Tables 3 and 5, docs/BENCHMARKS.md),
# and, by name only: sweep101 (the example's 101-point sweep, per-stage times), dense101 (the
# same with the dense check at every frequency), twocouplers
# (examples/two_couplers.yaml and its cascade check), twofull (the pair at three frequencies with
# every entry of Z kept), refine (the coupler example as it runs and on its cells halved),
# refine_full (0.4 against 0.2 mm cells at 11 frequencies, every entry of Z kept), speed
# (whole-sweep timings of the coupler with a cold and a warm line cache and of the two couplers),
# compare (after speed: its S against the cpu backend's), fr4 (the FR-4 example timed, and its
# arm-length scan with every entry kept), speed02 (the coupler on 0.2 mm cells, timed), reach
# (both couplers' S at each mpie reach of REACH_LIST against every entry kept, by converge.py),
# converge (tools/converge.py on CONVERGE_CONFIGS with CONVERGE_KNOBS, CONVERGE_SPARSIFY),
# density and density_mpie (errors and S against the dense solve at 1-20% density, the
# magnitude rule or the mpie rule), cpu101 (sweep101 on the
# host's cores, cpu backend) and heat (the CG paper's heat equation: time per CG iteration at
# n = 512, 1024, 2048 on one core, all cores, the GPU with CSR and ELLPACK-R, and with SSOR)
# seeds (the seed papers' solvers on the real and artificial matrices), seeds_formats
# (BiCGSTAB per storage format on them) and auto
# (--solver auto --format auto, without and with --auto-trial, scored against every pair by
# tools/auto_check.py), precision (the seeds' solvers in single precision; BiCGSTAB in double,
# single and mixed precision to a double-only tolerance, scored by tools/precision_check.py)
# and precision_cpu (the single-precision seeds on the host); ab (another source tree's build
# against this one on every route of the sweep, tools/ab_sweeps.sh); examples (the issue-35
# examples timed and refined); adaptive (every example swept adaptively and in full, issue 38).
#
# Debian packages the GPU image lacks (Boost.Log 1.74, nlohmann-json, ...) can be brought as
# .deb files in .deps/ (see docs/GPU.md); they are unpacked into a private prefix, never into /.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/out/gpu}
build=${PLANARMOM_GPU_BUILD_DIR:-$root/build-gpu}
stages=${*:-build test sanitize sass bench kernels paper_spmv paper_saving sweep}
# The device tool returns at most 8 files: everything but the summary goes into one archive.
mkdir -p "$out/raw"
# Sweep files (the currents make them tens of MB) stay behind: their reports travel.
trap 'tar -C "$out" --exclude="*.h5" --exclude="*.partial" -czf "$out/results.tgz" raw &&
      rm -rf "$out/raw"' EXIT
log() { echo "== $(date +%T) $*" | tee -a "$out/summary.txt"; }
# Failures of the checks that must pass (build, tests, sanitizers): the script exits 1 naming them.
failed=()
fail() { echo "FAILED: $*" | tee -a "$out/summary.txt"; failed+=("$*"); }
# The image's plain python3 has h5py and numpy; Debian's /usr/bin/python3 there does not.
py=python3
$py -c 'import h5py, numpy' 2>/dev/null || py=/usr/bin/python3
# A copy of the coupler example with some lines replaced: coupler_variant NAME SED-EXPRESSIONS...
coupler_variant() {
  local name=$1; shift
  local args=()
  for e in "$@"; do args+=(-e "$e"); done
  sed "${args[@]}" "$root/examples/branch_line_coupler.yaml" >"$out/raw/$name.yaml"
}
bench_run() {  # stage, name, then bench arguments: raw/STAGE_NAME.{json,txt,log}
  local tag=$1_$2; shift 2
  "$build/apps/planarmom" -q bench --max-iter 5000 --json "$out/raw/$tag.json" "$@" \
    >"$out/raw/$tag.txt" 2>"$out/raw/$tag.log"
  echo "$tag: exit $?" | tee -a "$out/summary.txt"
  tail -3 "$out/raw/$tag.log" | tee -a "$out/summary.txt"
}
timed_sweep() {  # name [backend]: run_sweep with the process's wall time and its line checks
  local t0 t1
  t0=$(date +%s.%N)
  run_sweep "$@"
  t1=$(date +%s.%N)
  echo "$1: wall $(awk "BEGIN { print $t1 - $t0 }") s (process, report included); $(grep -E 'line checks:' \
    "$out/raw/$1.log" | sed 's/.*\] //')" | tee -a "$out/summary.txt"
}
run_sweep() {  # name [backend]: sweeps raw/NAME.yaml (on the GPU by default), reports it
  "$build/apps/planarmom" sweep "$out/raw/$1.yaml" --restart --backend "${2:-cuda}" >"$out/raw/$1.log" 2>&1
  echo "sweep $1: exit $?" | tee -a "$out/summary.txt"
  grep -E "error|warning|feed lines" "$out/raw/$1.log" | head -5 | tee -a "$out/summary.txt"
  $py "$root/tools/sweep_report.py" "$out/raw/$1.h5" >"$out/raw/$1.report" 2>&1
  grep -vE "^ *[0-9]+\.[0-9]+ " "$out/raw/$1.report" | tee -a "$out/summary.txt"
}

# Tests and benchmarks read ../shared/matrices; a machine that got them carried in .shared/
# (ignored by git) sees them there.
if [ ! -d "$root/../shared/matrices" ] && [ -d "$root/.shared/matrices" ]; then
  mkdir -p "$root/../shared" && ln -s "$root/.shared/matrices" "$root/../shared/matrices"
fi

cmake_args=(-DPLANARMOM_WITH_CUDA=ON -DCMAKE_BUILD_TYPE=Release)
if compgen -G "$root/.deps/*.deb" >/dev/null; then
  prefix=/tmp/planarmom-deps
  mkdir -p "$prefix"
  for deb in "$root"/.deps/*.deb; do dpkg -x "$deb" "$prefix"; done
  # converge.py reads configs with PyYAML (pure Python; Debian's python3-yaml in .deps/).
  if ! $py -c 'import yaml' 2>/dev/null && [ -d "$prefix/usr/lib/python3/dist-packages/yaml" ]; then
    export PYTHONPATH=$prefix/usr/lib/python3/dist-packages${PYTHONPATH:+:$PYTHONPATH}
  fi
  cmake_args+=(-DBoost_USE_STATIC_LIBS=ON
               "-DBoost_DIR=$prefix/usr/lib/x86_64-linux-gnu/cmake/Boost-1.74.0"
               "-DCMAKE_PREFIX_PATH=$prefix/usr;$prefix/usr/share/cmake"
               "-DCMAKE_CXX_FLAGS=-isystem $prefix/usr/include"
               "-DCMAKE_CUDA_FLAGS=-isystem $prefix/usr/include")
fi

for stage in $stages; do
  case $stage in
  build)
    log "build"
    nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee -a "$out/summary.txt"
    cmake -S "$root" -B "$build" -G Ninja "${cmake_args[@]}" >"$out/raw/configure.log" 2>&1 ||
      { tail -30 "$out/raw/configure.log"; exit 1; }
    cmake --build "$build" --parallel "$(nproc)" >"$out/raw/build.log" 2>&1 ||
      { grep -E "error|Error" "$out/raw/build.log" | head -30; exit 1; }
    ;;
  test)
    # PLANARMOM_REQUIRE_GPU=1: here a GPU test that cannot run (no device, no shared matrices)
    # fails instead of skipping. Other tests may skip for the image's reasons (no h5py in
    # Debian's python, no mount namespace): listed, not failed.
    # The kill-and-resume test kills 3 times here (FAULT_KILLS; CI kills 20): its delays are drawn
    # from a reference sweep that takes ~37 s on this box loaded with 16 tests at once, and 20
    # such kills do not fit a 10-minute device call. It has no GPU part.
    log "tests (PLANARMOM_REQUIRE_GPU=1)"
    export PLANARMOM_REQUIRE_GPU=1 FAULT_KILLS=${FAULT_KILLS:-3}
    (cd "$build" && ctest --output-on-failure --parallel 16 -E '^Cuda' >"$out/raw/ctest.log" 2>&1)
    rc=$?
    grep -E "tests passed|tests failed|FAILED|Not Run|Skipped" "$out/raw/ctest.log" | tee -a "$out/summary.txt"
    [ "$rc" -eq 0 ] || fail "ctest exited $rc: $(grep -E '\((Failed|Timeout|SEGFAULT|Subprocess aborted)\)' \
      "$out/raw/ctest.log" | tr -s ' ' | tr '\n' ';')"
    grep -E '\((Skipped|Not Run)\)' "$out/raw/ctest.log" | sed 's/^/  skipped (not a GPU test): /' |
      tee -a "$out/summary.txt"
    "$build/tests/test_cuda" >"$out/raw/test_cuda.log" 2>&1
    rc=$?
    grep -E "^\[  (PASSED|FAILED|SKIPPED) |Failure|error" "$out/raw/test_cuda.log" | head -40 |
      tee -a "$out/summary.txt"
    [ "$rc" -eq 0 ] || fail "test_cuda exited $rc"
    skipped=$(grep -E '^\[  SKIPPED \] [A-Za-z]' "$out/raw/test_cuda.log" | tr '\n' ';')
    [ -z "$skipped" ] || fail "test_cuda skipped: $skipped"
    ;;
  sweep)
    log "coupler sweep on the GPU (5 frequencies, the example's 5% mpie, dense check)"
    cfg=$out/raw/coupler.yaml
    sed -e 's/^frequencies:.*/frequencies: {start_hz: 2.8e9, stop_hz: 3.2e9, points: 5}/' \
        -e 's/^sparsify:.*/sparsify: {density: 0.05, rule: mpie, check_dense: true}/' \
        "$root/examples/branch_line_coupler.yaml" >"$cfg"
    "$build/apps/planarmom" sweep "$cfg" --backend cuda >"$out/raw/sweep.log" 2>&1
    echo "sweep exit $?" | tee -a "$out/summary.txt"
    grep -E "backend|GHz:|wrote|error|warning" "$out/raw/sweep.log" | tee -a "$out/summary.txt"
    $py - "$out/raw/coupler.h5" <<'PY' 2>&1 | tee -a "$out/summary.txt"
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
s = f["s"][:]
db = lambda v: 20 * np.log10(abs(v))
for k, hz in enumerate(f["frequency"][:]):
    S = s[k]
    print("%.2f GHz S11 %.1f S21 %.2f S31 %.2f S41 %.1f dB, %.1f deg, |S-S^T| %.1e, sigma %.4f, "
          "dense err %.3g, iters %d, solve %.3f s, fill %.2f s"
          % (hz * 1e-9, db(S[0, 0]), db(S[1, 0]), db(S[2, 0]), db(S[3, 0]),
             np.degrees(np.angle(S[1, 0] / S[2, 0])), abs(S - S.T).max(),
             np.linalg.svd(S, compute_uv=False)[0], f["solver/dense_error"][k],
             f["solver/iterations"][k], f["timing/solve_s"][k], f["timing/fill_s"][k]))
PY
    ;;
  sweep101)
    log "the example's 101-point coupler sweep on the GPU"
    coupler_variant sweep101 's/^output:.*//'
    run_sweep sweep101
    ;;
  dense101)
    log "the example's 101-point coupler sweep with the dense check at every frequency"
    coupler_variant dense101 's/^output:.*//' \
      's/^sparsify:.*/sparsify: {density: 0.05, rule: mpie, check_dense: true}/'
    run_sweep dense101
    ;;
  cpu101)
    log "the example's 101-point coupler sweep on the host's $(nproc) cores (cpu backend)"
    coupler_variant cpu101 's/^output:.*//'
    run_sweep cpu101 cpu
    ;;
  twofull)
    log "two couplers, every entry of Z kept, 2.7, 3.0 and 3.3 GHz"
    sed -e 's/^frequencies:.*/frequencies: [2.7e9, 3.0e9, 3.3e9]/' \
        -e 's/^sparsify:.*/sparsify: {density: 1.0}/' \
        "$root/examples/two_couplers.yaml" >"$out/raw/two_full.yaml"
    run_sweep two_full
    ;;
  speed)
    # The whole sweep as a user runs it, every stage (docs/PERFORMANCE.md): the coupler example
    # with a cold and then a warm line cache, and the two couplers as shipped (cold).
    log "whole-sweep timings: coupler 101 points (cold, warm line cache), two couplers"
    export PLANARMOM_CACHE_DIR=$out/raw/line_cache
    rm -rf "$PLANARMOM_CACHE_DIR"
    coupler_variant speed101 's/^output:.*//'
    timed_sweep speed101
    mv "$out/raw/speed101.log" "$out/raw/speed101_cold.log"
    timed_sweep speed101
    cp "$root/examples/two_couplers.yaml" "$out/raw/two_speed.yaml"
    timed_sweep two_speed
    $py - "$out/raw/speed101.h5" "$out/raw/speed101_s.npy" <<'PY'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    np.save(sys.argv[2], np.stack([f["frequency"][()], *[f["s"][()][:, i, j]
            for i in range(4) for j in range(4)]]))
PY
    unset PLANARMOM_CACHE_DIR
    ;;
  reach)
    # The sparse rule's reach against every entry kept, on both boards (issue 16): for each
    # sparsify setting in REACH_LIST (dD = density D, a number = reach_heights) converge.py's
    # dense knob at 9 points and around the |S11| minimum. The line cache stays in the work tree
    # (.line-cache, ignored), so later calls on the same warm machine reuse it.
    log "mpie reach against every entry kept: ${REACH_LIST:-d0.05 4.6 6 8 11 16}"
    export PLANARMOM_CACHE_DIR=$root/.line-cache
    for ex in branch_line_coupler branch_line_coupler_fr4; do
      for r in ${REACH_LIST:-d0.05 4.6 6 8 11 16}; do
        name=reach_${ex}_$r
        case $r in
          d*) rule="{rule: mpie, density: ${r#d}}" ;;
          *) rule="{rule: mpie, reach_heights: $r}" ;;
        esac
        sed -e "s/^sparsify:.*/sparsify: $rule/" "$root/examples/$ex.yaml" >"$out/raw/$name.yaml"
        $py "$root/tools/converge.py" "$out/raw/$name.yaml" --knobs dense --points 9 \
          --backend cuda --planarmom "$build/apps/planarmom" --work "$out/raw/$name" \
          --json "$out/raw/$name.json" >"$out/raw/$name.txt" 2>&1
        echo "$name: exit $?; $(grep -h -o 'density [0-9.e-]* for [^(]*' \
          "$out/raw/$name/baseline.log" | head -1)" | tee -a "$out/summary.txt"
        tail -3 "$out/raw/$name.txt" | tee -a "$out/summary.txt"
      done
    done
    unset PLANARMOM_CACHE_DIR
    ;;
  adaptive)
    # Each of ADAPTIVE_EXAMPLES (default every example with a band) at 101 points, swept
    # adaptively with the line cache cold and warm, then in full: whole-process times, solves, and
    # the adaptive S at every point against the full sweep's (sweep_check close at the tolerance).
    for cfg in ${ADAPTIVE_EXAMPLES:-examples/branch_line_coupler.yaml examples/branch_line_coupler_fr4.yaml examples/two_couplers.yaml examples/mitred_bend.yaml examples/rat_race.yaml examples/edge_coupled_filter.yaml}; do
      name=$(basename "$cfg" .yaml)
      export PLANARMOM_CACHE_DIR=$out/raw/cache_$name
      sed -e "s/points: [0-9]*}/points: 101, adaptive: true}/" "$root/$cfg" >"$out/raw/${name}_adaptive.yaml"
      sed -e "s/points: [0-9]*}/points: 101, adaptive: false}/" "$root/$cfg" >"$out/raw/${name}_full.yaml"
      timed_sweep "${name}_adaptive"
      grep -E "adaptive sweep: [0-9]+ of" "$out/raw/${name}_adaptive.log" | tee -a "$out/summary.txt"
      mv "$out/raw/${name}_adaptive.h5" "$out/raw/${name}_adaptive_cold.h5"
      timed_sweep "${name}_adaptive"
      timed_sweep "${name}_full"
      "$build/tests/sweep_check" adaptive "$out/raw/${name}_adaptive.h5" | tee -a "$out/summary.txt"
      "$build/tests/sweep_check" close "$out/raw/${name}_full.h5" "$out/raw/${name}_adaptive.h5" \
        1e-3 | sed "s/^/$name adaptive against full: /" | tee -a "$out/summary.txt"
      unset PLANARMOM_CACHE_DIR
    done
    ;;
  examples)
    # The examples EXAMPLES (default the polygon and coupled-line ones, issue 35) as shipped, 101
    # points, timed with the line cache cold then warm; then at REFINE_POINTS (default 21) points
    # on the shipped cell and on each cell of REFINE_CELLS_<name> (default the cell halved),
    # raw/NAME_cellC.sNp for comparison.
    for cfg in ${EXAMPLES:-examples/mitred_bend.yaml examples/rat_race.yaml examples/edge_coupled_filter.yaml}; do
      name=$(basename "$cfg" .yaml)
      export PLANARMOM_CACHE_DIR=$out/raw/cache_$name
      cp "$root/$cfg" "$out/raw/$name.yaml"
      timed_sweep "$name"
      rm -f "$out/raw/$name.h5"
      timed_sweep "$name"
      cell=$(sed -n 's/^mesh: {cell_mm: \([0-9.]*\)}.*/\1/p' "$root/$cfg")
      var=REFINE_CELLS_$name
      for c in "$cell" ${!var:-$(awk "BEGIN { print $cell / 2 }")}; do
        sed -e "s/^mesh: .*/mesh: {cell_mm: $c}/" -e "s/points: 101/points: ${REFINE_POINTS:-21}/" \
          "$root/$cfg" >"$out/raw/${name}_cell$c.yaml"
        timed_sweep "${name}_cell$c"
      done
      unset PLANARMOM_CACHE_DIR
    done
    ;;
  converge)
    # converge.py on CONVERGE_CONFIGS (repo-relative; default both coupler examples) at 9 points
    # and around the |S11| minimum, knobs CONVERGE_KNOBS, each config's sparsify line replaced
    # by CONVERGE_SPARSIFY when set (e.g. "{density: 1.0}").
    log "convergence study: ${CONVERGE_CONFIGS:-examples/branch_line_coupler.yaml examples/branch_line_coupler_fr4.yaml}"
    export PLANARMOM_CACHE_DIR=$root/.line-cache
    for cfg in ${CONVERGE_CONFIGS:-examples/branch_line_coupler.yaml examples/branch_line_coupler_fr4.yaml}; do
      name=converge_$(basename "$cfg" .yaml)
      if [ -n "${CONVERGE_SPARSIFY:-}" ]; then
        sed -e "s/^sparsify:.*/sparsify: $CONVERGE_SPARSIFY/" "$root/$cfg" >"$out/raw/$name.yaml"
      else
        cp "$root/$cfg" "$out/raw/$name.yaml"
      fi
      $py "$root/tools/converge.py" "$out/raw/$name.yaml" --points 9 --backend cuda \
        --knobs "${CONVERGE_KNOBS:-density,dense,feeds,cells,tables,tolerance}" \
        --planarmom "$build/apps/planarmom" --work "$out/raw/$name" --json "$out/raw/$name.json" \
        >"$out/raw/$name.txt" 2>&1
      echo "$name: exit $?" | tee -a "$out/summary.txt"
      sed -n '/frequencies .*GHz/,$p' "$out/raw/$name.txt" | tee -a "$out/summary.txt"
    done
    unset PLANARMOM_CACHE_DIR
    ;;
  fr4)
    # The FR-4 example as shipped (timed), then its design scan: every entry of Z kept, |S11|
    # near its minimum for arm lengths (series:shunt, centre to centre, mm) around the shipped
    # ones. FR4_ARMS and FR4_FREQUENCIES (a YAML frequencies map) override the scan's.
    log "FR-4 coupler: the example as shipped, then arm lengths with every entry of Z kept"
    cp "$root/examples/branch_line_coupler_fr4.yaml" "$out/raw/fr4.yaml"
    timed_sweep fr4
    for arms in ${FR4_ARMS:-18.0:18.4 18.4:18.8 18.8:19.2}; do
      name=fr4_${arms%%:*}_${arms##*:}
      $py "$root/tools/fr4_coupler.py" "${arms%%:*}" "${arms##*:}" --density 1.0 \
        --frequencies "${FR4_FREQUENCIES:-{start_hz: 2.2e9, stop_hz: 2.6e9, points: 21\}}" \
        >"$out/raw/$name.yaml"
      timed_sweep "$name"
    done
    ;;
  speed02)
    log "the coupler on 0.2 mm cells, 21 points 2-4 GHz, the example's settings (timed)"
    coupler_variant speed02 's/^frequencies:.*/frequencies: {start_hz: 2.0e9, stop_hz: 4.0e9, points: 21}/' \
      's/^mesh:.*/mesh: {cell_mm: 0.2}/' 's/^output:.*//'
    timed_sweep speed02
    ;;
  ab)
    # The build of another source tree (AB_BASE_SRC, default .base-src: e.g. `git archive` of the
    # commit before a change, unpacked there) against this one on every route, both backends:
    # tools/ab_sweeps.sh (the examples on the GPU; the route variants on the GPU and the host).
    base_src=${AB_BASE_SRC:-$root/.base-src}
    log "A/B: $base_src against this tree"
    cmake -S "$base_src" -B "$root/build-base" -G Ninja "${cmake_args[@]}" >"$out/raw/ab_configure.log" 2>&1 &&
      cmake --build "$root/build-base" --parallel "$(nproc)" --target planarmom >"$out/raw/ab_build.log" 2>&1 ||
      { fail "A/B: the base tree did not build"; grep -E "error" "$out/raw/ab_build.log" | head; continue; }
    for b in cuda cpu; do
      which=all
      [ $b = cpu ] && which=variants
      bash "$root/tools/ab_sweeps.sh" "$root/build-base/apps/planarmom" "$build/apps/planarmom" \
        "$out/raw/ab_$b" $b $which 2>&1 | tee -a "$out/summary.txt"
    done
    ;;
  compare)
    # After speed, in the same run: S of its GPU sweeps against the cpu backend's (the host
    # fill, the host thresholding and the host line checks), same configs and frequencies.
    log "S on the GPU (speed stage) against the cpu backend"
    for ex in branch_line_coupler:speed101 two_couplers:two_speed; do
      sed -e 's/^output:.*//' "$root/examples/${ex%%:*}.yaml" >"$out/raw/${ex%%:*}_cpu.yaml"
      "$build/apps/planarmom" -q sweep "$out/raw/${ex%%:*}_cpu.yaml" --backend cpu \
        --no-line-cache >"$out/raw/${ex%%:*}_cpu.log" 2>&1
      echo "cpu ${ex%%:*}: exit $?" | tee -a "$out/summary.txt"
      $py - "$out/raw/${ex##*:}.h5" "$out/raw/${ex%%:*}_cpu.h5" <<'PY' 2>&1 | tee -a "$out/summary.txt"
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as g, h5py.File(sys.argv[2], "r") as c:
    fg, fc, sg, sc = g["frequency"][()], c["frequency"][()], g["s"][()], c["s"][()]
    idx = [int(np.argmin(abs(fg - f))) for f in fc]
    assert abs(fg[idx] - fc).max() == 0, "frequencies differ"
    print("%s: GPU against cpu at %d frequencies: max |dS| %.2e" % (sys.argv[1], len(fc),
          abs(sg[idx] - sc).max()))
PY
    done
    ;;
  twocouplers)
    log "two couplers joined by a 360-degree line, against the cascade of the single coupler"
    # The single coupler at the two-coupler sweep's own frequencies and density, then the pair.
    band=$(grep '^frequencies:' "$root/examples/two_couplers.yaml")
    density=$(grep '^sparsify:' "$root/examples/two_couplers.yaml" | sed 's/ *#.*//')
    coupler_variant single "s/^frequencies:.*/$band/" "s/^sparsify:.*/$density/"
    run_sweep single
    cp "$root/examples/two_couplers.yaml" "$out/raw/two_couplers.yaml"
    run_sweep two_couplers
    $py "$root/tools/cascade_check.py" "$out/raw/single.h5" "$out/raw/two_couplers.h5" \
      --plot "$out/raw/cascade.png" 2>&1 | tee -a "$out/summary.txt"
    ;;
  refine)
    # The example as it runs (its mesh, sparsify and solver settings) and on cells halved.
    log "mesh refinement: the example's 0.2 x 0.4 mm cells and 0.1 x 0.2 mm, 21 frequencies"
    band='s/^frequencies:.*/frequencies: {start_hz: 2.0e9, stop_hz: 4.0e9, points: 21}/'
    coupler_variant cells "$band"
    coupler_variant halved "$band" 's/^mesh:.*/mesh: {cell_mm: [0.1, 0.2]}/'
    run_sweep cells
    run_sweep halved
    $py "$root/tools/sweep_report.py" "$out/raw/halved.h5" --compare "$out/raw/cells.h5" |
      tee -a "$out/summary.txt"
    ;;
  refine_full)
    # The mesh alone: 0.4 and 0.2 mm cells with every entry of Z kept (0.2 mm: 9.1k unknowns).
    log "mesh refinement: 0.4 and 0.2 mm cells, 11 frequencies, every entry kept"
    band='s/^frequencies:.*/frequencies: {start_hz: 2.0e9, stop_hz: 4.0e9, points: 11}/'
    coupler_variant full04 "$band" 's/^sparsify:.*/sparsify: {density: 1.0}/' \
      's/^mesh:.*/mesh: {cell_mm: 0.4}/'
    coupler_variant full02 "$band" 's/^sparsify:.*/sparsify: {density: 1.0}/' \
      's/^mesh:.*/mesh: {cell_mm: 0.2}/'
    run_sweep full04
    run_sweep full02
    $py "$root/tools/sweep_report.py" "$out/raw/full02.h5" --compare "$out/raw/full04.h5" |
      tee -a "$out/summary.txt"
    ;;
  density | density_mpie)
    # The issue's magnitude rule, or the structure-preserving one (sparsify.rule: mpie).
    rule=magnitude; [ "$stage" = density_mpie ] && rule=mpie
    log "sparsification, rule $rule: density 0.01-0.2 against every entry kept, dense check, 11 frequencies"
    band='s/^frequencies:.*/frequencies: {start_hz: 2.0e9, stop_hz: 4.0e9, points: 11}/'
    for d in ${PLANARMOM_DENSITIES:-1.0 0.2 0.1 0.05 0.02 0.01}; do
      name=${rule}_$d
      coupler_variant "$name" "$band" \
        "s/^sparsify:.*/sparsify: {density: $d, rule: $rule, check_dense: true}/"
      run_sweep "$name"
      [ "$d" = 1.0 ] || $py "$root/tools/sweep_report.py" "$out/raw/$name.h5" \
        --compare "$out/raw/${rule}_1.0.h5" | tee -a "$out/summary.txt"
      $py - "$out/raw/$name.h5" <<'PY' | tee -a "$out/summary.txt"
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    print("  error % by frequency: " + " ".join(
        f"{hz * 1e-9:.1f}:{100 * e:.3g}" for hz, e in zip(f["frequency"][:], f["solver/dense_error"][:])))
PY
    done
    ;;
  sanitize)
    log "compute-sanitizer"
    filter='CudaKernels*:CudaSolvers.MultiRhs*:CudaPrecision*'
    for tool in memcheck racecheck; do
      compute-sanitizer --tool $tool --error-exitcode 9 "$build/tests/test_cuda" \
        --gtest_filter="$filter" >"$out/raw/sanitizer_$tool.log" 2>&1
      rc=$?
      echo "$tool: exit $rc $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/raw/sanitizer_$tool.log" | tail -1)" |
        tee -a "$out/summary.txt"
      [ "$rc" -eq 0 ] || fail "compute-sanitizer $tool exited $rc"
    done
    ;;
  sass)
    log "SASS loads"
    lib="$build/gpusolver/libplanarmom_gpusolver.a"
    cuobjdump -sass "$lib" >"$out/raw/sass.txt" 2>&1
    grep -oE "LDG[.A-Z0-9]*" "$out/raw/sass.txt" | sort | uniq -c | tee -a "$out/summary.txt"
    # Per complex kernel: its global loads by width (.128 = one 16-byte complex value).
    awk '/Function :/ { f = $3 } /LDG/ { match($0, /LDG[.A-Z0-9]*/); n[f " " substr($0, RSTART, RLENGTH)]++ }
         END { for (k in n) print n[k], k }' "$out/raw/sass.txt" |
      grep -E "dcomplex" | grep -E "csr_kernel|csr_long_rows|ell_kernel|dot_kernel|bicg_update" |
      sed -E 's/_Z[0-9]+//' | sort -k2 | tee -a "$out/summary.txt"
    ;;
  bench)
    log "benchmarks"
    exe="$build/apps/planarmom"
    "$exe" -q device-info | tee -a "$out/summary.txt"
    mats=$root/../shared/matrices
    sizes=2000,4000,6000,8000,10000
    run_bench() {  # name, then bench arguments (--solver bicg,cocg unless given)
      local name=$1; shift
      local solver=(--solver bicg,cocg)
      [[ " $* " == *" --solver "* ]] && solver=()
      "$exe" -q bench "${solver[@]}" --json "$out/raw/bench_$name.json" "$@" \
        >"$out/raw/bench_$name.txt" 2>&1
      echo "bench $name: exit $?" | tee -a "$out/summary.txt"
    }
    for backend in cuda baseline cpu; do
      run_bench "$backend" "$mats" --field complex --synthetic $sizes --backend $backend
    done
    run_bench cuda_hyb --synthetic $sizes --backend cuda --format hyb
    run_bench cuda_transposed --synthetic $sizes --backend cuda --solver bicg --adjoint transposed
    run_bench cuda_nographs --synthetic $sizes --backend cuda --no-graphs
    run_bench cuda_nrhs4 --synthetic 4000,10000 --backend cuda --nrhs 4 --rhs random
    run_bench cuda_nrhs1 --synthetic 4000,10000 --backend cuda --nrhs 1 --rhs random
    for backend in cuda baseline cpu; do
      run_bench large_$backend --synthetic 32000 --backend $backend --warmup 1 --reps 1
    done
    ;;
  heat)
    log "heat equation (CG paper): time per CG iteration, 10 steps of dt 1e-4, n = 512 1024 2048"
    exe="$build/apps/planarmom"
    heat_help=$("$exe" heat --help)
    ssor=(--precond ssor)
    run_heat() {  # name, then heat arguments
      local name=$1; shift
      "$exe" heat --steps 10 --dt 1e-4 --no-plot -o "$out/raw/heat_$name.h5" "$@" \
        >"$out/raw/heat_$name.txt" 2>"$out/raw/heat_$name.log"
      echo "heat $name: exit $?; $(grep -E '^(solver|iterations|time):' "$out/raw/heat_$name.txt" |
        paste -sd ';')" | tee -a "$out/summary.txt"
    }
    for n in 512 1024 2048; do
      OMP_NUM_THREADS=1 run_heat "cpu1_$n" --n "$n" --backend cpu
      run_heat "cpu_$n" --n "$n" --backend cpu
      run_heat "cuda_csr_$n" --n "$n" --backend cuda --format csr
      if grep -q ellr <<<"$heat_help"; then
        run_heat "cuda_ellr_$n" --n "$n" --backend cuda --format ellr
      else
        echo "heat cuda_ellr_$n: skipped, this build has no --format ellr" | tee -a "$out/summary.txt"
      fi
      if grep -qi ssor <<<"$heat_help"; then
        run_heat "cpu_ssor_$n" --n "$n" --backend cpu "${ssor[@]}"
        run_heat "cuda_csr_ssor_$n" --n "$n" --backend cuda --format csr "${ssor[@]}"
      else
        echo "heat ssor_$n: skipped, this build has no SSOR preconditioner" | tee -a "$out/summary.txt"
      fi
    done
    ;;
  seeds)
    # The multi-algorithm paper's runs (Jacobi, Gauss-Seidel, BiCG, BiCGSTAB on the real and the
    # artificial matrices, cuda and the host's cores).
    log "seed papers: solvers on ../shared/matrices and artificial matrices"
    exe="$build/apps/planarmom"
    mats=$root/../shared/matrices
    art=100,1000,10000,100000,1000000,3000000
    bench_run seeds solvers_cuda "$mats" --artificial $art --solver jacobi,gauss-seidel,bicg,bicgstab \
      --backend cuda
    # One timed run on the host: its non-converging runs take minutes at 5000 iterations.
    bench_run seeds solvers_cpu "$mats" --artificial $art --solver jacobi,gauss-seidel,bicg,bicgstab \
      --backend cpu --warmup 0 --reps 1
    ;;
  seeds_formats)
    # BiCGSTAB's iteration time per storage format on the same matrices.
    log "seed papers: BiCGSTAB per format"
    exe="$build/apps/planarmom"
    mats=$root/../shared/matrices
    art=100,1000,10000,100000,1000000,3000000
    for f in csr hyb ellr sellp; do
      bench_run seeds "format_$f" "$mats" --artificial $art --solver bicgstab --backend cuda --format $f
    done
    bench_run seeds format_dia --artificial $art --solver bicgstab --backend cuda --format dia
    ;;
  precision)
    # The multi-algorithm paper's single-precision columns (as `seeds`, in float / complex<float>),
    # then mixed-precision refinement against double and single BiCGSTAB at tolerance 1e-10,
    # which single precision alone cannot reach, plain and compensated sums.
    log "precision: single-precision seeds, mixed refinement against double"
    exe="$build/apps/planarmom"
    mats=$root/../shared/matrices
    art=100,1000,10000,100000,1000000,3000000
    bench_run precision seeds_single_cuda "$mats" --artificial $art --precision single \
      --solver jacobi,gauss-seidel,bicg,bicgstab --backend cuda
    for sum in plain compensated; do
      bench_run precision "mixed_$sum" "$mats" --artificial $art --solver bicgstab --backend cuda \
        --precision double,single,mixed --tol 1e-10 --summation $sum
      $py "$root/tools/precision_check.py" "$out/raw/precision_mixed_$sum.json" \
        >"$out/raw/precision_check_$sum.txt" 2>&1
      echo "precision_check $sum: exit $?" | tee -a "$out/summary.txt"
      tail -2 "$out/raw/precision_check_$sum.txt" | tee -a "$out/summary.txt"
    done
    ;;
  precision_cpu)
    # The single-precision seeds on the host's cores (one timed run: minutes).
    log "precision: single-precision seeds on the cpu"
    bench_run precision seeds_single_cpu "$root/../shared/matrices" \
      --artificial 100,1000,10000,100000,1000000,3000000 --precision single \
      --solver jacobi,gauss-seidel,bicg,bicgstab --backend cpu --warmup 0 --reps 1
    ;;
  auto)
    # --solver auto --format auto against every (solver, format) pair on the same matrices
    # (DIA only on the artificial ones, the rest refuse it), scored by tools/auto_check.py.
    log "automatic choice against every (solver, format) pair"
    exe="$build/apps/planarmom"
    mats=$root/../shared/matrices
    art=1000,100000,3000000
    pairs() {  # name, then bench arguments
      "$exe" -q bench --max-iter 5000 --backend cuda \
        --solver bicg,cocg,bicgstab,cg,jacobi \
        --json "$out/raw/pairs_$1.json" "${@:2}" >"$out/raw/pairs_$1.txt" 2>&1
      echo "pairs $1: exit $?" | tee -a "$out/summary.txt"
    }
    for f in csr hyb ellr sellp; do pairs "$f" "$mats" --artificial $art --format "$f"; done
    pairs dia --artificial $art --format dia
    # auto: the feature rule alone; auto_trial: with --auto-trial, whose trial time counts in
    # the solve time; its log (without -q) holds each candidate's measurements and the pick.
    autos() {  # name, then extra bench arguments
      "$exe" bench --max-iter 5000 --backend cuda --solver auto --format auto "$mats" \
        --artificial $art --json "$out/raw/$1.json" "${@:2}" \
        >"$out/raw/$1.txt" 2>"$out/raw/$1.log"
      echo "$1: exit $?" | tee -a "$out/summary.txt"
      $py "$root/tools/auto_check.py" "$out"/raw/pairs_*.json --auto "$out/raw/$1.json" \
        >"$out/raw/$1_check.txt" 2>&1
      echo "$1 auto_check: exit $?" | tee -a "$out/summary.txt"
      tail -2 "$out/raw/$1_check.txt" | tee -a "$out/summary.txt"
    }
    autos auto
    autos auto_trial --auto-trial
    ;;
  kernels)
    log "per-kernel benchmark (N = 32000, 46 M non-zeros)"
    "$build/bench/planarmom-kernel-bench" >"$out/raw/kernel_bench.txt" 2>&1
    echo "kernel bench: exit $?" | tee -a "$out/summary.txt"
    grep -E "SpMV|iteration" "$out/raw/kernel_bench.txt" | tee -a "$out/summary.txt"
    ;;
  paper_spmv | paper_saving)
    # The BiCGSTAB paper's Table 3 (SpMV GFLOP/s per format against cuSPARSE), and Table 5
    # (merged BiCGSTAB against the cuSPARSE + cuBLAS route, with Table 3 measured again).
    table=spmv; [ "$stage" = paper_saving ] && table=all
    log "BiCGSTAB paper tables ($table): shared matrices and synthetic MoM-like ones"
    "$build/bench/planarmom-bicgstab-bench" "$root/../shared/matrices" \
      --synthetic 2000,4000,6000,8000,10000,32000 --table $table --max-iter 3000 \
      >"$out/raw/$stage.md" 2>"$out/raw/$stage.log"
    echo "$stage: exit $?" | tee -a "$out/summary.txt"
    grep -E "error|warning" "$out/raw/$stage.log" | head -10 | tee -a "$out/summary.txt"
    tee -a "$out/summary.txt" <"$out/raw/$stage.md"
    ;;
  *) echo "unknown stage $stage" >&2; exit 2 ;;
  esac
done
if [ ${#failed[@]} -gt 0 ]; then
  log "done: ${#failed[@]} check(s) failed"
  printf '  %s\n' "${failed[@]}" | tee -a "$out/summary.txt"
  exit 1
fi
log "done"
