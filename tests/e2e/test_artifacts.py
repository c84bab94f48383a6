"""Saved artifacts are checked, not trusted (issue 11), and built libraries
are cached by content (issue 12).

- Every file of a saved program is covered by a SHA-256 in ember.json, and
  those by the program hash: a modified file is a SerializationError at
  load, and a source modified after load is refused before it is built.
- The client never downgrades silently: a manifest below the security asked
  for (128 by default) is a SecurityError naming both; an insecure program
  loads only with security="none".
- The library is built from the checked source into $EMBER_CACHE_DIR/lib,
  keyed by the source and the runtime; a second compile does not run g++.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
import ember  # noqa: E402
from ember import _toolchain  # noqa: E402
from ember.compiled import program_hash  # noqa: E402
from frontend_helpers import close, inputs  # noqa: E402

S = 8


@ember.program(slots=S)
def prog(x, y):
    return (x * y).rotate(1) + x


@pytest.fixture(scope="module")
def saved(compiled, tmp_path_factory):
    c = compiled(prog)
    return c, c.save(tmp_path_factory.mktemp("saved") / "prog")


def _copy(folder: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(folder, tmp_path / "copy"))


FILES = [
    "prog.fhe.mlir",
    "prog.kernel.mlir",
    "prog.cpp",
    "prog.manifest.json",
    "prog.data",
    "prog.ckks.txt",
    "prog.rns.txt",
    "prog.cost.txt",
    "ember.json",
]


@pytest.mark.parametrize("name", FILES)
def test_every_modified_file_is_refused(saved, tmp_path, name):
    c, folder = saved
    d = _copy(folder, tmp_path)
    assert sorted(p.name for p in d.iterdir()) == sorted(FILES)
    assert ember.load(d).program_hash == c.program_hash  # intact
    path = d / name
    if name.endswith(".json"):  # one value changed, still valid JSON
        data = json.loads(path.read_text())
        if name == "ember.json":
            data["inputs"] = ["y", "x"]
        else:
            data["keys"]["galois"] = []
        path.write_text(json.dumps(data, indent=2))
    elif name.endswith(".data"):  # one byte of the constants' values
        data = bytearray(path.read_bytes())
        data[-1] ^= 1
        path.write_bytes(bytes(data))
    else:
        path.write_text(path.read_text().replace("\n", "\n ", 1))
    with pytest.raises(ember.SerializationError, match="does not match its"):
        ember.load(d)
    path.unlink()
    with pytest.raises(ember.SerializationError):
        ember.load(d)


def test_the_source_is_checked_again_when_built(saved, tmp_path, rng):
    """A source modified after load is refused before it is built."""
    c, folder = saved
    d = _copy(folder, tmp_path)
    g = ember.load(d)
    (d / "prog.cpp").write_text((d / "prog.cpp").read_text() + "\n// changed\n")
    keys = g.keygen()
    cts = g.encrypt(keys, **inputs(rng, prog))
    with pytest.raises(ember.SerializationError, match="prog.cpp does not match"):
        g.run(keys.evaluation, cts)


def _reseal(d: Path, meta: dict) -> None:
    """What a forger who rewrites the checksums and the hash too would do."""
    for kind, name in meta["files"].items():
        meta["sha256"][kind] = hashlib.sha256((d / name).read_bytes()).hexdigest()
    meta["hash"] = program_hash(meta)
    (d / "ember.json").write_text(json.dumps(meta))


def test_a_resealed_artifact_is_another_program(saved, tmp_path, rng):
    """A consistent forgery (new checksums and hash) loads, but it is another
    program: keys of the real one are refused, and expect_hash refuses it
    at load."""
    c, folder = saved
    d = _copy(folder, tmp_path)
    (d / "prog.cpp").write_text((d / "prog.cpp").read_text() + "\n// forged\n")
    meta = json.loads((d / "ember.json").read_text())
    _reseal(d, meta)
    forged = ember.load(d)
    assert forged.program_hash != c.program_hash
    keys = c.keygen()
    with pytest.raises(ember.KeyMismatchError, match="another program"):
        forged.encrypt(keys, **inputs(rng, prog))
    with pytest.raises(ember.SerializationError, match="not the expected"):
        ember.load(d, expect_hash=c.program_hash)
    assert ember.load(folder, expect_hash=c.program_hash).program_hash == (
        c.program_hash
    )


def test_the_program_hash_covers_the_emitted_source(compiled):
    # concurrency=0: the CPU's memory plan (the GPU's default places buffers
    # for its concurrent graph, so its manifest's arena differs too).
    cpu, cuda = compiled(prog), compiled(prog, target="cuda", concurrency=0)
    assert cpu.manifest == cuda.manifest and cpu.ir("fhe") == cuda.ir("fhe")
    assert cpu.program_hash != cuda.program_hash
    assert (
        cpu.meta["sha256"]["source"] == hashlib.sha256(cpu.source.encode()).hexdigest()
    )


def _log_qp(params: dict) -> int:
    return sum(int(q).bit_length() for q in params["q"] + params["p"])


def test_an_insecure_program_loads_only_when_named(compiled, tmp_path, rng):
    c = compiled(prog, security="none")
    assert c.manifest["params"]["security"] == 0 and c.security == "none"
    vals = inputs(rng, prog)
    close(c(**vals), prog(**vals))  # compiled insecure on purpose: runs
    folder = c.save(tmp_path / "insecure")
    with pytest.raises(ember.SecurityError, match="security 0.*below the 128") as e:
        ember.load(folder)
    assert e.value.filename == __file__
    with pytest.raises(ember.SecurityError, match="below the 128"):
        ember.load(folder, security=128)
    g = ember.load(folder, security="none")
    close(g(**vals), prog(**vals))
    with pytest.raises(ember.SecurityError):  # the e2e client's path
        _toolchain.context_from_params(c.manifest["params"])
    with pytest.raises(ember.OptionError, match="security must be"):
        ember.load(folder, security=80)


def test_a_forged_security_mark_is_caught_by_the_runtime(compiled, tmp_path):
    """Marking insecure primes 128 (and resealing) passes the manifest check,
    but the runtime checks the primes themselves when it builds the context."""
    c = compiled(prog, security="none")
    assert _log_qp(c.manifest["params"]) > 218  # over the bound at N = 2^13
    d = c.save(tmp_path / "forged")
    manifest = json.loads((d / "prog.manifest.json").read_text())
    manifest["params"]["security"] = 128
    (d / "prog.manifest.json").write_text(json.dumps(manifest))
    _reseal(d, json.loads((d / "ember.json").read_text()))
    g = ember.load(d)
    with pytest.raises(ember.SecurityError):
        g.keygen()


# --- the build cache -------------------------------------------------------------


@ember.program(slots=S)
def cached(x):
    return x * x + 0.25


@ember.program(slots=S)
def uncached(x):
    return x * x - 0.75


def _fake_compiler(tmp_path: Path) -> Path:
    """A g++ first on PATH that records that it ran and fails."""
    bin_dir = tmp_path / "fake-bin"
    bin_dir.mkdir()
    marker = tmp_path / "g++ ran"
    gxx = bin_dir / "g++"
    gxx.write_text(f"#!/bin/sh\ntouch '{marker}'\nexit 1\n")
    gxx.chmod(gxx.stat().st_mode | stat.S_IEXEC)
    return marker


def test_a_second_compile_does_not_run_the_compiler(
    build_dir, tmp_path, monkeypatch, rng
):
    cache = tmp_path / "cache"
    monkeypatch.setenv("EMBER_CACHE_DIR", str(cache))
    _toolchain.runtime_identity()  # computed with the real g++, once
    first = ember.compile(cached)
    libraries = list((cache / "lib").glob("*.so"))
    assert len(libraries) == 1 and not list((cache / "lib").glob(".*"))
    marker = _fake_compiler(tmp_path)
    monkeypatch.setenv(
        "PATH", f"{tmp_path / 'fake-bin'}{os.pathsep}{os.environ['PATH']}"
    )
    second = ember.compile(cached)  # the same program: from the cache
    assert not marker.exists()
    assert second.program_hash == first.program_hash
    x = rng.uniform(-1, 1, S)
    close(second(x=x), cached(x))
    # Another program, or the same one against another runtime, is built.
    with pytest.raises(ember.EmberError, match="building the program failed"):
        ember.compile(uncached)
    assert marker.exists()
    marker.unlink()
    monkeypatch.setattr(_toolchain, "runtime_identity", lambda: "another runtime")
    with pytest.raises(ember.EmberError, match="building the program failed"):
        ember.compile(cached)
    assert marker.exists()
    assert not list((cache / "lib").glob(".*"))  # no temporary files left


def test_concurrent_builds_of_one_program(compiled, tmp_path, monkeypatch):
    monkeypatch.setenv("EMBER_CACHE_DIR", str(tmp_path / "cache"))
    source = compiled(cached).source.encode()
    with ThreadPoolExecutor(2) as pool:
        paths = list(pool.map(lambda _: _toolchain.build_library(source), range(2)))
    assert paths[0] == paths[1]
    assert [p.name for p in (tmp_path / "cache" / "lib").iterdir()] == [paths[0].name]
    assert _toolchain.runtime().Program(str(paths[0])).path == str(paths[0])


def test_loaded_programs_use_the_cache(saved, rng, monkeypatch, tmp_path):
    """ember.load builds nothing when the cache holds the program."""
    c, folder = saved
    assert not list(folder.glob("*.so"))  # nothing to load but the cache's
    g = ember.load(folder)
    _fake_compiler(tmp_path)
    monkeypatch.setenv(
        "PATH", f"{tmp_path / 'fake-bin'}{os.pathsep}{os.environ['PATH']}"
    )
    vals = inputs(rng, prog)
    keys = g.keygen()
    got = g.decrypt(keys, g.run(keys.evaluation, g.encrypt(keys, **vals)))
    close(got, prog(**vals))
    assert not (tmp_path / "g++ ran").exists()
    assert np.all(np.isfinite(got))
