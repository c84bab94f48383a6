"""Compiler diagnostics name the user's Python line, or a file that exists.

The compiler runs in a temporary folder that ember.compile deletes. An error
about an option names the line that called ember.compile; one whose location
chain holds a Python line (directly, through a call site or a fused
location) names that line; one that names only the IR names a copy of it
kept under $EMBER_CACHE_DIR/failed/<name>-<hash>/ (with error.txt), never
the deleted folder.
"""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import ember  # noqa: E402
from ember import _mlir, _toolchain  # noqa: E402
from frontend_helpers import line_of  # noqa: E402

HERE = __file__


@ember.program(slots=8)
def with_constant(x):
    return x * x + 1e-05  # the constant


def test_an_error_in_the_ir_points_at_a_kept_copy(build_dir, monkeypatch, ember_cache):
    """A module the parser rejects (as `x * x + 1e-05` was before f64 wrote
    MLIR's float syntax): the error names a kept copy of the IR, at the
    offending line, which still exists when the temporary folder is gone."""
    monkeypatch.setattr(_mlir, "f64", lambda x: repr(float(x)))  # "1e-05"
    with pytest.raises(ember.CompileError) as e:
        ember.compile(with_constant, "cuda")
    kept, line = Path(e.value.filename), e.value.lineno
    assert kept.parent.is_relative_to(ember_cache / "failed")
    assert kept.name == "with_constant.fhe.mlir"
    assert f"kept in {kept.parent}" in e.value.message
    del e
    gc.collect()  # the traceback no longer holds the temporary folder
    assert "dense<1e-05>" in kept.read_text().splitlines()[line - 1]
    error = (kept.parent / "error.txt").read_text()
    assert "ember-opt" in error and f"{kept}:{line}:" in error


@ember.program(slots=8)
def rotating(x):
    return x * x.rotate(1)


def test_an_error_about_an_option_names_the_call(build_dir):
    """key_memory_mib too small for any keys: the pass's diagnostic is on the
    module, which used to be the deleted IR file; now it is the line that
    called ember.compile, and the message uses the Python option name."""
    with pytest.raises(ember.CompileError, match="key_memory_mib = 1 allows") as e:
        ember.compile(rotating, "cuda", key_memory_mib=1)  # the call
    assert e.value.filename == HERE
    assert e.value.lineno == line_of(
        test_an_error_about_an_option_names_the_call, "# the call"
    )


@ember.program(slots=8192)
def wide(x):
    return x + 1.0


def test_a_program_level_error_names_the_definition(build_dir):
    """A program without multiplications has no deepest operation: the
    diagnostic is on the module, which carries the program's location."""
    with pytest.raises(ember.CompileError, match="8192 slots, more than N/2") as e:
        ember.compile(wide, "cuda", log_n=13)
    assert (e.value.filename, e.value.lineno) == (HERE, wide.lineno)


PY_LINE = 77  # any line of this file: the "user's line" of the modules below

MODULE = """module {{
func.func @f(%arg0: !fhe.ct<8>) -> !fhe.ct<8> {{
  %0 = fhe.mul %arg0, %arg0 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8> {loc}
  %1 = fhe.mul %0, %0 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8> {loc}
  %2 = fhe.mul %1, %1 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8> {loc}
  return %2 : !fhe.ct<8>
}}
}}
"""


def _fail(tmp_path: Path, loc: str) -> ember.EmberError:
    """Runs the pipeline on MODULE with `loc` on its multiplications, at
    parameters too small for its depth; returns the error raised."""
    ir = tmp_path / "f.fhe.mlir"
    ir.write_text(MODULE.format(loc=loc.replace("IR", str(ir))))
    options = ember.CompileOptions(log_n=13, scale_bits=60)
    with pytest.raises(ember.SecurityError, match="multiplicative depth 3") as e:
        _toolchain.run_opt(
            [
                f"--ember-pipeline=fhe-to-rns{{{_toolchain.pipeline_options(options)}}}",
                str(ir),
                "-o",
                os.devnull,
            ],
            tmp_path,
            "f",
            options,
            ("fallback.py", 1),
        )
    return e.value


@pytest.mark.parametrize(
    "loc",
    [
        f'loc("{HERE}":{PY_LINE}:5)',
        f'loc(callsite("IR":3:4 at "{HERE}":{PY_LINE}:5))',  # Python = the caller
        f'loc(fused["IR":3:4, "{HERE}":{PY_LINE}:1])',  # MLIR shows the IR line
        f'loc("a name"("{HERE}":{PY_LINE}:1))',
        f'loc(callsite("inlined" at "{HERE}":{PY_LINE}:5))',
    ],
    ids=["file", "callsite", "fused", "name", "callsite-name"],
)
def test_the_users_line_anywhere_in_the_location_chain(build_dir, tmp_path, loc):
    err = _fail(tmp_path, loc)
    assert (err.filename, err.lineno) == (HERE, PY_LINE)


def test_no_location_at_all(build_dir, tmp_path, ember_cache):
    """Ops at unknown locations: the error is at the fallback (the
    program's definition) and names the kept IR, which exists."""
    err = _fail(tmp_path, "loc(unknown)")
    assert (err.filename, err.lineno) == ("fallback.py", 1)
    kept = Path(err.message.split("is kept in ")[1].rstrip(")"))
    assert kept.is_relative_to(ember_cache / "failed")
    assert (kept / "f.fhe.mlir").exists() and (kept / "error.txt").exists()


def test_only_an_ir_line(build_dir, tmp_path, ember_cache):
    """Ops without a location of their own are at their line of the IR file:
    the error names that line of the kept copy."""
    err = _fail(tmp_path, "")
    kept = Path(err.filename)
    assert kept.parent.is_relative_to(ember_cache / "failed")
    assert err.lineno == 5  # the deepest multiplication
    assert "%2 = fhe.mul %1, %1" in kept.read_text().splitlines()[err.lineno - 1]
