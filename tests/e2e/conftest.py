"""End-to-end tests: fhe-dialect programs compiled by ember-compile, built
into shared libraries against the runtime, run on fresh encrypted inputs
with evaluation keys only, decrypted and checked against numpy.

The build dir comes from EMBER_BUILD_DIR (default `build`); the runtime
module from PYTHONPATH=<build>/python (scripts/test.sh sets it)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "frontend"))
BUILD = Path(os.environ.get("EMBER_BUILD_DIR", "build"))
if not BUILD.is_absolute():
    BUILD = ROOT / BUILD


@pytest.fixture(scope="session")
def build_dir() -> Path:
    if not (BUILD / "bin" / "ember-opt").exists():
        pytest.skip(f"no ember-opt in {BUILD}/bin (set EMBER_BUILD_DIR)")
    return BUILD


@pytest.fixture(scope="session", autouse=True)
def ember_cache(tmp_path_factory) -> Path:
    """The session's EMBER_CACHE_DIR (built libraries, kept failing IR), so
    that tests neither read nor fill the user's ~/.cache/ember."""
    path = tmp_path_factory.mktemp("ember-cache")
    old = os.environ.get("EMBER_CACHE_DIR")
    os.environ["EMBER_CACHE_DIR"] = str(path)
    yield path
    if old is None:
        del os.environ["EMBER_CACHE_DIR"]
    else:
        os.environ["EMBER_CACHE_DIR"] = old


@pytest.fixture
def rng(request):
    """Fresh inputs each run; EMBER_TEST_SEED=<seed> replays one."""
    import numpy as np

    seed = (
        int(os.environ.get("EMBER_TEST_SEED", "0")) or np.random.SeedSequence().entropy
    )
    print(f"{request.node.nodeid}: numpy seed {seed}")
    return np.random.default_rng(seed)


@pytest.fixture(scope="session")
def compiled(build_dir):
    """ember.compile(prog, **options), each once per session (lazily)."""
    import ember

    cache: dict[str, ember.Compiled] = {}

    def get(prog: ember.Program, **options) -> ember.Compiled:
        key = f"{prog.filename}:{prog.name}" + repr(sorted(options.items()))
        if key not in cache:
            cache[key] = ember.compile(prog, **options)
        return cache[key]

    return get
