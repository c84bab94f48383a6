#!/usr/bin/env bash
# Compile-time kernel knobs compared in one device call: the runtime's Python
# module is built once per variant (a set of -D defines, e.g. the register
# budgets EMBER_NTT_MIN_BLOCKS / EMBER_BCONV_MIN_BLOCKS and EMBER_BCONV_TILE),
# then every variant runs the same programs of the Python artifacts
# (bench/make_python_gpu_artifacts.py): their times from Python
# (bench/gpu_python.py, median of RUNS) and their kernels' durations under
# Nsight Compute (bench/gpu_profile.py). Results under $OUT/knob_<i>/:
# ptxas.txt (registers and spills), python.jsonl, profile_<program>.csv;
# every variant's python.jsonl rows, labelled, in $OUT/knobs.jsonl.
#   OUT=... bash bench/gpu_knobs.sh out/py_gpu 'rotate_B mul_relin_B' \
#     '' '-DEMBER_NTT_MIN_BLOCKS=6' ...
# The knobs (defaults in brackets; each is described where it is defined):
#   runtime/cuda/ntt.cu  EMBER_NTT_MIN_BLOCKS [4], EMBER_NTT32_MIN_BLOCKS [4]
#                        (register budgets), EMBER_NTT_FAST_MIN_LOG_N [14]
#                        (register-resident kernels from this log N),
#                        EMBER_NTT_SHOUP4 [1] (64-bit twiddle quotient of
#                        three partial products; 0: the exact one)
#   runtime/cuda/rns.cu  EMBER_BCONV_GROUP [8], EMBER_BCONV_TILE [0],
#                        EMBER_BCONV_COLUMNS [1], EMBER_BCONV_MIN_BLOCKS [1]
#                        EMBER_MODUP_COPY_BRANCH [1] (ModUp's copy of the
#                        digits' own limbs beside its transforms; 0: after)
# The first variant is usually '' (the defaults). PY_ONLY='name ...' are
# further programs of the same folder timed from Python only (no Nsight
# Compute: long programs such as bootstrap16).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
PY_GPU=$1
PROGRAMS=$2
shift 2
JOBS=${JOBS:-16}
RUNS=${RUNS:-21}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem \
  --format=csv | tee "$OUT/gpu.txt"
i=0
for defines in "$@"; do
  dir=$OUT/knob_$i build=/tmp/ember-knob # one build: a variant recompiles the CUDA files
  mkdir -p "$dir"
  echo "$defines" >"$dir/defines.txt"
  echo "== variant $i: '${defines}'"
  start=$(date +%s)
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_FLAGS="$defines" \
    -DEMBER_BUILD_COMPILER=OFF -DEMBER_ENABLE_CUDA=ON -DEMBER_BUILD_PYTHON=ON \
    -DEMBER_BUILD_TESTS=OFF -DPython3_EXECUTABLE="$(command -v python3)" \
    -Dpybind11_DIR="$(python3 -m pybind11 --cmakedir)" \
    -DEMBER_CUDA_PTXAS_VERBOSE=ON >"$dir/configure.log" 2>&1 &&
    ninja -C "$build" -j "$JOBS" ember_runtime >"$dir/build.log" 2>&1 ||
    { tail -n 30 "$dir/configure.log" "$dir/build.log"; i=$((i + 1)); continue; }
  echo "build: $(($(date +%s) - start)) s"
  grep -A2 -E "Function properties for .*(ntt|bconv)" "$dir/build.log" |
    grep -oE "(ntt|bconv)[A-Za-z0-9]*|[0-9]+ bytes spill (stores|loads)|Used [0-9]+ registers" |
    paste -sd' ' | sed -E 's/ (ntt|bconv)/\n\1/g' >"$dir/ptxas.txt"
  cat "$dir/ptxas.txt"
  export PYTHONPATH="$build/python:$PWD/frontend" EMBER_CACHE_DIR=/tmp/ember-knob-cache-$i
  for p in $PROGRAMS; do
    timeout 200 python3 bench/gpu_python.py "$PY_GPU" "$RUNS" "$p" \
      >>"$dir/python.jsonl" 2>"$dir/python_$p.err"
    timeout 200 ncu --metrics gpu__time_duration.sum --csv \
      python3 bench/gpu_profile.py "$PY_GPU" "$p" compiled \
      >"$dir/profile_$p.csv" 2>&1
  done
  for p in ${PY_ONLY:-}; do
    timeout 300 python3 bench/gpu_python.py "$PY_GPU" "$RUNS" "$p" \
      >>"$dir/python.jsonl" 2>"$dir/python_$p.err"
  done
  for p in $PROGRAMS; do
    python3 bench/ncu_table.py "$dir/profile_$p.csv" >"$dir/profile_$p.txt" &&
      head -n 12 "$dir/profile_$p.txt"
  done
  # Every variant's rows, labelled, also in one file at the top of $OUT
  # (knobs.jsonl): the device tool brings back only so many files.
  python3 -c 'import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    print(r["program"], "graph_ms", round(r["graph_ms"], 4), "eager_ms",
          round(r["eager_ms"], 4), "one_by_one_ms", r.get("one_by_one_ms"),
          "identical", r["identical"])
    r["variant"], r["defines"] = int(sys.argv[3]), sys.argv[4]
    with open(sys.argv[2], "a") as out:
        out.write(json.dumps(r) + "\n")' "$dir/python.jsonl" "$OUT/knobs.jsonl" "$i" "$defines"
  i=$((i + 1))
done
