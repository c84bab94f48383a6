"""Where the compiler and the runtime module are, and how they are called.

The build folder holds ``bin/ember-opt``, ``bin/ember-translate`` (the
compiler) and ``python/ember_runtime*.so`` (the runtime). It is, in order:
``$EMBER_BUILD_DIR`` (default ``build``; a relative path is taken in the
repository this package lives in, else in the working directory). The
artifact itself is made by ``compiler/tools/ember-compile`` (issue 5's
driver), which this module imports rather than re-implements.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

from ember.errors import (
    CompileError,
    DepthError,
    EmberError,
    NotAvailableError,
    SerializationError,
)

REPO_ROOT = Path(os.environ.get("EMBER_ROOT", Path(__file__).resolve().parents[2]))


def build_dir() -> Path:
    """The build folder (see the module docstring)."""
    name = os.environ.get("EMBER_BUILD_DIR", "build")
    path = Path(name)
    if path.is_absolute():
        return path
    if (REPO_ROOT / path).is_dir():
        return REPO_ROOT / path
    return path.resolve()


@cache
def runtime() -> ModuleType:
    """The ``ember_runtime`` module, from sys.path or the build folder."""
    try:
        import ember_runtime
    except ImportError:
        python_dir = build_dir() / "python"
        if not python_dir.is_dir():
            raise NotAvailableError(
                "cannot import ember_runtime: build the runtime "
                f"(scripts/setup.sh) or set EMBER_BUILD_DIR (looked in {python_dir})"
            ) from None
        sys.path.insert(0, str(python_dir))
        import ember_runtime
    return ember_runtime


def context_from_params(params: dict) -> object:
    """The runtime context of a manifest's "params": its actual primes.

    Needs only the runtime module, so a server or client without the compiler
    rebuilds exactly the parameters the program was compiled for, including
    the KLSS temporary primes "t" and group size "gamma" when the program has
    them.
    """
    er = runtime()
    try:
        t = [int(x) for x in params.get("t", [])]
        q = [int(x) for x in params["q"]]
        p = [int(x) for x in params["p"]]
        spec = er.ParamSpec(
            log_n=int(params["log_n"]),
            q_bits=[x.bit_length() for x in q],
            p_bits=[x.bit_length() for x in p],
            dnum=int(params["dnum"]),
            log_scale=float(params["log_scale"]),
            insecure=params["security"] != 128,
            klss_gamma=int(params.get("gamma", 0)) if t else 0,
            t_bits=[x.bit_length() for x in t],
        )
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as err:
        # A manifest is untrusted input: a missing or mistyped field is a
        # damaged artifact, not a crash.
        raise SerializationError(
            f"the manifest's params are malformed ({type(err).__name__}: {err})"
        ) from err
    try:
        return er.Context(spec, q, p, t)
    except (TypeError, ValueError, OverflowError) as err:  # e.g. a prime >= 2^64
        raise SerializationError(
            f"the manifest's params are malformed ({type(err).__name__}: {err})"
        ) from err


def bin_dir() -> Path:
    """The folder holding ember-opt and ember-translate."""
    d = build_dir() / "bin"
    if not (d / "ember-opt").exists() or not (d / "ember-translate").exists():
        raise NotAvailableError(
            f"the compiler is not built: no ember-opt/ember-translate in {d} "
            "(build with MLIR 22, scripts/setup.sh, or set EMBER_BUILD_DIR)"
        )
    return d


@cache
def _ember_compile() -> ModuleType:
    path = REPO_ROOT / "compiler" / "tools" / "ember-compile"
    if not path.exists():
        raise NotAvailableError(f"{path} not found (set EMBER_ROOT to the repository)")
    loader = importlib.machinery.SourceFileLoader("ember_compile", str(path))
    spec = importlib.util.spec_from_loader("ember_compile", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def pipeline_options(
    security: int | str,
    hoisting: bool,
    keyswitch: str = "auto",
    key_memory_mib: int = 0,
) -> str:
    """The option string of the fhe-to-rns / fhe-to-kernel pipelines."""
    sec = "none" if security in ("none", None, 0) else str(security)
    return (
        f"security={sec} hoisting={'true' if hoisting else 'false'}"
        f" keyswitch={keyswitch} key-memory-budget-mib={int(key_memory_mib)}"
    )


_DIAGNOSTIC = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$"
)


def raise_diagnostic(stderr: str, fallback: tuple[str, int]) -> None:
    """Raises the compiler's first error as a CompileError (DepthError for a
    program too deep for secure parameters) at the user's line."""
    for line in stderr.splitlines():
        m = _DIAGNOSTIC.match(line.strip())
        if m:
            msg = m["msg"]
            kind = DepthError if "multiplicative depth" in msg else CompileError
            raise kind(msg, m["file"], int(m["line"]))
    raise CompileError("the compiler failed:\n" + stderr.strip(), *fallback)


def compile_artifact(
    source: Path,
    outdir: Path,
    name: str,
    targets: tuple[str, ...],
    options: str,
    fallback: tuple[str, int],
) -> dict[str, Path]:
    """ember-compile's compile_artifact, with its errors as CompileErrors."""
    tool = _ember_compile()
    try:
        return tool.compile_artifact(source, outdir, name, targets, options, bin_dir())
    except RuntimeError as err:
        raise_diagnostic(str(err), fallback)
        raise  # unreachable: raise_diagnostic always raises


def run_opt(args: list[str], fallback: tuple[str, int]) -> subprocess.CompletedProcess:
    """Runs ember-opt; a failure raises the diagnostic as a CompileError."""
    run = subprocess.run(
        [str(bin_dir() / "ember-opt"), *args], capture_output=True, text=True
    )
    if run.returncode != 0:
        raise_diagnostic(run.stderr, fallback)
    return run


def build_library(source: Path, library: Path) -> Path:
    """Builds an emitted .cpp into a shared library against the runtime."""
    er = runtime()
    try:
        return Path(er.build_program(str(source), str(library)))
    except er.EmberError as err:
        raise EmberError(f"building {source.name} failed: {err}") from err
