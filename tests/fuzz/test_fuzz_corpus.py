"""Replays the committed corpus of the atheris manifest harness
(fuzz/corpus/fuzz_manifest/) through its test_one_input, without atheris:
every input must load or raise an EmberError (the C++ harnesses' corpora
are replayed by CTest, fuzz/CMakeLists.txt)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "fuzz" / "corpus" / "fuzz_manifest"


@pytest.mark.parametrize("path", sorted(CORPUS.iterdir()), ids=lambda p: p.name[:16])
def test_manifest_corpus(harness, path: Path) -> None:
    harness.test_one_input(path.read_bytes())


def test_corpus_is_there() -> None:
    assert len(list(CORPUS.iterdir())) >= 5
