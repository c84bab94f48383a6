#!/usr/bin/env bash
# Compiles the frontend's examples into GPU artifacts (needs the compiler and
# the runtime module: run here, not on the GPU host) into a git-ignored
# folder, default out/example_artifacts. The lead's device call then runs
#   OUT=$OUT bash bench/gpu_e2e.sh out/example_artifacts
# (residues identical to the CPU run of the same program, and GPU times).
# Examples whose evaluation keys exceed KEY_LIMIT_MB (default 8) are written
# timing-only (keys made on the GPU host), so that this folder and
# out/artifacts together stay under the device tool's 64 MiB carry limit.
#   EMBER_BUILD_DIR=build bash bench/make_example_artifacts.sh [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
export EMBER_BUILD_DIR=${EMBER_BUILD_DIR:-build}
OUTDIR=${1:-out/example_artifacts}
rm -rf "$OUTDIR"
PYTHONPATH="$EMBER_BUILD_DIR/python:frontend${PYTHONPATH:+:$PYTHONPATH}" \
  "${PYTHON:-.venv/bin/python}" bench/make_example_artifacts.py --out "$OUTDIR" \
  --key-limit "${KEY_LIMIT_MB:-8}"
du -sh "$OUTDIR"
