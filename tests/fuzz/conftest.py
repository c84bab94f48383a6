"""The atheris manifest harness (fuzz/fuzz_manifest.py) as a module, for the
tests that replay its corpus and check the errors it found."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def harness() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "fuzz_manifest", ROOT / "fuzz" / "fuzz_manifest.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
