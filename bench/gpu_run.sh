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
# (seconds, default 330 / 240) bound them. E2E='out/artifacts ...' also runs
# bench/gpu_e2e.sh on each carried artifact folder (results in
# $OUT/e2e_<folder>/). SANITIZE=1 also runs compute-sanitizer (logs
# $OUT/sanitize_*.log): memcheck over the tests SAN_MEMCHECK_FILTER picks
# (default: the small sets) and over the emitted programs SAN_PROGRAMS names
# (default poly_eval; check mode), racecheck and synccheck over
# SAN_RACE_FILTER (default: the small-set primitives; SAN_SYNC_FILTER gives
# synccheck its own). PROFILE='name ...'
# times the kernels of one run of those emitted programs with Nsight Compute
# ($OUT/profile_<name>.txt). PY_GPU=out/py_gpu also builds the runtime's
# Python module with the CUDA backend and runs bench/gpu_python.py on those
# artifacts (bench/make_python_gpu_artifacts.py): programs loaded and run
# from Python with graphs on and off ($OUT/gpu_python.log). PROFILE_PY='name
# ...' (with PY_GPU) lists the kernels of one run of those programs, compiled
# and one by one, with Nsight Compute ($OUT/profile_py_<name>_<form>.txt).
# NCU_PY='name:regex' (with PY_GPU) profiles those kernels of one run with
# every Nsight Compute section (see where it runs).
# PY_BENCH=0 skips gpu_python.py (a profile only). AB='KNOB=a,b name ...'
# (with PY_GPU) replays a knob's settings in turn in one process
# (bench/gpu_ab.py, $OUT/gpu_ab.jsonl). TRACE_PY='name ...'
# (with PY_GPU) sums the kernels of graph replays by class from CUPTI
# (bench/gpu_trace.py, $OUT/gpu_trace.jsonl). TFHE=1 builds the Python
# module and runs bench/tfhe_gpu.py (FHEW/TFHE gates and lookup tables over
# a batch of TFHE_BATCH, default 16384; $OUT/tfhe_gpu.json; TFHE_BENCH=0
# skips it), and with
# TFHE_PROGRAMS=out/tfhe_programs (bench/tfhe_programs.py save) the compiled
# programs on the CPU and the GPU ($OUT/tfhe_programs.log); TFHE_NCU=regex
# profiles one launch of that kernel for one ciphertext ($OUT/tfhe_ncu_*.csv:
# stall samples by SASS instruction). PROFILE_BENCH=SETS times
# every kernel of ember_gpu_bench SETS ($OUT/profile_bench.csv). BGV=1
# builds the Python module and runs tests/runtime/test_bgv.py, whose GPU test
# compares CudaBgvEvaluator and CudaBfvEvaluator with the CPU (needs pytest
# on the host). The set letter G of ember_gpu_bench times BGV and BFV at
# Phantom's shapes. BGV_PROGRAMS=out/bgv_gpu (bench/gpu_bgv_programs.py
# make) builds the Python module and runs the compiled BGV programs there:
# residues against the CPU artifact's, decryptions against numpy, times
# ($OUT/bgv_programs.log). MULTI=out/multi (bench/make_multi_gpu_artifacts.py,
# a host of 2+ GPUs) builds the Python module (with NCCL) and runs
# bench/gpu_multi.py: each program on one GPU and spread over two, residues
# compared, times and predictions ($OUT/gpu_multi.log, gpu_multi.json).
# NCCL_NVLS_ENABLE=0 (no NVLink multicast) is set for every run.
set -uo pipefail
export NCCL_NVLS_ENABLE=0
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
python_args=(-DEMBER_BUILD_PYTHON=OFF)
targets=(ember_cuda_tests ember_gpu_bench)
if [ -n "${PY_GPU:-}" ] || [ "${TFHE:-0}" != 0 ] || [ "${BGV:-0}" != 0 ] ||
  [ -n "${BGV_PROGRAMS:-}" ] || [ -n "${MULTI:-}" ]; then
  python_args=(-DEMBER_BUILD_PYTHON=ON -DPython3_EXECUTABLE="$(command -v python3)"
    -Dpybind11_DIR="$(python3 -m pybind11 --cmakedir)")
  targets+=(ember_runtime)
fi
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DEMBER_BUILD_COMPILER=OFF -DEMBER_ENABLE_CUDA=ON "${python_args[@]}" \
  -DEMBER_CUDA_PTXAS_VERBOSE=ON "${extra[@]}" >"$OUT/configure.log" 2>&1 ||
  { tail -n 40 "$OUT/configure.log"; exit 1; }
ninja -C "$BUILD" -j "$JOBS" "${targets[@]}" \
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
    m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores", line)
    if m and name:
        stack, spill = m.group(1), m.group(2)
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
        rows.append((pretty, m.group(1), smem.group(1) if smem else "0",
                     stack, spill))
        name = None
print("kernel | registers | static smem bytes | stack frame bytes | spill store bytes")
for r in sorted(set(rows)):
    print(" | ".join(r))
# A stack frame means local memory per thread (a dynamically indexed
# parameter array, say): DRAM traffic no kernel of the runtime should have.
for r in sorted(set(rows)):
    if r[3] != "0" or r[4] != "0":
        print(f"WARNING: {r[0]} has a {r[3]}-byte stack frame, {r[4]} bytes of spills",
              file=sys.stderr)
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

e2e_rc=skipped
if [ -n "${PY_GPU:-}" ] && [ "${PY_BENCH:-1}" != 0 ]; then
  echo "== Python: bench/gpu_python.py $PY_GPU"
  PYTHONPATH="$BUILD/python:$PWD/frontend" EMBER_CACHE_DIR=/tmp/ember-py-cache \
    PYTHONFAULTHANDLER=1 timeout "${PY_TIMEOUT:-400}" python3 bench/gpu_python.py "$PY_GPU" "$RUNS" \
    >"$OUT/gpu_python.log" 2>&1
  echo "gpu_python: exit $?"
  tail -n 14 "$OUT/gpu_python.log"
fi
# AB='KNOB=a,b name ...' (with PY_GPU): a knob's settings replayed in turn in
# one process, AB_RUNS rounds (default 40; bench/gpu_ab.py, $OUT/gpu_ab.jsonl).
# AB2, AB3: more such lines in the same call.
for ab in "${AB:-}" "${AB2:-}" "${AB3:-}"; do
  if [ -n "${PY_GPU:-}" ] && [ -n "$ab" ]; then
    echo "== A/B: bench/gpu_ab.py $PY_GPU $ab"
    # shellcheck disable=SC2086 # the knob and the program names
    PYTHONPATH="$BUILD/python:$PWD/frontend" EMBER_CACHE_DIR=/tmp/ember-py-cache \
      timeout "${PY_TIMEOUT:-400}" python3 bench/gpu_ab.py "$PY_GPU" \
      "${AB_RUNS:-40}" $ab | tee -a "$OUT/gpu_ab.jsonl"
  fi
done
# TRACE_PY='name ...' (with PY_GPU): every kernel of TRACE_RUNS (default 5)
# graph replays of those programs from CUPTI, summed by kernel and class
# (bench/gpu_trace.py; $OUT/gpu_trace.jsonl).
if [ -n "${PY_GPU:-}" ] && [ -n "${TRACE_PY:-}" ]; then
  echo "== CUPTI trace: bench/gpu_trace.py $PY_GPU $TRACE_PY"
  # cupti-python and its library, carried as wheels in .whl (no network).
  if ! python3 -c "import cupti" 2>/dev/null && ls .whl/*.whl >/dev/null 2>&1; then
    python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/*.whl
  fi
  PYTHONPATH="$BUILD/python:$PWD/frontend:/tmp/site" EMBER_CACHE_DIR=/tmp/ember-py-cache \
    LD_LIBRARY_PATH="/tmp/site/nvidia/cu13/lib:${LD_LIBRARY_PATH:-}" \
    timeout "${PY_TIMEOUT:-400}" python3 bench/gpu_trace.py "$PY_GPU" \
    "${TRACE_RUNS:-5}" $TRACE_PY >"$OUT/gpu_trace.jsonl" 2>"$OUT/gpu_trace.err"
  echo "gpu_trace: exit $?"
  tail -n 5 "$OUT/gpu_trace.err"
fi

if [ "${BGV:-0}" != 0 ]; then
  echo "== BGV and BFV from Python: tests/runtime/test_bgv.py (GPU against CPU) =="
  if python3 -c "import pytest" 2>/dev/null; then
    PYTHONPATH="$BUILD/python" timeout 600 python3 -m pytest -q -x \
      tests/runtime/test_bgv.py 2>&1 | tee "$OUT/bgv_python.log" | tail -n 15
  else
    echo "no pytest on this host: tests/runtime/test_bgv.py not run"
  fi
fi

if [ -n "${MULTI:-}" ]; then
  echo "== several GPUs: bench/gpu_multi.py $MULTI =="
  PYTHONPATH="$BUILD/python:$PWD/frontend" EMBER_CACHE_DIR=/tmp/ember-py-cache OUT="$OUT" \
    PYTHONFAULTHANDLER=1 timeout "${MULTI_TIMEOUT:-500}" python3 bench/gpu_multi.py "$MULTI" "$RUNS" \
    >"$OUT/gpu_multi.log" 2>&1
  echo "gpu_multi: exit $?"
  tail -n 16 "$OUT/gpu_multi.log"
fi

if [ -n "${BGV_PROGRAMS:-}" ]; then
  echo "== compiled BGV programs: bench/gpu_bgv_programs.py run $BGV_PROGRAMS =="
  PYTHONPATH="$BUILD/python:$PWD/frontend" EMBER_CACHE_DIR=/tmp/ember-py-cache \
    PYTHONFAULTHANDLER=1 timeout "${PY_TIMEOUT:-400}" python3 bench/gpu_bgv_programs.py \
    run "$BGV_PROGRAMS" "$RUNS" 2>&1 | tee "$OUT/bgv_programs.log" | tail -n 16
  echo "gpu_bgv_programs: exit ${PIPESTATUS[0]}"
fi

if [ "${TFHE:-0}" != 0 ]; then
  if [ "${TFHE_BENCH:-1}" != 0 ]; then
    echo "== FHEW/TFHE: bench/tfhe_gpu.py (batch ${TFHE_BATCH:-16384}) =="
    PYTHONPATH="$BUILD/python" PYTHONFAULTHANDLER=1 timeout "${TFHE_TIMEOUT:-300}" \
      python3 bench/tfhe_gpu.py --batch "${TFHE_BATCH:-16384}" \
      --runs "${TFHE_RUNS:-5}" --min-blocks "${TFHE_MIN_BLOCKS:-}" \
      --json "$OUT/tfhe_gpu.json" 2>&1 | tee "$OUT/tfhe_gpu.log"
    echo "tfhe_gpu: exit ${PIPESTATUS[0]}"
  fi
  if [ -n "${TFHE_PROGRAMS:-}" ]; then
    echo "== FHEW/TFHE programs: bench/tfhe_programs.py run $TFHE_PROGRAMS --gpu =="
    PYTHONPATH="$BUILD/python" timeout "${TFHE_TIMEOUT:-300}" python3 \
      bench/tfhe_programs.py run "$TFHE_PROGRAMS" --gpu --runs "${TFHE_RUNS:-5}" \
      --many "${TFHE_MANY:-512}" \
      2>&1 | tee "$OUT/tfhe_programs.log" | grep -E "^(add8|lt8|mul8)"
  fi
  # TFHE_NCU=regex: Nsight Compute (full set, source counters) of one launch
  # of the matching kernel in a one-ciphertext run: $OUT/tfhe_ncu_*.csv
  # (details, and stall samples by CUDA line and by SASS instruction;
# tfhe_ncu_sass_summary.txt: bench/ncu_sass_summary.py's digest of the
# latter).
  if [ -n "${TFHE_NCU:-}" ]; then
    echo "== ncu: $TFHE_NCU (one ciphertext) =="
    PYTHONPATH="$BUILD/python" timeout 300 ncu --set full --import-source yes \
      -k "regex:$TFHE_NCU" --launch-skip 1 --launch-count 1 -f -o /tmp/tfhe_ncu \
      python3 bench/tfhe_gpu.py --batch 1 --runs 2 --sweep "" >"$OUT/tfhe_ncu.log" 2>&1
    echo "ncu exit code: $?"
    ncu -i /tmp/tfhe_ncu.ncu-rep --page details --csv >"$OUT/tfhe_ncu_details.csv" 2>&1
    ncu -i /tmp/tfhe_ncu.ncu-rep --page source --csv --print-source cuda \
      >"$OUT/tfhe_ncu_cuda.csv" 2>&1
    ncu -i /tmp/tfhe_ncu.ncu-rep --page source --csv --print-source sass \
      >"$OUT/tfhe_ncu_sass.csv" 2>&1
    python3 bench/ncu_sass_summary.py "$OUT/tfhe_ncu_sass.csv" \
      >"$OUT/tfhe_ncu_sass_summary.txt" 2>&1
    ls -la "$OUT"/tfhe_ncu*
  fi
fi

for art in ${E2E:-}; do
  echo "== emitted programs of $art =="
  OUT="$OUT/e2e_$(basename "$art")" EMBER_GPU_BUILD="$BUILD" \
    bash bench/gpu_e2e.sh "$art" "${E2E_RUNS:-21}"
  rc=$?
  [ "$e2e_rc" = skipped ] || [ "$e2e_rc" = 0 ] && e2e_rc=$rc
done

san_rc=skipped
if [ "${SANITIZE:-0}" != 0 ]; then
  san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  tests="$BUILD/runtime/cuda/tests/ember_cuda_tests"
  small='CudaPrimitives.SmallN*:CudaProgram.*:CudaOperations.SmallN:CudaDecrypt.SmallN:CudaKlss.*Small*'
  san_rc=0
  run_san() { # log-name tool command...
    local name=$1 tool=$2
    shift 2
    echo "== compute-sanitizer --tool $tool ($name) =="
    timeout "${SANITIZE_TIMEOUT:-240}" "$san" --tool "$tool" --error-exitcode 3 \
      "$@" >"$OUT/sanitize_$name.log" 2>&1
    local rc=$?
    grep -E "SUMMARY|PASSED|FAILED|identical" "$OUT/sanitize_$name.log" | tail -n 4
    echo "exit code: $rc"
    [ $rc = 0 ] || san_rc=$rc
  }
  run_san memcheck memcheck "$tests" --gtest_brief=1 \
    --gtest_filter="${SAN_MEMCHECK_FILTER:-$small}"
  run_san racecheck racecheck "$tests" --gtest_brief=1 \
    --gtest_filter="${SAN_RACE_FILTER:-CudaPrimitives.SmallN*}"
  run_san synccheck synccheck "$tests" --gtest_brief=1 \
    --gtest_filter="${SAN_SYNC_FILTER:-${SAN_RACE_FILTER:-CudaPrimitives.SmallN*}}"
  # Emitted programs through the plan executor (check mode, 2 runs):
  # SAN_PROGRAMS names folders of the E2E artifact folders.
  for p in ${SAN_PROGRAMS:-poly_eval}; do
    for art in ${E2E:-}; do
      [ -x "$BUILD/gpu_e2e_$p" ] && [ -d "$art/$p" ] &&
        run_san "program_$p" memcheck "$BUILD/gpu_e2e_$p" check "$art/$p" 2
    done
  done
fi
# Kernel table of an ncu CSV (gpu__time_duration.sum): the kernels of the
# last run (the longest tail of kernel names that repeats just before
# itself: the warm-up may launch more, it encodes the constants) with their
# durations, by kernel and in order.
ncu_table() { # csv txt
  python3 bench/ncu_table.py "$1" >"$2"
  head -n 25 "$2"
}

# Kernel times of one run of emitted programs (Nsight Compute): PROFILE names
# folders of the E2E artifact folders; $OUT/profile_<name>.txt lists the
# kernels of the last run (the driver runs warm-up + 2) with their durations.
for p in ${PROFILE:-}; do
  for art in ${E2E:-}; do
    [ -x "$BUILD/gpu_e2e_$p" ] && [ -d "$art/$p" ] || continue
    mode=bench
    [ -f "$art/$p/keys.bin" ] && mode=check
    echo "== ncu: $p =="
    timeout 300 ncu --metrics gpu__time_duration.sum --csv \
      "$BUILD/gpu_e2e_$p" "$mode" "$art/$p" 2 >"$OUT/profile_$p.csv" 2>&1
    ncu_table "$OUT/profile_$p.csv" "$OUT/profile_$p.txt"
  done
done
# Kernel times of the benchmark itself (Nsight Compute): PROFILE_BENCH=SETS
# runs ember_gpu_bench SETS with one timed run per operation (after its 5
# warm-ups) and writes every launch's duration to $OUT/profile_bench.csv.
if [ -n "${PROFILE_BENCH:-}" ]; then
  echo "== ncu: ember_gpu_bench $PROFILE_BENCH =="
  timeout 400 ncu --metrics gpu__time_duration.sum --csv \
    "$BUILD/bench/ember_gpu_bench" "$PROFILE_BENCH" 1 "" none \
    >"$OUT/profile_bench.csv" 2>&1
  echo "ncu exit code: $?"
fi
# The same for programs of the Python artifacts (PY_GPU), compiled (graphs
# off) and issued one by one (bench/gpu_profile.py): PROFILE_PY names them.
for p in ${PROFILE_PY:-}; do
  for form in compiled one_by_one; do
    echo "== ncu: $p ($form) =="
    PYTHONPATH="$BUILD/python:$PWD/frontend" EMBER_CACHE_DIR=/tmp/ember-py-cache \
      timeout 300 ncu --metrics gpu__time_duration.sum --csv \
      python3 bench/gpu_profile.py "$PY_GPU" "$p" "$form" \
      >"$OUT/profile_py_${p}_$form.csv" 2>&1
    ncu_table "$OUT/profile_py_${p}_$form.csv" "$OUT/profile_py_${p}_$form.txt"
  done
done
# NCU_PY='name:regex' (with PY_GPU): every section of Nsight Compute for the
# kernels of that program (compiled, graphs off) whose names match regex,
# NCU_COUNT of them (default 2) after NCU_SKIP (default 0): the details page
# ($OUT/ncu_py_details.csv: occupancy, pipes, stall reasons) and the SASS
# with its stall samples ($OUT/ncu_py_sass.csv, summed by instruction in
# ncu_py_sass_summary.txt). E.g. 'mul_relin_B_norescale:nttFwdRow256'
# with NCU_SKIP=4: the third run's row phases, the ModUp's and the
# ModDown's fused one.
if [ -n "${PY_GPU:-}" ] && [ -n "${NCU_PY:-}" ]; then
  echo "== ncu --set full: ${NCU_PY}"
  PYTHONPATH="$BUILD/python:$PWD/frontend" EMBER_CACHE_DIR=/tmp/ember-py-cache \
    timeout 300 ncu --set full --import-source yes -k "regex:${NCU_PY#*:}" \
    --launch-skip "${NCU_SKIP:-0}" --launch-count "${NCU_COUNT:-2}" -f \
    -o /tmp/py_ncu python3 bench/gpu_profile.py "$PY_GPU" "${NCU_PY%%:*}" \
    compiled >"$OUT/ncu_py.log" 2>&1
  echo "ncu exit code: $?"
  ncu -i /tmp/py_ncu.ncu-rep --page details --csv >"$OUT/ncu_py_details.csv" 2>&1
  ncu -i /tmp/py_ncu.ncu-rep --page source --csv --print-source sass \
    >"$OUT/ncu_py_sass.csv" 2>&1
  python3 bench/ncu_sass_summary.py "$OUT/ncu_py_sass.csv" \
    >"$OUT/ncu_py_sass_summary.txt" 2>&1
fi

echo "tests exit code: $test_rc, bench exit code: $bench_rc, e2e exit code: $e2e_rc, sanitizer exit code: $san_rc"
