"""Where the compiler and the runtime module are, and how they are called.

Each is looked for next to the package first, then in a build folder:

- installed (``pip install .``; cmake/EmberInstall.cmake): the package holds
  ``_bin/`` (ember-opt, ember-translate and the artifact driver
  ember-compile, when the compiler was built), ``_runtime/`` (the headers and
  libraries emitted programs are built against; the runtime module itself,
  ``ember_runtime``, lies beside the package) and ``_install.json`` (which
  optional parts were built, and why one was not);
- the source tree (developer's path): the build folder holds
  ``bin/ember-opt``, ``bin/ember-translate`` and ``python/ember_runtime*.so``,
  and the driver is the repository's ``compiler/tools/ember-compile`` (issue
  5), which this module imports rather than re-implements. The build folder
  is ``$EMBER_BUILD_DIR`` (default ``build``; a relative path is taken in the
  repository this package lives in, else in the working directory).

Compiler errors become Python exceptions at the user's line
(:func:`raise_compile_error`); built programs are cached by content
(:func:`build_library`) in :func:`cache_dir`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import NoReturn

from ember.errors import (
    CompileError,
    DepthError,
    EmberError,
    NotAvailableError,
    OptionError,
    SecurityError,
    SerializationError,
)
from ember.options import CompileOptions, python_names

PACKAGE_DIR = Path(__file__).resolve().parent
REPO_ROOT = Path(os.environ.get("EMBER_ROOT", PACKAGE_DIR.parents[1]))
COMPILER_TOOLS = ("ember-opt", "ember-translate")


def build_dir() -> Path:
    """The build folder (see the module docstring)."""
    name = os.environ.get("EMBER_BUILD_DIR", "build")
    path = Path(name)
    if path.is_absolute():
        return path
    if (REPO_ROOT / path).is_dir():
        return REPO_ROOT / path
    return path.resolve()


def install_info() -> dict | None:
    """The installed package's ``_install.json``: ``{"compiler": bool,
    "cuda": bool}`` and, for a part not built, ``"<part>_missing"``: why
    (e.g. "MLIR 22 was not found when it was built"). None in the source
    tree."""
    try:
        return json.loads((PACKAGE_DIR / "_install.json").read_text())
    except FileNotFoundError:
        return None


@cache
def runtime() -> ModuleType:
    """The ``ember_runtime`` module, from sys.path (beside the installed
    package) or the build folder."""
    try:
        import ember_runtime
    except ImportError:
        python_dir = build_dir() / "python"
        if not python_dir.is_dir():
            where = (
                "this installation of ember has no ember_runtime module "
                "(reinstall it: pip install .)"
                if install_info() is not None
                else "build the runtime (scripts/setup.sh) or set EMBER_BUILD_DIR"
            )
            raise NotAvailableError(
                f"cannot import ember_runtime: {where} (looked in {python_dir})"
            ) from None
        sys.path.insert(0, str(python_dir))
        import ember_runtime
    return ember_runtime


def context_from_params(params: dict, security: int | str = 128) -> object:
    """The runtime context of a manifest's "params": its actual primes.

    Needs only the runtime module, so a server or client without the compiler
    rebuilds exactly the parameters the program was compiled for, including
    the KLSS temporary primes "t" and group size "gamma" when the program has
    them. ``security`` is what the caller asks for, never what the manifest
    says: at 128 a manifest marked below 128 bits is a SecurityError, and
    the runtime checks the primes themselves against the 128-bit bound;
    "none" (the insecure test mode, named by the user) skips both.
    """
    er = runtime()
    if not isinstance(params, dict):
        raise SerializationError("the manifest's params are not an object")
    insecure = check_security(params, security, "the program")
    try:
        t = [int(x) for x in params.get("t", [])]
        q = [int(x) for x in params["q"]]
        p = [int(x) for x in params["p"]]
        spec = er.ParamSpec(
            log_n=int(params["log_n"]),
            q_bits=[x.bit_length() for x in q],
            p_bits=[x.bit_length() for x in p],
            dnum=int(params["dnum"]),
            log_scale=_log_scale(params, q),
            insecure=insecure,
            klss_gamma=int(params.get("gamma", 0)) if t else 0,
            hamming_weight=int(params.get("hamming_weight", 0)),
            t_bits=[x.bit_length() for x in t],
        )
        spec.scale_primes = int(params.get("scale_primes", 1))
        word = int(params.get("word", 64))
        if word not in (32, 64):
            raise ValueError(f"word = {word} is neither 32 nor 64")
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as err:
        # A manifest is untrusted input: a missing or mistyped field is a
        # damaged artifact, not a crash.
        raise SerializationError(
            f"the manifest's params are malformed ({type(err).__name__}: {err})"
        ) from err
    try:
        if word == 32:
            return er.Context32(spec, q, p, t)
        return er.Context(spec, q, p, t)
    except (TypeError, ValueError, OverflowError) as err:  # e.g. a prime >= 2^64
        raise SerializationError(
            f"the manifest's params are malformed ({type(err).__name__}: {err})"
        ) from err


def _log_scale(params: dict, q: list[int]) -> float:
    """The params' log_scale; a BGV program's manifest may leave it out
    (BGV has a factor, not a scale): then a nominal one, the bits of its
    last prime, which the context only checks to lie in 1..60."""
    if params.get("scheme") in ("bgv", "bfv") and "log_scale" not in params:
        return float(min(60, max(1, q[-1].bit_length() - 1)))
    return float(params["log_scale"])


def check_security(params: dict, security: int | str, what: str) -> bool:
    """Whether the insecure test mode is asked for (``security="none"``);
    at 128, parameters marked below 128 bits are a SecurityError naming
    both."""
    if security not in (128, "128", "none"):
        raise OptionError(
            f"security must be 128 or 'none' (insecure test mode), got {security!r}"
        )
    if security == "none":
        return True
    if params.get("security") != 128:
        raise SecurityError(
            f"{what} has parameters of security {params.get('security')!r} (the "
            "insecure test mode), below the 128 bits asked for; pass "
            "security='none' only to run it insecurely, for tests"
        )
    return False


def bin_dir() -> Path:
    """The folder holding ember-opt and ember-translate: the package's
    ``_bin``, else the build folder's ``bin``. Neither: NotAvailableError,
    saying why an installed package has no compiler."""
    looked = [PACKAGE_DIR / "_bin", build_dir() / "bin"]
    for d in looked:
        if all((d / tool).exists() for tool in COMPILER_TOOLS):
            return d
    info = install_info()
    if info is not None and not info.get("compiler"):
        why = info.get("compiler_missing", "it was left out")
        raise NotAvailableError(
            "the compiler was not built: this installation of ember has the "
            f"runtime only ({why}), so it loads and runs saved programs "
            "(ember.load) but cannot compile; install it where MLIR 22 is "
            "(pip install .) or set EMBER_BUILD_DIR to a build with the compiler"
        )
    raise NotAvailableError(
        "the compiler is not built: no ember-opt/ember-translate in "
        + " or ".join(str(d) for d in looked)
        + " (build with MLIR 22: scripts/setup.sh, or set EMBER_BUILD_DIR)"
    )


@cache
def _ember_compile(bins: Path) -> ModuleType:
    """The artifact driver: beside the tools in ``bins`` (installed), else
    the repository's."""
    path = bins / "ember-compile"
    if not path.exists():
        path = REPO_ROOT / "compiler" / "tools" / "ember-compile"
    if not path.exists():
        raise NotAvailableError(
            f"ember-compile not found in {bins} nor in {path.parent} "
            "(set EMBER_ROOT to the repository)"
        )
    loader = importlib.machinery.SourceFileLoader("ember_compile", str(path))
    spec = importlib.util.spec_from_loader("ember_compile", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def pipeline_options(options: CompileOptions) -> str:
    """The option string of ``--ember-pipeline=fhe-to-kernel{...}`` (and
    fhe-to-rns): the one place it is written. Options left at None are left
    to the compiler."""
    parts = []
    for f in dataclasses.fields(options):
        value = getattr(options, f.name)
        if value is None:
            continue
        if isinstance(value, bool):
            value = "true" if value else "false"
        parts.append(f"{f.metadata['pipeline']}={value}")
    return " ".join(parts)


# --- diagnostics ---------------------------------------------------------------
_DIAGNOSTIC = re.compile(
    r"^(?:(?P<file>.+?):(?P<line>\d+)(?::(?P<col>\d+))?: )?"
    r"(?P<severity>error|warning|note|remark): (?P<msg>.*)$"
)
_QUOTED_LOCATION = re.compile(r'"(?P<file>(?:[^"\\]|\\.)*)":(?P<line>\d+):\d+')
_LOCATION_ALIAS = re.compile(r"#loc[\w$.-]*")


@dataclass
class Diagnostic:
    """The compiler's first error: its message and every location it names,
    in order: the one MLIR shows, those inside a ``loc(...)`` it prints
    (a name or call site it could not show as a file line), those of the IR
    line it points at (fused and call-site locations, whose first file line
    MLIR shows) and those of its notes ("called from")."""

    message: str
    locations: list[tuple[str, int]]


def _split_location(message: str) -> tuple[str, str]:
    """("loc(...)", rest) when the message starts with a printed location."""
    if not message.startswith("loc("):
        return "", message
    depth, quoted, i = 0, False, 0
    for i, ch in enumerate(message):
        if quoted:
            quoted = ch != '"' or message[i - 1] == "\\"
        elif ch == '"':
            quoted = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                break
    return message[: i + 1], message[i + 1 :].removeprefix(": ")


def _quoted_locations(text: str) -> list[tuple[str, int]]:
    """The file:line locations in a printed location."""
    return [(m["file"], int(m["line"])) for m in _QUOTED_LOCATION.finditer(text)]


def _ir_line_locations(file: str, line: int) -> list[tuple[str, int]]:
    """The locations inside a fused or call-site location written on line
    ``line`` of an IR file. (A plain file location there is not the
    diagnostic's: MLIR would have shown it. A parse error, for one, is at
    the IR text whatever location the op would have had.)"""
    try:
        lines = Path(file).read_text().splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    aliases = {}
    for text in lines:
        m = re.match(r"^(#loc[\w$.-]*) = (loc\(.*\))$", text)
        if m:
            aliases[m[1]] = m[2]
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    start = text.find(" loc(")
    if start < 0:
        return []
    text = text[start:]
    for _ in range(8):  # aliases of aliases (fused locations of aliases)
        text = _LOCATION_ALIAS.sub(lambda m: aliases.get(m[0], ""), text)
    if "fused" not in text and "callsite(" not in text:
        return []
    return _quoted_locations(text)


def first_error(stderr: str) -> Diagnostic | None:
    """The first error diagnostic in ember-opt's or ember-translate's stderr."""
    diag: Diagnostic | None = None
    for text in stderr.splitlines():
        m = _DIAGNOSTIC.match(text)
        if not m or m["severity"] not in ("error", "note"):
            continue
        if m["severity"] == "error" and diag is not None:
            break
        located, message = _split_location(m["msg"])
        where = []
        if m["file"] and m["file"] != "<unknown>" and int(m["line"]) > 0:
            where.append((m["file"], int(m["line"])))
            if m["file"].endswith(".mlir"):
                where += _ir_line_locations(m["file"], int(m["line"]))
        where += _quoted_locations(located)
        if m["severity"] == "error":
            diag = Diagnostic(message, where)
        elif diag is not None:
            diag.locations += where
    return diag


def _inside(file: str, folder: Path) -> bool:
    try:
        return Path(file).resolve().is_relative_to(folder.resolve())
    except (OSError, ValueError):
        return False


def keep_failed(workdir: Path, name: str, stderr: str, command: Sequence[str]) -> Path:
    """Copies the IR files of a failed compilation to a folder that stays,
    ``$EMBER_CACHE_DIR/failed/<name>-<hash>/`` (with error.txt: the command
    and the compiler's output), and returns that folder."""
    h = hashlib.sha256(shlex.join(command).encode())
    files = sorted(p for p in workdir.iterdir() if p.suffix == ".mlir")
    for p in files:
        h.update(p.name.encode() + b"\0" + p.read_bytes())
    kept = cache_dir() / "failed" / f"{name}-{h.hexdigest()[:16]}"
    kept.mkdir(parents=True, exist_ok=True)
    for p in files:
        shutil.copyfile(p, kept / p.name)
    moved = str(workdir)
    (kept / "error.txt").write_text(
        shlex.join(a.replace(moved, str(kept)) for a in command)
        + "\n\n"
        + stderr.replace(moved, str(kept))
    )
    return kept


def raise_compile_error(
    stderr: str,
    command: Sequence[str],
    workdir: Path,
    name: str,
    options: CompileOptions,
    fallback: tuple[str, int],
) -> NoReturn:
    """Raises the compiler's first error as a CompileError, DepthError or
    SecurityError.

    Where: an error about an option of ``ember.compile`` at the line that
    called it; otherwise at the first user's (Python) line among the
    diagnostic's locations; a diagnostic that names only the IR the
    compiler was given points at a copy of it kept by :func:`keep_failed`
    (never into the temporary folder, which is deleted); one without any
    location at the program's definition, naming the kept copy.
    """
    diag = first_error(stderr)
    if diag is None:
        kept = keep_failed(workdir, name, stderr, command)
        raise CompileError(
            f"the compiler failed (its input and output are kept in {kept}):\n"
            + stderr.strip(),
            *fallback,
        )
    message = python_names(diag.message)
    kind: type[CompileError | SecurityError] = CompileError
    if "multiplicative depth" in message:
        kind = DepthError
        chosen = options.log_n or options.scale_bits or options.dnum
        if chosen and options.security == 128 and "128-bit secure" in message:
            kind = SecurityError
            message += (
                " (the parameters asked for would be below 128-bit security "
                "at this depth)"
            )
    elif "parameter set" in message or any(
        re.search(rf"(?<![\w-]){option}(?![\w-])", message)
        for option in options.changed()
    ):
        raise kind(message)  # about an argument: at the call's line
    for file, line in diag.locations:
        if not _inside(file, workdir):
            raise kind(message, file, line)
    kept = keep_failed(workdir, name, stderr, command)
    if diag.locations:
        file, line = diag.locations[0]
        raise kind(
            f"{message} (in the IR the compiler was given; kept in {kept})",
            str(kept / Path(file).name),
            line,
        )
    raise kind(f"{message} (the failing IR is kept in {kept})", *fallback)


# --- running the compiler ------------------------------------------------------
def compile_artifact(
    source: Path,
    outdir: Path,
    name: str,
    targets: tuple[str, ...],
    options: CompileOptions,
    fallback: tuple[str, int],
) -> dict[str, Path]:
    """ember-compile's compile_artifact, with its errors raised by
    :func:`raise_compile_error`."""
    bins = bin_dir()
    tool = _ember_compile(bins)
    try:
        return tool.compile_artifact(
            source, outdir, name, targets, pipeline_options(options), bins
        )
    except tool.CompileFailure as err:
        failure = err  # raised below, outside this block: no chained traceback
    raise_compile_error(
        failure.stderr, failure.command, source.parent, name, options, fallback
    )


def run_opt(
    args: list[str],
    workdir: Path,
    name: str,
    options: CompileOptions,
    fallback: tuple[str, int],
) -> subprocess.CompletedProcess:
    """Runs ember-opt on files of ``workdir``; a failure is raised by
    :func:`raise_compile_error`."""
    return _run_tool("ember-opt", args, workdir, name, options, fallback)


def run_translate(
    args: list[str],
    workdir: Path,
    name: str,
    options: CompileOptions,
    fallback: tuple[str, int],
) -> subprocess.CompletedProcess:
    """Runs ember-translate (an emitter) as :func:`run_opt` runs ember-opt."""
    return _run_tool("ember-translate", args, workdir, name, options, fallback)


def _run_tool(
    tool: str,
    args: list[str],
    workdir: Path,
    name: str,
    options: CompileOptions,
    fallback: tuple[str, int],
) -> subprocess.CompletedProcess:
    command = [str(bin_dir() / tool), *args]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        raise_compile_error(run.stderr, command, workdir, name, options, fallback)
    return run


# --- building programs, cached by content ------------------------------------
def cache_dir() -> Path:
    """Where built libraries and kept failing IR go: ``$EMBER_CACHE_DIR``,
    else ``$XDG_CACHE_HOME/ember``, else ``~/.cache/ember``."""
    if os.environ.get("EMBER_CACHE_DIR"):
        return Path(os.environ["EMBER_CACHE_DIR"])
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "ember"


def _digest(path: Path) -> bytes:
    with path.open("rb") as f:
        return hashlib.file_digest(f, "sha256").digest()


@cache
def runtime_identity() -> str:
    """SHA-256 of what a built program depends on besides its source: the
    build command (compiler, flags, paths), the compiler's version, the
    runtime library it links, the runtime module that loads it and every
    runtime header (program.h holds the program ABI version)."""
    er = runtime()
    h = hashlib.sha256(b"ember build cache 1\n")
    command = er.program_build_command("SOURCE", "LIBRARY")
    h.update(command.encode() + b"\n")
    try:
        version = subprocess.run(
            [*shlex.split(command)[:1], "--version"], capture_output=True, text=True
        ).stdout
    except OSError:  # no compiler: the build itself reports it
        version = ""
    h.update(version.encode())
    libraries = [Path(er.runtime_library), Path(er.__file__)]
    if getattr(er, "cuda_built", False):
        libraries.append(Path(er.cuda_library))
    for path in libraries:
        h.update(_digest(path))
    include = Path(er.runtime_include_dir)
    for path in sorted(include.rglob("*")):
        if path.is_file():
            h.update(str(path.relative_to(include)).encode() + b"\0" + _digest(path))
    return h.hexdigest()


def _run_build(source: Path, library: Path) -> None:
    """g++ of an emitted .cpp into a shared library against the runtime."""
    command = runtime().program_build_command(str(source), str(library))
    run = subprocess.run(command, shell=True, capture_output=True, text=True)
    if run.returncode != 0:
        raise EmberError(
            f"building the program failed (exit {run.returncode}): {command}\n"
            + (run.stdout + run.stderr).strip()
        )


def cached_data(data: bytes) -> Path:
    """A program's data file (the values of its plaintext constants) as a
    file the runtime can read: ``<cache_dir>/data/<sha256>.data``, written
    from these (checked) bytes under a temporary name and renamed into place,
    so what the runtime reads is what was checked."""
    key = hashlib.sha256(data).hexdigest()
    data_dir = cache_dir() / "data"
    path = data_dir / f"{key}.data"
    if path.exists() and hashlib.sha256(path.read_bytes()).hexdigest() == key:
        return path
    data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, tmp = tempfile.mkstemp(prefix=f".{key[:16]}-", suffix=".data", dir=data_dir)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)
    return path


def cuda_runtime() -> ModuleType:
    """The runtime module, checked to have the CUDA backend
    (NotAvailableError naming what is missing otherwise)."""
    er = runtime()
    if not getattr(er, "cuda_built", False):
        raise NotAvailableError(
            "this Ember runtime was built without the CUDA backend (nvcc was not "
            "found when it was built, or EMBER_ENABLE_CUDA=OFF): target='cuda' "
            "programs cannot run here; rebuild on a host with the CUDA toolkit"
        )
    return er


def nvcc() -> str:
    """nvcc: ``$EMBER_NVCC``, else the one the runtime was built with, else
    the first on PATH (NotAvailableError when there is none)."""
    er = cuda_runtime()
    for candidate in (os.environ.get("EMBER_NVCC"), er.nvcc_found_at_build):
        if candidate and Path(candidate).is_file():
            return candidate
    found = shutil.which("nvcc")
    if found:
        return found
    raise NotAvailableError(
        "nvcc not found (set EMBER_NVCC or put the CUDA toolkit's bin on PATH): "
        "a target='cuda' program is built into a library with nvcc"
    )


def nvcc_available() -> bool:
    """Whether CUDA programs can be built here (a CUDA runtime and nvcc)."""
    try:
        nvcc()
    except NotAvailableError:
        return False
    return True


def _cuda_library_path(source: bytes) -> Path:
    er = cuda_runtime()
    arch = os.environ.get("EMBER_CUDA_ARCH", er.cuda_arch)
    h = hashlib.sha256(runtime_identity().encode() + b"\0cuda\0" + arch.encode())
    h.update(b"\0" + source)
    return cache_dir() / "lib" / f"{h.hexdigest()}.cuda.so"


def build_cuda_library(source: bytes) -> Path:
    """The loadable library of an emitted .cu: from the cache when it holds
    one for this source, runtime and GPU architecture, else built by nvcc
    (seconds) against the runtime's CUDA and host libraries, as
    :func:`build_library` does for C++. The architecture is the runtime's
    (``cuda_arch``, from CMAKE_CUDA_ARCHITECTURES) unless
    ``$EMBER_CUDA_ARCH`` names another (e.g. 100)."""
    er = cuda_runtime()
    library = _cuda_library_path(source)
    if library.exists():
        return library
    arch = os.environ.get("EMBER_CUDA_ARCH", er.cuda_arch)
    library.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, tmp = tempfile.mkstemp(
        prefix=f".{library.stem[:16]}-", suffix=".cu", dir=library.parent
    )
    tmp_source = Path(tmp)
    tmp_library = tmp_source.with_suffix(".so")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(source)
        command = er.cuda_program_build_command(
            str(tmp_source), str(tmp_library), nvcc(), arch
        )
        run = subprocess.run(command, shell=True, capture_output=True, text=True)
        if run.returncode != 0:
            raise EmberError(
                f"building the CUDA program failed (exit {run.returncode}): "
                f"{command}\n" + (run.stdout + run.stderr).strip()
            )
        os.replace(tmp_library, library)
    finally:
        tmp_source.unlink(missing_ok=True)
        tmp_library.unlink(missing_ok=True)
    return library


def build_library(source: bytes) -> Path:
    """The shared library of an emitted .cpp: from the cache when it holds
    one for this source and runtime, else built (g++, seconds) into it.

    The key is SHA-256 of :func:`runtime_identity` and the source bytes; the
    library is ``<cache_dir>/lib/<key>.so``, written under a temporary name
    and renamed into place, so concurrent compiles of the same program are
    safe (the last rename wins, with identical content). The library is
    built from these bytes, never from a file that could change meanwhile.
    """
    key = hashlib.sha256(runtime_identity().encode() + b"\0" + source).hexdigest()
    lib_dir = cache_dir() / "lib"
    library = lib_dir / f"{key}.so"
    if library.exists():
        return library
    lib_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, tmp = tempfile.mkstemp(prefix=f".{key[:16]}-", suffix=".cpp", dir=lib_dir)
    tmp_source = Path(tmp)
    tmp_library = tmp_source.with_suffix(".so")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(source)
        _run_build(tmp_source, tmp_library)
        os.replace(tmp_library, library)
    finally:
        tmp_source.unlink(missing_ok=True)
        tmp_library.unlink(missing_ok=True)
    return library
