#!/usr/bin/env bash
# One device call does everything for the CUDA backend: builds the runtime
# with -DEMBER_ENABLE_CUDA=ON (no compiler, no Python) outside the repo, runs
# the bit-exact GPU tests, runs the benchmarks, and writes under $OUT:
#   gpu.txt (nvidia-smi), build.log, ptxas.txt (registers / shared memory /
#   spills per kernel), tests.log, bench.log, gpu_results.json.
#   OUT=... bash bench/gpu_run.sh [SETS=ABC] [RUNS=30] \
#     [KLSS_SETS=athena40,athena24,B]
# KLSS_SETS (comma-separated, or none) are the sets of the hybrid-vs-KLSS
# key-switching section; SETS=none runs only that section. Environment: TESTS=0 / BENCH=0 skip a part,
# GTEST_FILTER picks tests (e.g. 'CudaKlss*'), TEST_TIMEOUT / BENCH_TIMEOUT
# (seconds, default 330 / 240) bound them.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
BUILD=${EMBER_GPU_BUILD:-/tmp/ember-gpu-build}
JOBS=${JOBS:-16}
SETS=${1:-ABC}
RUNS=${2:-30}
KLSS_SETS=${3:-athena40,athena24,B}
TESTS=${TESTS:-1}
BENCH=${BENCH:-1}
TEST_TIMEOUT=${TEST_TIMEOUT:-330}
BENCH_TIMEOUT=${BENCH_TIMEOUT:-240}
mkdir -p "$OUT"

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.total \
  --format=csv 2>&1 | tee "$OUT/gpu.txt"

# GoogleTest: build it from /usr/src/googletest when only headers are there.
extra=()
if ! ls /usr/lib/*/libgtest.* /usr/lib/libgtest.* /usr/local/lib/libgtest.* \
  >/dev/null 2>&1; then
  if [ -d /usr/src/googletest ]; then
    echo "building GoogleTest from /usr/src/googletest"
    cmake -S /usr/src/googletest -B /tmp/gtest-build -G Ninja \
      -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/tmp/gtest >/dev/null &&
      cmake --build /tmp/gtest-build -j "$JOBS" >/dev/null &&
      cmake --install /tmp/gtest-build >/dev/null
    extra+=(-DCMAKE_PREFIX_PATH=/tmp/gtest)
  fi
fi

start=$(date +%s)
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DEMBER_BUILD_COMPILER=OFF -DEMBER_ENABLE_CUDA=ON -DEMBER_BUILD_PYTHON=OFF \
  -DEMBER_CUDA_PTXAS_VERBOSE=ON "${extra[@]}" >"$OUT/configure.log" 2>&1 ||
  { tail -n 40 "$OUT/configure.log"; exit 1; }
ninja -C "$BUILD" -j "$JOBS" ember_cuda_tests ember_gpu_bench \
  >"$OUT/build.log" 2>&1 || { grep -B2 -A8 error "$OUT/build.log" | head -n 80; exit 1; }
echo "build: $(( $(date +%s) - start )) s"

# Resource report: one line per kernel (registers, shared memory, spills).
python3 - "$OUT/build.log" >"$OUT/ptxas.txt" <<'PY'
import re, subprocess, sys
name = None
rows = []
for line in open(sys.argv[1], errors="replace"):
    m = re.search(r"Compiling entry function '(\w+)'", line)
    if m:
        name = m.group(1)
        continue
    m = re.search(r"(\d+) bytes spill stores", line)
    if m and name:
        spill = m.group(1)
    m = re.search(r"Used (\d+) registers.*?(?:(\d+) bytes smem)?", line)
    if m and name:
        smem = re.search(r"(\d+) bytes smem", line)
        try:
            pretty = subprocess.run(["c++filt", name], capture_output=True,
                                    text=True).stdout.strip()
        except OSError:
            pretty = name
        pretty = re.sub(r"ember::cuda::\(anonymous namespace\)::", "", pretty)
        pretty = pretty.split("(")[0]
        rows.append((pretty, m.group(1), smem.group(1) if smem else "0", spill))
        name = None
print("kernel | registers | static smem bytes | spill store bytes")
for r in sorted(set(rows)):
    print(" | ".join(r))
PY
cat "$OUT/ptxas.txt"

# SASS instruction mix of the N = 2^16 NTT kernels (32 butterflies per
# thread): what an int32-instruction count per butterfly rests on.
if command -v cuobjdump >/dev/null; then
  cuobjdump -sass "$BUILD/runtime/cuda/libEmberCuda.a" >"$OUT/sass.txt" 2>&1
  python3 - "$OUT/sass.txt" <<'PY' || true
import collections, re, sys
fn, counts = None, {}
for line in open(sys.argv[1], errors="replace"):
    m = re.search(r"Function : (\S+)", line)
    if m:
        fn = m.group(1)
        counts[fn] = collections.Counter()
        continue
    m = re.match(r"\s+/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)(\.[A-Z0-9_.]+)?", line)
    if m and fn:
        counts[fn][m.group(1)] += 1
for fn, c in counts.items():
    if "16" not in fn or "ntt" not in fn:
        continue
    total = sum(v for k, v in c.items() if k not in ("NOP", "BRA", "EXIT"))
    top = ", ".join(f"{k} {v}" for k, v in c.most_common(8))
    name = re.sub(r"^_ZN5ember4cuda\w*?(ntt\w+?)E.*", r"\1", fn)
    print(f"SASS {name}: {total} instructions per thread "
          f"({total / 32:.1f} per butterfly): {top}")
PY
fi

test_rc=skipped
if [ "$TESTS" != 0 ]; then
  echo "== GPU tests (bit-exact against the CPU backend) =="
  timeout "$TEST_TIMEOUT" "$BUILD/runtime/cuda/tests/ember_cuda_tests" \
    --gtest_brief=1 2>&1 | tee "$OUT/tests.log" | head -n 80
  test_rc=${PIPESTATUS[0]}
  echo "tests exit code: $test_rc"
fi

bench_rc=skipped
if [ "$BENCH" != 0 ]; then
  echo "== benchmarks =="
  timeout "$BENCH_TIMEOUT" "$BUILD/bench/ember_gpu_bench" "$SETS" "$RUNS" \
    "$OUT/gpu_results.json" "$KLSS_SETS" 2>&1 | tee "$OUT/bench.log"
  bench_rc=${PIPESTATUS[0]}
fi
echo "tests exit code: $test_rc, bench exit code: $bench_rc"
