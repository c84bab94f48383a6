#!/usr/bin/env bash
# Installs everything Ember needs on a fresh Debian 12 machine and builds it.
# Idempotent: packages already present are not reinstalled, the virtual
# environment is reused, the build is incremental (and cached by ccache).
#
#   EMBER_BUILD_DIR      build folder (default: build)
#   EMBER_CMAKE_ARGS     extra arguments for cmake (e.g. -DEMBER_BUILD_COMPILER=OFF)
#   EMBER_SKIP_APT=1     do not touch system packages (e.g. on the GPU host)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build_dir="${EMBER_BUILD_DIR:-build}"

apt_packages=(cmake ninja-build g++ ccache libssl-dev libgtest-dev clang-format
  python3-venv libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools)

if [ "${EMBER_SKIP_APT:-0}" != 1 ] && command -v apt-get >/dev/null; then
  missing=()
  for p in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "== installing system packages: ${missing[*]}"
    sudo_cmd=()
    [ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq \
      --no-install-recommends "${missing[@]}"
  fi
fi

if [ ! -x .venv/bin/python ]; then
  echo "== creating the Python virtual environment (.venv)"
  python3 -m venv .venv
fi
# shellcheck disable=SC1091
source .venv/bin/activate
if ! python -c "import numpy, pytest, pybind11, lit, scikit_build_core" 2>/dev/null ||
  ! command -v ruff >/dev/null; then
  echo "== installing Python packages"
  python -m pip install -q --upgrade pip
  python -m pip install -q -r requirements-dev.txt
fi
# The package `ember` (pyproject.toml), editable and without CMake
# (wheel.cmake=false): its Python files and the command `ember`; it finds the
# compiler and the runtime module in the build folder that CMake builds below.
# (`pip install .` builds and installs them into the package instead.)
[ -x .venv/bin/ember ] ||
  python -m pip install -q --no-build-isolation -Cwheel.cmake=false -e .

echo "== configuring and building ($build_dir)"
# shellcheck disable=SC2086
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DPython3_EXECUTABLE="$root/.venv/bin/python" \
  -Dpybind11_DIR="$(python -m pybind11 --cmakedir)" ${EMBER_CMAKE_ARGS:-} >/dev/null
cmake --build "$build_dir"
