#!/usr/bin/env bash
# GPU step of the code-generation issue, one device call: builds the CUDA
# runtime (no compiler, no Python), builds every emitted .cu of ARTIFACTS
# (bench/make_gpu_artifacts.sh, compiled on the dev machine) with
# bench/gpu_e2e_driver.cu, and runs it:
#   - check artifacts (keys.bin present): outputs compared residue for
#     residue with the CPU run of the same emitted program (identical
#     expected), then timed;
#   - timing artifacts (rot8_sum_B, rot8_sum_B_nohoist: the sum of 8
#     rotations at parameter set B, hoisted / hoisting disabled): keys and
#     inputs made on the GPU host, timed.
# Times: median of RUNS (>= 20) runs of the entry function, CUDA events,
# after one warm-up run. Writes under $OUT: gpu_e2e.jsonl (one line per
# program), gpu_e2e.md (the table for bench/RESULTS.md), build logs.
#   OUT=... bash bench/gpu_e2e.sh [ARTIFACTS=out/artifacts] [RUNS=21]
set -uo pipefail
cd "$(dirname "$0")/.."
ART=${1:-out/artifacts}
RUNS=${2:-21}
OUT=${OUT:-$PWD/out}
BUILD=${EMBER_GPU_BUILD:-/tmp/ember-gpu-build}
JOBS=${JOBS:-16}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ARCH=${ARCH:-sm_90}
mkdir -p "$OUT"
[ -d "$ART" ] || { echo "no artifacts in $ART (run bench/make_gpu_artifacts.sh and carry the folder)"; exit 1; }

# Reuse bench/gpu_run.sh's build when it is there (same directory default).
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DEMBER_BUILD_COMPILER=OFF -DEMBER_ENABLE_CUDA=ON -DEMBER_BUILD_PYTHON=OFF \
    -DEMBER_BUILD_TESTS=OFF >"$OUT/gpu_e2e_configure.log" 2>&1 ||
    { tail -n 40 "$OUT/gpu_e2e_configure.log"; exit 1; }
fi
ninja -C "$BUILD" -j "$JOBS" EmberCuda >"$OUT/gpu_e2e_build.log" 2>&1 ||
  { grep -B2 -A8 error "$OUT/gpu_e2e_build.log" | head -n 60; exit 1; }
RTLIB="$BUILD/runtime/libEmberRuntime.a"
CULIB="$BUILD/runtime/cuda/libEmberCuda.a"

: >"$OUT/gpu_e2e.jsonl"
status=0
# Build every program first, JOBS at a time (nvcc is single-threaded; the
# driver is compiled once), then run them one after the other.
"$NVCC" -arch="$ARCH" -std=c++17 -O3 -Iruntime/include -c \
  bench/gpu_e2e_driver.cu -o "$BUILD/gpu_e2e_driver.o" \
  >"$OUT/gpu_e2e_nvcc_driver.log" 2>&1 ||
  { tail -n 20 "$OUT/gpu_e2e_nvcc_driver.log"; exit 1; }
names=()
for dir in "$ART"/*/; do
  name=$(basename "${dir%/}")
  [ -f "$ART/$name/$name.cu" ] && names+=("$name")
done
build_one() {
  rm -f "$BUILD/gpu_e2e_$1"
  "$NVCC" -arch="$ARCH" -std=c++17 -O3 -Iruntime/include -diag-suppress 177 \
    "$ART/$1/$1.cu" "$BUILD/gpu_e2e_driver.o" -o "$BUILD/gpu_e2e_$1" "$CULIB" \
    "$RTLIB" -lcrypto -Xcompiler -fopenmp >"$OUT/gpu_e2e_nvcc_$1.log" 2>&1
}
export -f build_one
export NVCC ARCH ART BUILD CULIB RTLIB OUT
start=$(date +%s)
printf '%s\n' "${names[@]}" | xargs -P "$JOBS" -I{} bash -c 'build_one {}'
echo "nvcc of ${#names[@]} programs: $(( $(date +%s) - start )) s"
for name in "${names[@]}"; do
  dir="$ART/$name"
  exe="$BUILD/gpu_e2e_$name"
  if [ ! -x "$exe" ]; then
    echo "$name: nvcc failed"; tail -n 20 "$OUT/gpu_e2e_nvcc_$name.log"; status=1; continue
  fi
  mode=bench
  [ -f "$dir/keys.bin" ] && mode=check
  if line=$(${E2E_WRAPPER:-} "$exe" "$mode" "$dir" "$RUNS"); then
    echo "$line" | tee -a "$OUT/gpu_e2e.jsonl"
  else
    echo "$name: FAILED: $line"; status=1
    echo "$line" >>"$OUT/gpu_e2e.jsonl"
  fi
done

python3 - "$OUT/gpu_e2e.jsonl" "$ART" >"$OUT/gpu_e2e.md" <<'PY'
import json, os, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip().startswith("{")]
by = {os.path.basename(r["dir"].rstrip("/")): r for r in rows}
mem = {}
path = os.path.join(sys.argv[2], "memory.txt")
if os.path.exists(path):
    for l in open(path):
        k, _, v = l.partition(": ")
        mem[k] = v.strip()
print("| program | mode | residues identical to CPU | median ms | min ms | planned memory |")
print("| --- | --- | --- | --- | --- | --- |")
for k, r in sorted(by.items()):
    same = {True: "yes", False: f"NO ({r['mismatches']} differ)", None: "-"}[r["identical"]]
    print(f"| {k} | {r['mode']} | {same} | {r['median_ms']:.3f} | {r['min_ms']:.3f} | {mem.get(k, '')} |")
for base in ("rot8_sum", "rot8_sum_B"):
    h, n = by.get(base), by.get(base + "_nohoist")
    if h and n:
        print(f"\n{base}: hoisted {h['median_ms']:.3f} ms vs hoisting disabled "
              f"{n['median_ms']:.3f} ms (median of {h['runs']}): "
              f"{n['median_ms'] / h['median_ms']:.2f}x")
PY
cat "$OUT/gpu_e2e.md"
exit $status
