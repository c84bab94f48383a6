"""End-to-end tests: fhe-dialect programs compiled by ember-compile, built
into shared libraries against the runtime, run on fresh encrypted inputs
with evaluation keys only, decrypted and checked against numpy.

The build dir comes from EMBER_BUILD_DIR (default `build`); the runtime
module from PYTHONPATH=<build>/python (scripts/test.sh sets it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("EMBER_BUILD_DIR", "build"))
if not BUILD.is_absolute():
    BUILD = ROOT / BUILD


@pytest.fixture(scope="session")
def build_dir() -> Path:
    if not (BUILD / "bin" / "ember-opt").exists():
        pytest.skip(f"no ember-opt in {BUILD}/bin (set EMBER_BUILD_DIR)")
    return BUILD


@pytest.fixture
def rng(request):
    """Fresh inputs each run; EMBER_TEST_SEED=<seed> replays one."""
    import numpy as np

    seed = (
        int(os.environ.get("EMBER_TEST_SEED", "0")) or np.random.SeedSequence().entropy
    )
    print(f"{request.node.nodeid}: numpy seed {seed}")
    return np.random.default_rng(seed)
