"""Tracing: ``ember.program``, ``ember.Encrypted`` and ``ember.sum``.

A program is an ordinary Python function over :class:`Encrypted` values.
Calling the compiler traces it once by operator overloading: every ``+``,
``-``, ``*``, ``/`` (by a plaintext: a multiplication by its reciprocal),
unary ``-``, ``rotate`` and ``conjugate`` on an Encrypted value appends one
fhe-dialect operation (through :mod:`ember._mlir`, at the user's line);
Python control flow runs at trace time. The same function also runs on
plain numpy arrays (``program(x=..., y=...)``), with the same semantics:
``x.rotate(k)`` is ``np.roll(x, -k)``, ``x.conjugate()`` is ``np.conj(x)``
and ``ember.sum(x)`` puts the total in every slot.

Inputs and plaintext operands shorter than ``slots`` are zero-padded to
``slots`` values (in both interpretations), so a rotation moves the
padding's zeros in: with 8 slots, ``[1, 2, 3]`` rotated by 1 is
``[2, 3, 0, 0, 0, 0, 0, 1]``.
"""

from __future__ import annotations

import functools
import inspect
import math
import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ember import _mlir
from ember.errors import ArgumentNameError, InputError, TraceError, user_position
from ember.ranges import check_declared

MAX_SLOTS = 1 << 16  # N/2 at N = 2^17, the largest ring Ember supports


class _Tracer:
    """The state of one trace: the emitter and the identity of its values."""

    def __init__(self, program: Program) -> None:
        self.program = program
        self.emitter = _mlir.FunctionEmitter(
            program.name, program.slots, program.location
        )


class Encrypted:
    """An encrypted vector of ``slots`` real numbers (one per slot).

    Inside a traced program each operation records one fhe operation; when
    the program runs on numpy arrays (``program(...)``) the same methods
    compute on the plain values. Operands of ``+ - *`` are Encrypted values,
    numpy arrays of at most ``slots`` values (zero-padded) or scalars, on
    either side; ``x / d`` divides by a nonzero scalar or array ``d``.
    """

    __array_ufunc__ = None  # numpy defers to our reflected operators

    def __init__(
        self, value: _mlir.Value | np.ndarray, slots: int, tracer: _Tracer | None
    ) -> None:
        self._value = value
        self._slots = slots
        self._tracer = tracer

    @property
    def slots(self) -> int:
        """Number of slots of the vector."""
        return self._slots

    # --- operands --------------------------------------------------------------
    def _coerce(
        self, other: object, op: str, pad: bool = True
    ) -> Encrypted | np.ndarray | float:
        if isinstance(other, Encrypted):
            if other._tracer is not self._tracer:
                raise TraceError(
                    f"'{op}' mixes values of different programs (or a traced "
                    "value with a plain one)"
                )
            if other._slots != self._slots:
                raise TraceError(
                    f"'{op}' of vectors with {self._slots} and {other._slots} slots"
                )
            return other
        if isinstance(other, numbers.Real):
            if not math.isfinite(other):
                raise TraceError(f"operand of '{op}' is a NaN or infinite value")
            return float(other)
        if isinstance(other, np.ndarray | list | tuple):
            a = _check_plain(np.asarray(other), self._slots, f"operand of '{op}'")
            return _pad(a, self._slots) if pad else a
        raise TraceError(
            f"unsupported operand type for '{op}': {type(other).__name__} (expected "
            f"an Encrypted value, a numpy array of at most {self._slots} values "
            "or a real scalar)"
        )

    def _wrap(self, value: _mlir.Value | np.ndarray) -> Encrypted:
        return Encrypted(value, self._slots, self._tracer)

    def _binary(self, op: str, other: object, reflected: bool = False) -> Encrypted:
        rhs = self._coerce(other, op)
        # Identities that cost nothing: x * 1, x * -1 (a negation), x +- 0.
        if isinstance(rhs, float):
            if op == "mul" and rhs == 1.0:
                return self
            if op == "mul" and rhs == -1.0:
                return -self
            if op in ("add", "sub") and rhs == 0.0:
                return -self if (op == "sub" and reflected) else self
        if self._tracer is None:
            a = self._value
            b = rhs._value if isinstance(rhs, Encrypted) else rhs
            if reflected:
                a, b = b, a
            fn = {"add": np.add, "sub": np.subtract, "mul": np.multiply}[op]
            return self._wrap(np.asarray(fn(a, b), dtype=np.result_type(a, b)))
        emitter = self._tracer.emitter
        loc = user_position()
        if isinstance(rhs, Encrypted):
            b = rhs._value
        else:
            b = emitter.constant(rhs, loc)
        a = self._value
        if reflected:
            a, b = b, a
        return self._wrap(emitter.binary(op, a, b, loc))

    def __add__(self, other: object) -> Encrypted:
        return self._binary("add", other)

    def __radd__(self, other: object) -> Encrypted:
        return self._binary("add", other, reflected=True)

    def __sub__(self, other: object) -> Encrypted:
        return self._binary("sub", other)

    def __rsub__(self, other: object) -> Encrypted:
        return self._binary("sub", other, reflected=True)

    def __mul__(self, other: object) -> Encrypted:
        return self._binary("mul", other)

    def __rmul__(self, other: object) -> Encrypted:
        return self._binary("mul", other, reflected=True)

    def __truediv__(self, other: object) -> Encrypted:
        """``x / d`` for a plaintext ``d``, a scalar or a vector (elementwise):
        the multiplication by ``1 / d``, which costs one level. A vector
        shorter than ``slots`` gives a reciprocal zero-padded like any other
        plaintext. Division by an Encrypted value or by zero is a
        TraceError."""
        if isinstance(other, Encrypted):
            raise TraceError(
                "division by an encrypted value: CKKS has no division (multiply "
                "by a polynomial approximation of 1/y instead)"
            )
        divisor = self._coerce(other, "div", pad=False)
        assert not isinstance(divisor, Encrypted)
        if np.any(np.asarray(divisor) == 0.0):
            where = "" if isinstance(divisor, float) else " (in some slots)"
            raise TraceError(f"division by zero{where}")
        with np.errstate(over="ignore"):
            reciprocal = np.reciprocal(divisor)
        if not np.all(np.isfinite(reciprocal)):
            raise TraceError(
                f"division by {other!r}: the reciprocal is too large for a double"
            )
        if isinstance(reciprocal, np.ndarray) and reciprocal.ndim == 1:
            reciprocal = _pad(reciprocal, self._slots)
        return self._binary("mul", reciprocal)

    def __rtruediv__(self, other: object) -> Encrypted:
        raise TraceError(
            f"division of a {type(other).__name__} by an encrypted value: CKKS "
            "has no division (multiply by a polynomial approximation of 1/x "
            "instead)"
        )

    def __neg__(self) -> Encrypted:
        if self._tracer is None:
            return self._wrap(-self._value)
        return self._wrap(
            self._tracer.emitter.unary("neg", self._value, user_position())
        )

    def __pos__(self) -> Encrypted:
        return self

    def __pow__(self, exponent: int) -> Encrypted:
        """``x ** n`` for an integer n >= 1, by repeated squaring (depth
        ceil(log2 n))."""
        if not isinstance(exponent, numbers.Integral) or exponent < 1:
            raise TraceError(f"x ** {exponent!r}: the exponent must be an int >= 1")
        result: Encrypted | None = None
        base: Encrypted = self
        n = int(exponent)
        while n:
            if n & 1:
                result = base if result is None else result * base
            n >>= 1
            if n:
                base = base * base
        assert result is not None
        return result

    def rotate(self, k: int) -> Encrypted:
        """Cyclic left rotation by ``k`` slots (``np.roll(x, -k)``); ``k``
        may be negative (a right rotation)."""
        if not isinstance(k, numbers.Integral) or isinstance(k, bool):
            raise TraceError(f"rotate takes an int offset, got {type(k).__name__}")
        offset = int(k) % self._slots
        if offset == 0:
            return self
        if self._tracer is None:
            return self._wrap(np.roll(self._value, -offset))
        if offset > self._slots // 2:
            offset -= self._slots  # the same rotation, read as a right one
        return self._wrap(
            self._tracer.emitter.rotate(self._value, offset, user_position())
        )

    def conjugate(self) -> Encrypted:
        """Complex conjugation of every slot (``np.conj``)."""
        if self._tracer is None:
            return self._wrap(np.conj(self._value))
        return self._wrap(
            self._tracer.emitter.unary("conjugate", self._value, user_position())
        )

    # --- what an encrypted value cannot do ---------------------------------------
    def __bool__(self) -> bool:
        raise TraceError(
            "cannot branch on an encrypted value: Python control flow runs at "
            "trace time, on plain Python values only"
        )

    def __array__(self, *args: Any, **kwargs: Any) -> np.ndarray:
        raise TraceError(
            "an Encrypted value is not a numpy array (use the operators, "
            ".rotate, .conjugate and ember.sum)"
        )

    def __repr__(self) -> str:
        mode = "traced" if self._tracer is not None else "plain"
        return f"<ember.Encrypted {mode}, {self._slots} slots>"


def _check_plain(a: np.ndarray, slots: int, what: str) -> np.ndarray:
    """A real vector of 1..`slots` finite values (as float64), or an
    InputError/TraceError."""
    error = TraceError if what.startswith("operand") else InputError
    if a.dtype.kind not in "biuf":
        raise error(f"{what} must hold real numbers, got an array of dtype {a.dtype}")
    if a.ndim != 1 or a.size == 0:
        raise error(
            f"{what} must be a vector of 1 to {slots} values, got shape {a.shape}"
        )
    if a.size > slots:
        raise error(
            f"{what} has {a.size} values, more than the program's {slots} slots"
        )
    a = a.astype(np.float64)
    if not np.all(np.isfinite(a)):
        raise error(f"{what} holds NaN or infinite values")
    return a


def _pad(a: np.ndarray, slots: int) -> np.ndarray:
    """`a` zero-padded to `slots` values."""
    return np.concatenate([a, np.zeros(slots - a.size)]) if a.size < slots else a


def sum(x: Encrypted | np.ndarray) -> Encrypted | np.ndarray:  # noqa: A001
    """Every slot gets the total of ``x``: log2(slots) rotations and
    additions on an Encrypted value; ``np.full_like(x, x.sum())`` on a numpy
    array."""
    if isinstance(x, Encrypted):
        step = 1
        while step < x.slots:
            x = x + x.rotate(step)
            step *= 2
        return x
    a = np.asarray(x)
    return np.full_like(a, a.sum())


def bind_inputs(
    program: str,
    names: Sequence[str],
    slots: int,
    args: Sequence[Any],
    kwargs: dict[str, Any],
    defined_at: str,
) -> list[np.ndarray]:
    """Input values in parameter order, checked: every name known and
    present, every value a real vector of at most ``slots`` finite numbers
    (zero-padded to ``slots``)."""
    where = f"program {program} (defined at {defined_at})"
    if len(args) > len(names):
        raise ArgumentNameError(
            f"{where} takes {len(names)} inputs, got {len(args)} positional"
        )
    values = dict(zip(names, args, strict=False))
    for name, v in kwargs.items():
        if name not in names:
            raise ArgumentNameError(
                f"{where} has no input named '{name}' (its inputs: "
                f"{', '.join(names)})"
            )
        if name in values:
            raise ArgumentNameError(f"{where}: input '{name}' given twice")
        values[name] = v
    missing = [n for n in names if n not in values]
    if missing:
        raise ArgumentNameError(
            f"{where}: missing input{'s' if len(missing) > 1 else ''} "
            + ", ".join(f"'{n}'" for n in missing)
        )
    out = []
    for name in names:
        v = values[name]
        if isinstance(v, Encrypted) or not isinstance(
            v, np.ndarray | list | tuple | numbers.Real
        ):
            raise InputError(
                f"input '{name}' of {program} must be a numpy array of at most "
                f"{slots} real numbers, got {type(v).__name__}"
            )
        out.append(_pad(_check_plain(np.asarray(v), slots, f"input '{name}'"), slots))
    return out


@dataclass(frozen=True)
class Trace:
    """A traced program: the fhe-dialect module and its interface."""

    mlir: str
    inputs: tuple[str, ...]
    outputs: int
    single_output: bool


class Program:
    """A function decorated with :func:`program`.

    ``ember.compile(program)`` traces and compiles it; calling it on numpy
    arrays (positional or by name) runs it in plain numpy, the reference a
    compiled program is checked against.
    """

    def __init__(
        self,
        fn: Callable[..., Any],
        slots: int,
        declared: dict[str, tuple[float, float]] | None = None,
    ) -> None:
        self.fn = fn
        self.slots = slots
        self.name = fn.__name__
        self.filename = inspect.getsourcefile(fn) or fn.__code__.co_filename
        self.lineno = fn.__code__.co_firstlineno
        self.location: _mlir.Location = (self.filename, self.lineno, 1)
        params = inspect.signature(fn).parameters.values()
        ok = (
            inspect.Parameter.POSITIONAL_ONLY,
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
        )
        for p in params:
            if p.kind not in ok or p.default is not inspect.Parameter.empty:
                raise TraceError(
                    f"program {self.name}: parameter '{p.name}' must be a plain "
                    "positional parameter (each one is an encrypted input)",
                    self.filename,
                    self.lineno,
                )
        self.inputs: tuple[str, ...] = tuple(p.name for p in params)
        if not self.inputs:
            raise TraceError(
                f"program {self.name} has no inputs", self.filename, self.lineno
            )
        # The declared ranges (ember.ranges); the others are DEFAULT_RANGE.
        self.ranges: dict[str, tuple[float, float]] = check_declared(
            declared, self.inputs, (self.filename, self.lineno)
        )
        functools.update_wrapper(self, fn)

    def __repr__(self) -> str:
        return (
            f"<ember.program {self.name}({', '.join(self.inputs)}), {self.slots} slots>"
        )

    # --- inputs -----------------------------------------------------------------
    def bind(self, args: Sequence[Any], kwargs: dict[str, Any]) -> list[np.ndarray]:
        """Input values in parameter order (see :func:`bind_inputs`)."""
        where = f"{self.filename}:{self.lineno}"
        return bind_inputs(self.name, self.inputs, self.slots, args, kwargs, where)

    # --- the two interpretations --------------------------------------------------
    def trace(self, ranges: dict[str, tuple[float, float]] | None = None) -> Trace:
        """Runs the function on traced Encrypted values: the fhe module.
        Each input with a range (``ranges``, by default the declared ones)
        carries it as its ``fhe.range``."""
        ranges = self.ranges if ranges is None else ranges
        tracer = _Tracer(self)
        args = [
            Encrypted(
                tracer.emitter.argument(i, self.location, ranges.get(name)),
                self.slots,
                tracer,
            )
            for i, name in enumerate(self.inputs)
        ]
        result = self.fn(*args)
        outputs = self._outputs(result, tracer)
        text = tracer.emitter.finish([o._value for o in outputs], self.location)
        return Trace(
            text, self.inputs, len(outputs), not isinstance(result, tuple | list)
        )

    def __call__(
        self, *args: Any, **kwargs: Any
    ) -> np.ndarray | tuple[np.ndarray, ...]:
        """Runs the function on plain numpy values (the reference)."""
        values = self.bind(args, kwargs)
        result = self.fn(*(Encrypted(v, self.slots, None) for v in values))
        outputs = [o._value for o in self._outputs(result, None)]
        if isinstance(result, tuple | list):
            return tuple(outputs)
        return outputs[0]

    def _outputs(self, result: object, tracer: _Tracer | None) -> list[Encrypted]:
        items = list(result) if isinstance(result, tuple | list) else [result]
        if not items:
            raise TraceError(
                f"program {self.name} returns nothing", self.filename, self.lineno
            )
        for i, item in enumerate(items):
            if not isinstance(item, Encrypted) or item._tracer is not tracer:
                raise TraceError(
                    f"program {self.name}: output {i} is a "
                    f"{type(item).__name__}, not an Encrypted value computed "
                    "from the inputs",
                    self.filename,
                    self.lineno,
                )
        return items


def program(
    *, slots: int, ranges: dict[str, tuple[float, float]] | None = None
) -> Callable[[Callable[..., Any]], Program]:
    """Marks a function over :class:`Encrypted` values as an Ember program.

    ``slots`` (a power of two, at most 2^16) is the length of every output
    and the most values an input or plaintext vector may hold (shorter ones
    are zero-padded); the compiler picks N >= 2 * slots.

    ``ranges`` declares the interval ``(lo, hi)`` each named input's values
    lie in (e.g. ``{"x": (-3000, 3000)}``); an input not named lies in
    [-1, 1]. The compiler chooses the scale so that every value computed
    from inputs in their ranges fits, and encrypting a value outside its
    range is an InputError (see :mod:`ember.ranges`).
    """
    if (
        not isinstance(slots, numbers.Integral)
        or slots < 1
        or slots > MAX_SLOTS
        or slots & (slots - 1)
    ):
        raise TraceError(f"slots must be a power of two <= {MAX_SLOTS}, got {slots!r}")

    def decorate(fn: Callable[..., Any]) -> Program:
        return Program(fn, int(slots), ranges)

    return decorate
