#!/usr/bin/env bash
# Checks the runtime-only install (issue 13), as on a GPU host without MLIR:
# in a fresh virtual environment in a temporary folder, `pip install` of this
# repository with the compiler off, then a program compiled by the developer
# build (examples/variance.py) is loaded with ember.load, keys are generated,
# inputs encrypted, the program run and the outputs decrypted and compared
# with numpy; ember.compile must refuse with NotAvailableError and the
# `ember` command must be installed. Exits non-zero on any failure.
#
# The CUDA backend is off by default, to keep CI's time down: it adds
# minutes of nvcc on 2 cores and CI has no GPU to run it.
# Needs the developer build (scripts/setup.sh: .venv, and the compiler in
# $EMBER_BUILD_DIR, default build/) and PyPI, or pip's cache, for the build
# requirements (scikit-build-core, pybind11) and numpy.
#   scripts/check_install.sh
# Environment:
#   ARTIFACT=DIR   the compiled variance.py (`ember compile examples/variance.py
#                  --target cpu -o DIR`) instead of compiling it here: for a
#                  host without the compiler
#   PIP_ARGS=...   more pip install arguments, e.g. offline:
#                  "--no-index --find-links WHEELHOUSE"
#   CUDA=ON        build the CUDA backend too (a GPU host)
#   KEEP=1         keep the temporary folder
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/ember-install.XXXXXX")"
if [ "${KEEP:-0}" = 1 ]; then
  echo "keeping $work"
else
  trap 'rm -rf "$work"' EXIT
fi

artifact="${ARTIFACT:-$work/variance}"
if [ -z "${ARTIFACT:-}" ]; then
  # Compiled by the developer build (with its own library cache).
  EMBER_CACHE_DIR="$work/cache-dev" "$root/.venv/bin/ember" compile \
    "$root/examples/variance.py" --target cpu -o "$artifact"
fi
artifact="$(cd "$artifact" && pwd)"

start=$(date +%s)
python3 -m venv "$work/venv"
# shellcheck disable=SC2086
"$work/venv/bin/python" -m pip install -q --disable-pip-version-check ${PIP_ARGS:-} \
  "$root" -Ccmake.define.EMBER_BUILD_COMPILER=OFF \
  -Ccmake.define.EMBER_ENABLE_CUDA="${CUDA:-OFF}"
echo "pip install (runtime only, CUDA ${CUDA:-OFF}): $(($(date +%s) - start)) s"

"$work/venv/bin/ember" --help >/dev/null
# Run from the temporary folder and without the variables that point into
# the repository, so that what is imported and run is what was installed.
cd "$work"
env -u EMBER_BUILD_DIR -u EMBER_ROOT -u PYTHONPATH EMBER_CACHE_DIR="$work/cache" \
  "$work/venv/bin/python" - "$artifact" "${CUDA:-OFF}" <<'EOF'
import sys
from pathlib import Path

import numpy as np

import ember
import ember_runtime

site = Path(sys.prefix).resolve()
for path in (ember.__file__, ember_runtime.__file__, ember_runtime.runtime_library):
    assert Path(path).resolve().is_relative_to(site), f"{path} is not installed"
built = ember._toolchain.install_info()
assert built["compiler"] is False and built["cuda"] is (sys.argv[2] == "ON"), built

c = ember.load(sys.argv[1])
keys = c.keygen()
x = np.random.default_rng().uniform(-1, 1, 4096)
mean, var = c.decrypt(keys, c.run(keys.evaluation, c.encrypt(keys, x=x)))
# Every slot within 2^-13 * max(1, |value|) of numpy (the bound of the
# frontend's tests): CKKS at a 2^40 scale gives about 2^-20 relative error
# after a few rescales and key switches, while a wrong slot, rotation or
# scale is off by O(1).
err = max(
    np.max(np.abs(mean - x.mean())),
    np.max(np.abs(var - np.mean((x - x.mean()) ** 2))),
)
print(f"variance.py, loaded and run from the install: max error {err:.2e}")
assert err < 2.0**-13, f"error {err:.3g} against numpy (bound 2^-13)"


@ember.program(slots=8)
def double(x):
    return x + x


try:
    ember.compile(double)
except ember.NotAvailableError as e:
    assert "compiler was not built" in str(e), e
else:
    raise AssertionError("ember.compile worked without the compiler")
print("ember.compile: NotAvailableError (the compiler was not built)")
EOF
