"""Malformed artifacts found by fuzz/fuzz_manifest.py: each raises
SerializationError, never AttributeError, KeyError or TypeError, and a file
name in ember.json never points outside the artifact's folder."""

from __future__ import annotations

import json
from pathlib import Path

import ember
import pytest
from ember import _toolchain
from ember.errors import SerializationError

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "fuzz" / "corpus" / "fuzz_manifest" / "seed-valid-reseal"


def _artifact(harness, tmp_path: Path, meta: object, manifest: object) -> Path:
    """The harness's artifact with this ember.json and manifest, re-sealed."""
    data = b"\x01" + json.dumps(meta).encode() + b"\0" + json.dumps(manifest).encode()
    harness.write_artifact(tmp_path, data)
    return tmp_path


def _valid() -> tuple[dict, dict]:
    meta_text, _, manifest_text = SEED.read_bytes()[1:].partition(b"\0")
    return json.loads(meta_text), json.loads(manifest_text)


def test_valid_seed_loads(harness, tmp_path: Path) -> None:
    meta, manifest = _valid()
    program = ember.load(_artifact(harness, tmp_path, meta, manifest))
    assert program._context() is not None


@pytest.mark.parametrize("meta", [11, [], "x", None])
def test_ember_json_not_an_object(harness, tmp_path: Path, meta: object) -> None:
    # Was AttributeError: 'int' object has no attribute 'get' (compiled.py load).
    _, manifest = _valid()
    with pytest.raises(SerializationError, match="format"):
        ember.load(_artifact(harness, tmp_path, meta, manifest))


@pytest.mark.parametrize("name", ["/dev/zero", "../p.manifest.json", "a/b", 3])
def test_file_names_stay_in_the_folder(harness, tmp_path: Path, name: object) -> None:
    # Was: any path, e.g. /dev/zero (read forever) or outside the folder.
    meta, manifest = _valid()
    meta["files"]["manifest"] = name
    with pytest.raises(SerializationError, match="not a file name"):
        ember.load(_artifact(harness, tmp_path, meta, manifest))


def test_missing_name_is_a_serialization_error(harness, tmp_path: Path) -> None:
    # Was KeyError: 'name' from Compiled.__init__, past load's try.
    meta, manifest = _valid()
    del meta["name"]
    with pytest.raises(SerializationError, match="KeyError"):
        ember.load(_artifact(harness, tmp_path, meta, manifest))


@pytest.mark.parametrize("manifest", [[], {"params": 3}, {"params": {"q": []}}])
def test_manifest_without_params(harness, tmp_path: Path, manifest: object) -> None:
    # Was TypeError / KeyError in Compiled.__repr__ and _context.
    meta, _ = _valid()
    with pytest.raises(SerializationError, match="params"):
        ember.load(_artifact(harness, tmp_path, meta, manifest))


@pytest.mark.parametrize(
    "change",
    [
        {"dnum": None},
        {"q": ["x"]},
        {"p": 5},
        {"log_scale": "big"},
        {"q": [2**70]},
    ],
)
def test_malformed_params(change: dict) -> None:
    # Was TypeError / ValueError / KeyError from context_from_params.
    _, manifest = _valid()
    params = {**manifest["params"], **change}
    with pytest.raises(SerializationError, match="malformed"):
        _toolchain.context_from_params(params)


def test_missing_param() -> None:
    _, manifest = _valid()
    params = dict(manifest["params"])
    del params["dnum"]
    with pytest.raises(SerializationError, match="KeyError"):
        _toolchain.context_from_params(params)
