#!/usr/bin/env python3
"""atheris harness: ember.load and context_from_params on malformed artifacts.

The manifest (``<name>.manifest.json``) and ``ember.json`` of a saved program
are untrusted input: ``ember.load`` reads them and ``context_from_params``
rebuilds the runtime context from the manifest's "params". Every malformed
artifact must raise an ember EmberError (SerializationError, SecurityError,
...), never KeyError, TypeError, a hang or a crash.

Input: one mode byte, then ``ember.json``, a NUL byte, the manifest. The
other files (fhe, kernel, source, data) are fixed. Mode bit 0 set: re-seal,
i.e. recompute ``ember.json``'s file digests and program hash over the
mutated manifest (as ``compile`` does), so that the fuzzer gets past the
hash checks into what ``load`` and ``context_from_params`` do with the
fields.

Run: ``python fuzz/fuzz_manifest.py [libFuzzer flags] CORPUS...`` (needs
atheris and the runtime module on PYTHONPATH; bench/fuzz.sh does it).
``test_one_input`` is also what tests/fuzz/test_fuzz_corpus.py replays.
"""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
from pathlib import Path

FILES = {
    "fhe": "p.fhe.mlir",
    "kernel": "p.kernel.mlir",
    "source": "p.cpp",
    "manifest": "p.manifest.json",
    "data": "p.data",
}
FHE = (
    "func.func @p(%x: !fhe.ct<8>) -> !fhe.ct<8> {\n"
    "  %y = fhe.add %x, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>\n"
    "  return %y : !fhe.ct<8>\n}\n"
)
FIXED = {
    "fhe": FHE.encode(),
    "kernel": b"module {}\n",
    "source": b"// server code\n",
    "data": b"EMBD",
}


def _reseal(meta_text: bytes, manifest_text: bytes) -> bytes:
    """ember.json with the files' SHA-256 and the program hash recomputed
    over the mutated manifest, when it parses as an object."""
    from ember import compiled

    try:
        meta = json.loads(meta_text)
    except (ValueError, RecursionError):
        return meta_text
    if not isinstance(meta, dict):
        return meta_text
    digests = {k: hashlib.sha256(v).hexdigest() for k, v in FIXED.items()}
    digests["manifest"] = hashlib.sha256(manifest_text).hexdigest()
    meta["sha256"] = digests
    try:
        meta["hash"] = compiled.program_hash(meta)
    except (TypeError, ValueError, RecursionError):
        return meta_text
    return json.dumps(meta).encode()


def write_artifact(folder: Path, data: bytes) -> None:
    """The artifact that input `data` describes (see the module docstring)."""
    mode, rest = data[:1], data[1:]
    meta_text, _, manifest_text = rest.partition(b"\0")
    if mode and mode[0] & 1:
        meta_text = _reseal(meta_text, manifest_text)
    for kind, content in FIXED.items():
        (folder / FILES[kind]).write_bytes(content)
    (folder / FILES["manifest"]).write_bytes(manifest_text)
    (folder / "ember.json").write_bytes(meta_text)


def test_one_input(data: bytes) -> None:
    """Loads the artifact of `data` and rebuilds its context; only an
    EmberError may escape."""
    import ember
    from ember.errors import EmberError

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_artifact(folder, data)
        try:
            program = ember.load(folder)
            repr(program)
            program._context()
        except EmberError:
            pass


def make_seed(artifact: Path) -> bytes:
    """A seed (re-seal mode) from a program saved by Compiled.save."""
    meta = json.loads((artifact / "ember.json").read_text())
    manifest = (artifact / meta["files"]["manifest"]).read_bytes()
    meta["files"] = dict(FILES)
    meta.pop("stages", None)
    sealed = _reseal(json.dumps(meta).encode(), manifest)
    return b"\x01" + sealed + b"\0" + manifest


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--make-seed":
        Path(sys.argv[3]).write_bytes(make_seed(Path(sys.argv[2])))
        return
    import atheris

    # Coverage of the ember package only (instrumenting numpy too is slow).
    with atheris.instrument_imports(include=["ember"]):
        import ember  # noqa: F401
        import ember._toolchain  # noqa: F401
        import ember.compiled  # noqa: F401
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
