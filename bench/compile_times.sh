#!/usr/bin/env bash
# Compile time and emitted size of every example (bench/RESULTS.md,
# "Examples"): `ember compile examples/<name>.py --target cpu` twice per
# example, first with an empty build cache (trace, ember-opt,
# ember-translate and g++ of the emitted .cpp), then again with the cache
# holding that library (no g++). Prints one markdown row per example.
#
#   bench/compile_times.sh [REPO]     # default: this repository
#
# REPO may be another checkout (a worktree of an older commit, with its
# build/ folder) to measure "before" on the same machine; its own frontend,
# examples and build are used. Needs the virtual environment of
# scripts/setup.sh.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
repo="$(cd "${1:-$here}" && pwd)"
# shellcheck disable=SC1091
source "$here/.venv/bin/activate"
export EMBER_ROOT="$repo" EMBER_BUILD_DIR="$repo/build"
export PYTHONPATH="$repo/build/python:$repo/frontend"
export PATH="/usr/lib/llvm-22/bin:$PATH"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

seconds() { # the wall time of "$@" in seconds, its output to a log
  local start end
  start=$(date +%s.%N)
  "$@" >"$work/log" 2>&1 || {
    cat "$work/log" >&2
    return 1
  }
  end=$(date +%s.%N)
  python -c "print(f'{$end - $start:.2f}')"
}

echo "commit $(git -C "$repo" rev-parse --short HEAD), $(nproc) cores"
echo "| example | emitted source | data file | compile, empty cache | compile, cached library |"
echo "| --- | --- | --- | --- | --- |"
for name in logistic_regression dense_layer variance polynomial mlp; do
  export EMBER_CACHE_DIR="$work/cache-$name"
  out="$work/$name"
  cold=$(seconds python -m ember compile "$repo/examples/$name.py" --target cpu -o "$out")
  warm=$(seconds python -m ember compile "$repo/examples/$name.py" --target cpu -o "$out")
  size() { # size in MB of the files matching $1 in the artifact, or "-"
    local total
    total=$(find "$out" -name "$1" -printf '%s\n' | awk '{s += $1} END {print s + 0}')
    if [ "$total" = 0 ]; then
      echo "-"
    else
      python -c "t = $total; print(f'{t / 1e6:.2f} MB' if t >= 1e5 else f'{t / 1e3:.1f} KB')"
    fi
  }
  echo "| $name | $(size '*.cpp') | $(size '*.data') | $cold s | $warm s |"
done
