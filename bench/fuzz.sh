#!/usr/bin/env bash
# Builds the fuzz harnesses (if needed) and runs each for SECONDS (default
# 60), printing executions, exec/s, corpus size and crashes per harness.
#
#   bench/fuzz.sh [SECONDS] [HARNESS...]
#
# Harnesses: fuzz_params fuzz_objects fuzz_mlir (C++, libFuzzer + ASan +
# UBSan, built with clang in $EMBER_FUZZ_BUILD_DIR, default build-fuzz) and
# fuzz_manifest (Python, atheris); default: all four. Each run starts from
# the committed corpus fuzz/corpus/<harness>/ and fresh seeds (real
# serialized objects from ember_fuzz_seeds; the lit tests of
# tests/lit/Dialect split at `// -----`), writes new inputs to
# <build>/fuzz/corpus/<harness>/ and crashes to <build>/fuzz/crashes/<harness>/.
#
#   EMBER_FUZZ_PARALLEL=2   harnesses run at once (default 1; the machine
#                           has few cores)
#   EMBER_FUZZ_MERGE=1      afterwards, merge what raised coverage into the
#                           committed corpus: inputs of at most
#                           EMBER_FUZZ_MERGE_MAX_BYTES (default 6144), a
#                           greedy set cover of the new edges (libFuzzer
#                           -set_cover_merge=1 -use_counters=0; atheris:
#                           -merge=1), so that the corpus stays small
#   EMBER_FUZZ_JOBS=2       ninja jobs for the build
#   EMBER_FUZZ_NO_BUILD=1   use the harnesses already built (e.g. while
#                           another target builds in the same folder)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
seconds="${1:-60}"
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(fuzz_params fuzz_objects fuzz_mlir fuzz_manifest)
build="${EMBER_FUZZ_BUILD_DIR:-build-fuzz}"
parallel="${EMBER_FUZZ_PARALLEL:-1}"
work="$build/fuzz"

fuzz_bin() {
  if [ -x "$build/bin/$1" ]; then echo "$build/bin/$1"; else echo "$build/fuzz/$1"; fi
}

cxx_targets=()
for h in "${harnesses[@]}"; do
  case "$h" in
  fuzz_params | fuzz_objects | fuzz_mlir) cxx_targets+=("$h") ;;
  fuzz_manifest) ;;
  *) echo "unknown harness '$h'" >&2; exit 2 ;;
  esac
done

if [ ${#cxx_targets[@]} -gt 0 ]; then
  if [ ! -f "$build/build.ninja" ]; then
    echo "== configuring $build (clang, EMBER_FUZZ=ON)"
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DEMBER_FUZZ=ON \
      -DEMBER_ENABLE_CUDA=OFF -DEMBER_BUILD_PYTHON=OFF -DEMBER_BUILD_TESTS=OFF >/dev/null
  fi
  if [ "${EMBER_FUZZ_NO_BUILD:-0}" != 1 ]; then
    echo "== building ${cxx_targets[*]}"
    ninja -C "$build" -j"${EMBER_FUZZ_JOBS:-2}" "${cxx_targets[@]}" ember_fuzz_seeds >/dev/null
  fi
  "$(fuzz_bin ember_fuzz_seeds)" "$work/seeds" >/dev/null
fi
# MLIR seeds: every case of the dialect tests.
mkdir -p "$work/seeds/fuzz_mlir"
for f in tests/lit/Dialect/*/*.mlir; do
  d="$(basename "$(dirname "$f")")"
  awk -v out="$work/seeds/fuzz_mlir/${d}_$(basename "$f" .mlir)" '
    BEGIN { n = 0 } /^\/\/ -----/ { n++; next } { print > (out "_" n ".mlir") }' "$f"
done

run_one() {
  local h="$1" corpus="$work/corpus/$1" crashes="$work/crashes/$1/" log="$work/$1.log"
  mkdir -p "$corpus" "$crashes" "fuzz/corpus/$h"
  local seeds=()
  [ -d "$work/seeds/$h" ] && seeds+=("$work/seeds/$h")
  local flags=(-max_total_time="$seconds" -print_final_stats=1 -timeout=10
    -rss_limit_mb=2048 -artifact_prefix="$crashes")
  if [ "$h" = fuzz_manifest ]; then
    # shellcheck disable=SC1091
    source .venv/bin/activate
    nice -n 10 env PYTHONPATH="$root/${EMBER_BUILD_DIR:-build}/python:$root/frontend" \
      python fuzz/fuzz_manifest.py "${flags[@]}" "$corpus" "fuzz/corpus/$h" \
      "${seeds[@]}" >"$log" 2>&1 || true
  else
    [ "$h" = fuzz_mlir ] && flags+=(-dict=fuzz/mlir.dict)
    # -fork=1: one worker process, restarted after a crash, timeout or OOM
    # (each saved under $crashes), so a run lasts SECONDS whatever it finds.
    nice -n 10 "$(fuzz_bin "$h")" "${flags[@]}" -fork=1 -ignore_crashes=1 \
      -ignore_timeouts=1 -ignore_ooms=1 "$corpus" "fuzz/corpus/$h" \
      "${seeds[@]}" >"$log" 2>&1 || true
  fi
  if [ "${EMBER_FUZZ_MERGE:-0}" = 1 ]; then
    if [ "$h" = fuzz_manifest ]; then
      env PYTHONPATH="$root/${EMBER_BUILD_DIR:-build}/python:$root/frontend" \
        python fuzz/fuzz_manifest.py -merge=1 "fuzz/corpus/$h" "$corpus" "${seeds[@]}" >>"$log" 2>&1
    else
      local small="$work/merge-candidates/$h"
      rm -rf "$small"
      mkdir -p "$small"
      find "$corpus" "${seeds[@]}" -type f \
        -size -"$((${EMBER_FUZZ_MERGE_MAX_BYTES:-6144} + 1))"c -exec cp {} "$small/" \;
      "$(fuzz_bin "$h")" -set_cover_merge=1 -use_counters=0 "fuzz/corpus/$h" \
        "$small" >>"$log" 2>&1
    fi
  fi
  local execs rate units last
  # In-process runs end with stat:: lines, fork-mode runs with a last
  # "#EXECS: cov: ... exec/s RATE ..." line.
  execs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)"
  rate="$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)"
  last="$(grep -E '^#[0-9]+: cov' "$log" | tail -1 || true)"
  # atheris exits at the time limit without stat:: lines: its last status line.
  [ -n "$execs" ] || [ -n "$last" ] ||
    last="$(grep -E '^#[0-9]+[[:space:]].*exec/s' "$log" | tail -1 | sed -E 's/^#([0-9]+)[[:space:]].*exec\/s: ([0-9]+).*/#\1: exec\/s \2/' || true)"
  if [ -n "$last" ]; then
    execs="$(sed -E 's/^#([0-9]+):.*/\1/' <<<"$last")"
    rate="$(sed -E 's/.*exec\/s ([0-9]+).*/\1/' <<<"$last")"
  fi
  units="$(find "$corpus" -type f | wc -l)"
  printf '%-14s %6ss  %10s execs  %6s exec/s  corpus %5s new + %4s committed files (%s)  crashes %s  (log %s)\n' \
    "$h" "$seconds" "${execs:-?}" "${rate:-?}" "$units" \
    "$(find "fuzz/corpus/$h" -type f | wc -l)" "$(du -sh "fuzz/corpus/$h" | cut -f1)" \
    "$(find "$crashes" -type f | wc -l)" "$log"
}

echo "== fuzzing ${harnesses[*]} for ${seconds}s each, $parallel at a time"
running=0
for h in "${harnesses[@]}"; do
  run_one "$h" &
  running=$((running + 1))
  if [ "$running" -ge "$parallel" ]; then
    wait -n
    running=$((running - 1))
  fi
done
wait
