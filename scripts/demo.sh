#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs the main job: the logistic
# regression example end to end through the frontend (`ember run`: trace,
# compile, key generation, encrypt, run on the CPU runtime, decrypt), with
# the error against numpy and the time of each step. Extra arguments go to
# `ember run` (e.g. --seed 1). The runtime-only demo stays available:
# `python examples/runtime_demo.py` with PYTHONPATH=build/python.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export EMBER_BUILD_DIR="${EMBER_BUILD_DIR:-build}"
"$root/scripts/setup.sh"
# shellcheck disable=SC1091
source .venv/bin/activate
ember run examples/logistic_regression.py "$@"
