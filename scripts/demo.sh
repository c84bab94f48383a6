#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs the main job: for now the
# runtime demo (encrypt, multiply, rotate, decrypt at parameter set B, with
# the error against numpy and the time of each step).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build_dir="${EMBER_BUILD_DIR:-build}"
"$root/scripts/setup.sh"
# shellcheck disable=SC1091
source .venv/bin/activate
PYTHONPATH="$root/$build_dir/python${PYTHONPATH:+:$PYTHONPATH}" \
  python examples/runtime_demo.py "$@"
