"""Replays the committed corpus of the atheris manifest harness
(fuzz/corpus/fuzz_manifest/) through its test_one_input, without atheris:
every input must load or raise an EmberError (the C++ harnesses' corpora
are replayed by CTest, fuzz/CMakeLists.txt)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "fuzz" / "corpus" / "fuzz_manifest"


def _harness():
    spec = importlib.util.spec_from_file_location(
        "fuzz_manifest", ROOT / "fuzz" / "fuzz_manifest.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("path", sorted(CORPUS.iterdir()), ids=lambda p: p.name[:16])
def test_manifest_corpus(path: Path) -> None:
    _harness().test_one_input(path.read_bytes())


def test_corpus_is_there() -> None:
    assert len(list(CORPUS.iterdir())) >= 5
