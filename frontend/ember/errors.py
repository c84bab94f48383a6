"""Errors of the Ember frontend.

Every error is an :class:`EmberError`. Each one names the user's file and line:
the line of the traced operation for tracing and compiler errors (the MLIR
location the tracer attached), the line of the call into Ember otherwise.
Exceptions of the runtime module (``ember_runtime``) are mapped into this
hierarchy by :func:`runtime_errors`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

_PACKAGE_DIR = Path(__file__).resolve().parent
# Frames that are never the user's code: ours, contextlib's (our context
# managers run inside it) and dataclasses' (CompileOptions is built there).
_SKIPPED_FILES = {contextlib.__file__, dataclasses.__file__}


class EmberError(Exception):
    """Base of every error the Ember frontend raises.

    ``filename`` and ``lineno`` name the user's code the error is about
    (None when there is none, e.g. for a corrupt file on disk).
    """

    def __init__(
        self, message: str, filename: str | None = None, lineno: int | None = None
    ) -> None:
        if filename is None and lineno is None:
            filename, lineno = user_location()
        self.message = message
        self.filename = filename
        self.lineno = lineno
        where = f"{filename}:{lineno}: " if filename else ""
        super().__init__(where + message)


class TraceError(EmberError, TypeError):
    """An operation the tracer cannot express (wrong operand type or length,
    a branch on an encrypted value, a non-encrypted output...)."""


class InputError(EmberError, ValueError):
    """An input of the wrong length or type."""


class ArgumentNameError(EmberError, TypeError):
    """An unknown or missing input name."""


class OptionError(EmberError, ValueError):
    """An argument of ``ember.compile``/``ember.load`` of the wrong type, an
    unknown option or choice (checked before the compiler runs)."""


class CompileError(EmberError):
    """The compiler rejected the program; the message is its diagnostic,
    at the user's line it names (or at a kept copy of the failing IR)."""


class DepthError(CompileError):
    """The program is deeper than any parameters of the requested security
    level allow (the diagnostic of fhe-to-ckks, at the deepest operation)."""


class NotAvailableError(EmberError):
    """A feature that is not available here (KLSS key switching, running a
    CUDA artifact without a GPU)."""


class KeyMismatchError(EmberError):
    """Keys or ciphertexts of another program (or other parameters)."""


class MissingKeyError(EmberError):
    """An evaluation key the program needs is missing."""


class SecurityError(EmberError):
    """Parameters below the requested security level: parameters chosen in
    ``ember.compile`` (log_n, scale_bits, dnum) that cannot hold the program
    securely, or an artifact whose manifest is below the security its
    loader asked for."""


class SerializationError(EmberError):
    """A saved artifact, key or ciphertext is damaged or of another kind."""


@functools.lru_cache(maxsize=4096)
def _in_package(filename: str) -> bool:
    """Whether a code object's file is in the ember package (cached: a
    trace asks for every operation, and resolving a path is a syscall)."""
    try:
        return Path(filename).resolve().is_relative_to(_PACKAGE_DIR)
    except OSError:  # e.g. "<stdin>"
        return False


def _outside_package(frame: FrameType | None) -> FrameType | None:
    while frame is not None:
        code = frame.f_code
        if code.co_filename in _SKIPPED_FILES or (
            code.co_filename == "<string>" and code.co_name == "__init__"
        ):  # the __init__ that dataclasses generate (CompileOptions)
            frame = frame.f_back
            continue
        if not _in_package(code.co_filename):
            return frame
        frame = frame.f_back
    return None


def user_frame() -> FrameType | None:
    """The innermost stack frame outside the ember package."""
    return _outside_package(sys._getframe(1))


def user_location() -> tuple[str | None, int | None]:
    """(file, line) of the innermost frame outside the ember package."""
    frame = user_frame()
    if frame is None:
        return None, None
    return frame.f_code.co_filename, frame.f_lineno


def user_position() -> tuple[str, int, int]:
    """(file, line, column) of the user's code being traced; the column is
    1-based (as in MLIR locations), 1 where Python does not know it."""
    frame = user_frame()
    if frame is None:
        return "<unknown>", 0, 0
    line, col = frame.f_lineno, 1
    positions = list(frame.f_code.co_positions())
    index = frame.f_lasti // 2
    if 0 <= index < len(positions):
        start_line, _, start_col, _ = positions[index]
        if start_line is not None and start_col is not None:
            line, col = start_line, start_col + 1
    return frame.f_code.co_filename, line, col


@contextlib.contextmanager
def runtime_errors(context: str = "") -> Iterator[None]:
    """Maps ``ember_runtime`` exceptions raised inside the block to the
    EmberError hierarchy (at the user's line); others pass through."""
    try:
        yield
    except Exception as err:  # noqa: BLE001 - filtered below
        mapped = _map_runtime_error(err, context)
        if mapped is None:
            raise
        raise mapped from err


def _map_runtime_error(err: Exception, context: str) -> EmberError | None:
    try:
        import ember_runtime as er
    except ImportError:
        return None
    if not isinstance(err, er.EmberError):
        return None
    table: list[tuple[type, type[EmberError]]] = [
        (er.InvalidArgument, InputError),
        (er.MissingKey, MissingKeyError),
        (er.SecurityError, SecurityError),
        (er.SerializationError, SerializationError),
    ]
    kind: type[EmberError] = EmberError
    for runtime_type, ember_type in table:
        if isinstance(err, runtime_type):
            kind = ember_type
            break
    prefix = f"{context}: " if context else ""
    return kind(prefix + str(err))
