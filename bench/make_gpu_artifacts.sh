#!/usr/bin/env bash
# Compiles the GPU artifacts here (compiler + runtime module needed) into a
# git-ignored folder, default out/artifacts; carry it to the GPU host and
# run bench/gpu_e2e.sh there.
#   EMBER_BUILD_DIR=build-cg bash bench/make_gpu_artifacts.sh [OUTDIR] [NAMES]
# NAMES: comma-separated programs of make_gpu_artifacts.py (default: all).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${EMBER_BUILD_DIR:-build}
OUTDIR=${1:-out/artifacts}
rm -rf "$OUTDIR"
PYTHONPATH="$BUILD/python:frontend${PYTHONPATH:+:$PYTHONPATH}" \
  "${PYTHON:-.venv/bin/python}" bench/make_gpu_artifacts.py \
  --build-dir "$BUILD" --out "$OUTDIR" ${2:+--only "$2"}
du -sh "$OUTDIR"
