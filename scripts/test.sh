#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs every test: the C++ unit
# tests (CTest/GoogleTest), the lit tests of the compiler, the Python tests
# (pytest), the runtime-only `pip install` in a fresh virtual environment
# (scripts/check_install.sh, about a minute), and clang-format and ruff in
# check mode. Exits non-zero on the first failing group.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build_dir="${EMBER_BUILD_DIR:-build}"

"$root/scripts/setup.sh"
# shellcheck disable=SC1091
source .venv/bin/activate

echo "== C++ unit tests (ctest)"
ctest --test-dir "$build_dir" --output-on-failure -j2

if [ -f "$build_dir/tests/lit/lit.site.cfg.py" ]; then
  echo "== compiler lit tests"
  lit -sv "$build_dir/tests/lit"
fi

echo "== Python tests (pytest)"
PYTHONPATH="$root/$build_dir/python:$root/frontend${PYTHONPATH:+:$PYTHONPATH}" \
  python -m pytest -q tests

echo "== runtime-only install"
"$root/scripts/check_install.sh"

echo "== clang-format --dry-run"
git ls-files -z '*.cpp' '*.h' '*.cu' '*.cuh' | xargs -0 -r clang-format --dry-run --Werror

echo "== ruff"
ruff check .
ruff format --check .
echo "== all tests passed"
