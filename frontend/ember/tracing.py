"""Tracing: ``ember.program``, ``ember.Encrypted`` and ``ember.sum``.

A program is an ordinary Python function over :class:`Encrypted` values.
Calling the compiler traces it once by operator overloading: every ``+``,
``-``, ``*``, ``/`` (by a plaintext: a multiplication by its reciprocal),
unary ``-``, ``rotate``, ``conjugate`` and ``bootstrap`` on an Encrypted value
appends one fhe-dialect operation (through :mod:`ember._mlir`, at the user's line);
Python control flow runs at trace time. The same function also runs on
plain numpy arrays (``program(x=..., y=...)``), with the same semantics:
``x.rotate(k)`` is ``np.roll(x, -k)``, ``x.conjugate()`` is ``np.conj(x)``
and ``ember.sum(x)`` puts the total in every slot.

Inputs and plaintext operands shorter than their slot count are
zero-padded (in both interpretations), so a rotation moves the padding's
zeros in: with 8 slots, ``[1, 2, 3]`` rotated by 1 is
``[2, 3, 0, 0, 0, 0, 0, 1]``.

Parameters are encrypted inputs (no annotation, ``ember.Encrypted`` or
``ember.Encrypted[n]`` for n slots instead of the program's) or plaintext
inputs (``ember.Plain`` / ``ember.Plain[n]``: values the server knows, given
when the program runs, so new weights need no new compilation). A program
declared ``dtype=complex`` takes and returns complex slot values (CKKS slots
are complex; ``conjugate`` acts on them); a real program refuses complex
values. ``x.tile(n)`` repeats a vector of s slots to n (a multiple of s;
free), so values of different slot counts can meet.
"""

from __future__ import annotations

import functools
import inspect
import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ember import _mlir
from ember.errors import ArgumentNameError, InputError, TraceError, user_position
from ember.ranges import DEFAULT_RANGE, check_declared

MAX_SLOTS = 1 << 16  # N/2 at N = 2^17, the largest ring Ember supports


class _Tracer:
    """The state of one trace: the emitter and the identity of its values."""

    def __init__(self, program: Program) -> None:
        self.program = program
        self.emitter = _mlir.FunctionEmitter(program.name, program.location)
        # ember.approx's interpolants: where, what, and their maximum error.
        self.approximations: list[dict[str, Any]] = []


def _check_slots(slots: object, what: str = "slots") -> int:
    if (
        not isinstance(slots, numbers.Integral)
        or isinstance(slots, bool)
        or slots < 1
        or slots > MAX_SLOTS
        or slots & (slots - 1)
    ):
        raise TraceError(f"{what} must be a power of two <= {MAX_SLOTS}, got {slots!r}")
    return int(slots)


@dataclass(frozen=True)
class InputSpec:
    """How a program parameter is passed (its annotation): encrypted or a
    plaintext input, with its slot count (None: the program's)."""

    plain: bool
    slots: int | None = None

    def __repr__(self) -> str:
        kind = "ember.Plain" if self.plain else "ember.Encrypted"
        return kind if self.slots is None else f"{kind}[{self.slots}]"


class Encrypted:
    """An encrypted vector of ``slots`` numbers (real, or complex in a
    program declared ``dtype=complex``).

    Inside a traced program each operation records one fhe operation; when
    the program runs on numpy arrays (``program(...)``) the same methods
    compute on the plain values. Operands of ``+ - *`` are Encrypted values
    of the same slot count, plaintext inputs (:class:`Plain`), numpy arrays
    of at most ``slots`` values (zero-padded) or scalars, on either side;
    ``x / d`` divides by a nonzero scalar or array ``d``.

    As an annotation, ``x: ember.Encrypted`` (the default) or
    ``x: ember.Encrypted[8]`` (8 slots instead of the program's).
    """

    __array_ufunc__ = None  # numpy defers to our reflected operators

    def __class_getitem__(cls, slots: int) -> InputSpec:
        return InputSpec(False, _check_slots(slots, "ember.Encrypted[slots]"))

    def __init__(
        self,
        value: _mlir.Value | np.ndarray,
        slots: int,
        tracer: _Tracer | None,
        modulus: int = 0,
    ) -> None:
        self._value = value
        self._slots = slots
        self._tracer = tracer
        # scheme="bgv": the plaintext modulus t (integer slots mod t; on
        # numpy, exact Python integers reduced mod t); 0 for CKKS.
        self._modulus = modulus

    @property
    def slots(self) -> int:
        """Number of slots of the vector."""
        return self._slots

    @property
    def _complex(self) -> bool:
        return _program_is_complex(self._tracer)

    # --- operands --------------------------------------------------------------
    def _coerce(
        self, other: object, op: str, pad: bool = True
    ) -> Encrypted | Plain | np.ndarray | float | complex:
        if self._modulus and not isinstance(other, Encrypted | Plain):
            return self._coerce_integers(other, op)
        if isinstance(other, Encrypted | Plain):
            if other._tracer is not self._tracer:
                raise TraceError(
                    f"'{op}' mixes values of different programs (or a traced "
                    "value with a plain one)"
                )
            if other._slots != self._slots:
                small, big = sorted((self._slots, other._slots))
                raise TraceError(
                    f"'{op}' of vectors with {self._slots} and {other._slots} "
                    f"slots (x.tile({big}) repeats a {small}-slot vector to "
                    f"{big} slots)"
                )
            return other
        if isinstance(other, numbers.Number) and not isinstance(other, bool):
            if not np.isfinite(other):
                raise TraceError(f"operand of '{op}' is a NaN or infinite value")
            value = complex(other)
            if value.imag == 0:
                return value.real
            if not self._complex:
                raise TraceError(
                    f"operand of '{op}' is the complex number {other!r}, in a "
                    "real program: declare @ember.program(..., dtype=complex)"
                )
            return value
        if isinstance(other, np.ndarray | list | tuple):
            a = _check_values(
                np.asarray(other), self._slots, f"operand of '{op}'", self._complex
            )
            return _pad(a, self._slots) if pad else a
        raise TraceError(
            f"unsupported operand type for '{op}': {type(other).__name__} (expected "
            f"an Encrypted value, a plaintext input, a numpy array of at most "
            f"{self._slots} values or a scalar)"
        )

    def _coerce_integers(self, other: object, op: str) -> np.ndarray:
        """A BGV operand: an integer or a vector of at most ``slots``
        integers, zero-padded, reduced mod t (exact Python integers on
        numpy; centred in (-t/2, t/2] when traced, so that the constant
        is exact as a double)."""
        t = self._modulus
        a = _integers(other, self._slots, f"operand of '{op}'", t, TraceError)
        if self._tracer is not None:
            return np.array([float(v - t if v > t // 2 else v) for v in a])
        return a

    def _not_in_bgv(self, what: str) -> None:
        if self._modulus:
            raise TraceError(
                f"{what} has no meaning on integers modulo t (scheme='bgv' "
                "takes + - *, integers, rotations and ember.sum)"
            )

    def _wrap(self, value: _mlir.Value | np.ndarray) -> Encrypted:
        return Encrypted(value, self._slots, self._tracer, self._modulus)

    def _binary(self, op: str, other: object, reflected: bool = False) -> Encrypted:
        rhs = self._coerce(other, op)
        # Identities that cost nothing: x * 1, x * -1 (a negation), x +- 0.
        if self._modulus:
            pass
        elif isinstance(rhs, float) and not isinstance(rhs, complex):
            if op == "mul" and rhs == 1.0:
                return self
            if op == "mul" and rhs == -1.0:
                return -self
            if op in ("add", "sub") and rhs == 0.0:
                return -self if (op == "sub" and reflected) else self
        if self._tracer is None:
            a = self._value
            b = rhs._value if isinstance(rhs, Encrypted | Plain) else rhs
            if reflected:
                a, b = b, a
            fn = {"add": np.add, "sub": np.subtract, "mul": np.multiply}[op]
            if self._modulus:
                return self._wrap(np.asarray(fn(a, b), dtype=object) % self._modulus)
            return self._wrap(np.asarray(fn(a, b), dtype=np.result_type(a, b)))
        emitter = self._tracer.emitter
        loc = user_position()
        if isinstance(rhs, Encrypted | Plain):
            b = rhs._value
        else:
            b = emitter.constant(rhs, self._slots, loc)
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
        self._not_in_bgv("division")
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
        self._not_in_bgv("division")
        raise TraceError(
            f"division of a {type(other).__name__} by an encrypted value: CKKS "
            "has no division (multiply by a polynomial approximation of 1/x "
            "instead)"
        )

    def __neg__(self) -> Encrypted:
        if self._tracer is None:
            if self._modulus:
                return self._wrap(-self._value % self._modulus)
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

    def tile(self, slots: int) -> Encrypted:
        """The vector repeated to ``slots`` slots (``np.tile``), a multiple
        of its own: free in CKKS (a vector of s slots is encoded in the
        subring that repeats it every s slots)."""
        n = _check_slots(slots, "tile's slots")
        if n % self._slots != 0:
            raise TraceError(
                f"tile({n}) of a {self._slots}-slot vector: the slot count must "
                f"be a multiple of {self._slots}"
            )
        if n == self._slots:
            return self
        if self._tracer is None:
            return Encrypted(np.tile(self._value, n // self._slots), n, None)
        return Encrypted(
            self._tracer.emitter.tile(self._value, n, user_position()),
            n,
            self._tracer,
        )

    def conjugate(self) -> Encrypted:
        """Complex conjugation of every slot (``np.conj``)."""
        self._not_in_bgv("conjugate()")
        if self._tracer is None:
            return self._wrap(np.conj(self._value))
        return self._wrap(
            self._tracer.emitter.unary("conjugate", self._value, user_position())
        )

    def bootstrap(self) -> Encrypted:
        """The same values with the levels refreshed (CKKS bootstrapping).

        The compiler expands it (ModRaise, CoeffToSlot, EvalMod,
        SlotToCoeff) once it has chosen the parameters, which then get a
        sparse secret (h = 192), a 2^40 scale for the program's own levels
        and the procedure's 17 levels on 60-bit primes above them (about
        23 bits of precision at N = 2^16); the value must lie in [-8, 8].
        Fewer than N/2 slots bootstrap by sparse packing (one EvalMod over
        both parts' coefficients, and more precision). Plain evaluation (no
        tracer) returns the values as they are.
        """
        self._not_in_bgv("bootstrap()")
        if self._tracer is None:
            return self._wrap(np.array(self._value, copy=True))
        return self._wrap(
            self._tracer.emitter.unary("bootstrap", self._value, user_position())
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


class Plain:
    """A plaintext input of a program: ``slots`` values the server knows,
    given when the program runs (``Compiled.run(..., w=...)``), so that
    new values (model weights) need no new compilation.

    As an annotation, ``w: ember.Plain`` or ``w: ember.Plain[8]``. It
    combines with encrypted values only (``x * w``, ``x + w``, ``w - x``):
    arithmetic between plaintext inputs or with constants would run on the
    server's plaintexts, which Ember does not compile; scale the product
    instead (``(x * w) * 2``).
    """

    __array_ufunc__ = None

    def __class_getitem__(cls, slots: int) -> InputSpec:
        return InputSpec(True, _check_slots(slots, "ember.Plain[slots]"))

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

    def _refuse(self, op: str, other: object) -> Any:
        if isinstance(other, Encrypted):
            return NotImplemented  # Encrypted's reflected operator runs
        raise TraceError(
            f"'{op}' of a plaintext input with a {type(other).__name__}: a "
            "plaintext input combines with encrypted values only (scale the "
            "product instead, e.g. (x * w) * 2)"
        )

    def __add__(self, other: object) -> Any:
        return self._refuse("add", other)

    __radd__ = __add__

    def __sub__(self, other: object) -> Any:
        return self._refuse("sub", other)

    __rsub__ = __sub__

    def __mul__(self, other: object) -> Any:
        return self._refuse("mul", other)

    __rmul__ = __mul__

    def __truediv__(self, other: object) -> Any:
        return self._refuse("div", other)

    def __neg__(self) -> Any:
        return self._refuse("neg", None)

    def _unsupported(self, what: str) -> Any:
        raise TraceError(
            f"{what} of a plaintext input: the server would compute it on the "
            "plaintext, which Ember does not compile; declare the input at the "
            "slot count and order it is used at (ember.Plain[n]) and pass the "
            "values prepared (np.tile, np.roll, np.conj)"
        )

    def tile(self, slots: int) -> Any:
        return self._unsupported(f"tile({slots})")

    def rotate(self, offset: int) -> Any:
        return self._unsupported(f"rotate({offset})")

    def conjugate(self) -> Any:
        return self._unsupported("conjugate()")

    def __bool__(self) -> bool:
        raise TraceError("cannot branch on a plaintext input at trace time")

    def __repr__(self) -> str:
        mode = "traced" if self._tracer is not None else "plain"
        return f"<ember.Plain {mode}, {self._slots} slots>"


def _program_is_complex(tracer: _Tracer | None) -> bool:
    """Whether the program being traced (or run on numpy) takes complex
    values; on numpy the values themselves say."""
    return tracer is None or tracer.program.dtype is complex


def _check_values(
    a: np.ndarray, slots: int, what: str, allow_complex: bool
) -> np.ndarray:
    """A vector of 1..`slots` finite values (float64, or complex128 when
    `allow_complex` and the values are complex), or an InputError /
    TraceError."""
    error = TraceError if what.startswith("operand") else InputError
    if a.dtype.kind == "c" and not allow_complex:
        raise error(
            f"{what} holds complex values, in a real program: declare "
            "@ember.program(..., dtype=complex)"
        )
    if a.dtype.kind not in "biufc":
        raise error(f"{what} must hold numbers, got an array of dtype {a.dtype}")
    if a.ndim != 1 or a.size == 0:
        raise error(
            f"{what} must be a vector of 1 to {slots} values, got shape {a.shape}"
        )
    if a.size > slots:
        raise error(
            f"{what} has {a.size} values, more than the program's {slots} slots"
        )
    a = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    if not np.all(np.isfinite(a)):
        raise error(f"{what} holds NaN or infinite values")
    return a


def _integers(
    v: object,
    slots: int,
    what: str,
    t: int,
    error: type[Exception],
    scalar: bool = True,
) -> np.ndarray:
    """scheme="bgv": an integer (in every slot; only with `scalar`) or a
    vector of 1..`slots` integers (Python or numpy integers, or integral
    floats below 2^53) as exact Python integers in [0, t), zero-padded to
    `slots`; `error` naming `what` otherwise."""
    try:
        a = np.asarray(v)
    except (TypeError, ValueError) as err:
        raise error(
            f"{what} must be a vector of at most {slots} integers ({err})"
        ) from None
    if a.dtype == bool or a.dtype.kind not in "iufO":
        raise error(f"{what} must hold integers, got an array of dtype {a.dtype}")
    if a.ndim == 0 and scalar:
        a = np.full(slots, a.item(), dtype=a.dtype)
    if a.ndim != 1 or a.size == 0 or a.size > slots:
        raise error(
            f"{what} must be a vector of 1 to {slots} integers, got shape {a.shape}"
        )
    out = []
    for x in a.tolist():
        if isinstance(x, float):
            if not (np.isfinite(x) and x == int(x) and abs(x) < 2**53):
                raise error(f"{what} holds {x!r}: BGV slots are integers modulo {t}")
            x = int(x)
        if not isinstance(x, numbers.Integral) or isinstance(x, bool):
            raise error(f"{what} holds {x!r}: BGV slots are integers modulo {t}")
        out.append(int(x) % t)
    out += [0] * (slots - len(out))
    return np.array(out, dtype=object)


def _pad(a: np.ndarray, slots: int) -> np.ndarray:
    """`a` zero-padded to `slots` values."""
    if a.size >= slots:
        return a
    return np.concatenate([a, np.zeros(slots - a.size, dtype=a.dtype)])


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


def bind_names(
    where: str, names: Sequence[str], args: Sequence[Any], kwargs: dict[str, Any]
) -> dict[str, Any]:
    """The inputs by name from positional and keyword arguments: every name
    known, none twice, none missing (ArgumentNameError naming ``where``)."""
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
    return values


def bind_inputs(
    program: str,
    names: Sequence[str],
    slots: Sequence[int],
    args: Sequence[Any],
    kwargs: dict[str, Any],
    defined_at: str,
    allow_complex: bool = False,
) -> list[np.ndarray]:
    """Input values in parameter order, checked: every name known and
    present, every value a vector of at most its ``slots`` finite numbers
    (zero-padded to them; complex only when ``allow_complex``)."""
    where = f"program {program} (defined at {defined_at})"
    values = bind_names(where, names, args, kwargs)
    out = []
    for name, n in zip(names, slots, strict=True):
        v = values[name]
        if isinstance(v, Encrypted | Plain) or not isinstance(
            v, np.ndarray | list | tuple | numbers.Number
        ):
            raise InputError(
                f"input '{name}' of {program} must be a numpy array of at most "
                f"{n} numbers, got {type(v).__name__}"
            )
        a = _check_values(np.asarray(v), n, f"input '{name}'", allow_complex)
        out.append(_pad(a, n))
    return out


@dataclass(frozen=True)
class Trace:
    """A traced program: the fhe-dialect module and its interface."""

    mlir: str
    inputs: tuple[str, ...]
    outputs: int
    single_output: bool
    approximations: tuple[dict[str, Any], ...] = ()


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
        dtype: type = float,
        declared: dict[str, tuple[float, float]] | None = None,
        plaintext_modulus: int = 0,
        scheme: str = "",
    ) -> None:
        self.fn = fn
        self.slots = slots
        self.dtype = dtype
        # scheme="bgv" or "bfv": integer slots modulo this prime; 0 for CKKS.
        self.plaintext_modulus = plaintext_modulus
        self.scheme = scheme or ("bgv" if plaintext_modulus else "ckks")
        self.name = fn.__name__
        self.filename = inspect.getsourcefile(fn) or fn.__code__.co_filename
        self.lineno = fn.__code__.co_firstlineno
        self.location: _mlir.Location = (self.filename, self.lineno, 1)
        try:
            params = inspect.signature(fn, eval_str=True).parameters.values()
        except (NameError, SyntaxError) as err:
            raise TraceError(
                f"program {self.name}: cannot read its annotations ({err})",
                self.filename,
                self.lineno,
            ) from err
        ok = (
            inspect.Parameter.POSITIONAL_ONLY,
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
        )
        specs = []
        for p in params:
            if p.kind not in ok or p.default is not inspect.Parameter.empty:
                raise TraceError(
                    f"program {self.name}: parameter '{p.name}' must be a plain "
                    "positional parameter (each one is an input)",
                    self.filename,
                    self.lineno,
                )
            specs.append(self._spec(p))
        self.inputs: tuple[str, ...] = tuple(p.name for p in params)
        self.specs: tuple[InputSpec, ...] = tuple(specs)
        if not self.inputs:
            raise TraceError(
                f"program {self.name} has no inputs", self.filename, self.lineno
            )
        if all(s.plain for s in self.specs):
            raise TraceError(
                f"program {self.name} has no encrypted input",
                self.filename,
                self.lineno,
            )
        # The declared ranges (ember.ranges); the others are DEFAULT_RANGE.
        self.ranges: dict[str, tuple[float, float]] = check_declared(
            declared, self.inputs, (self.filename, self.lineno)
        )
        functools.update_wrapper(self, fn)

    def _spec(self, p: inspect.Parameter) -> InputSpec:
        """The parameter's InputSpec, with its slot count resolved."""
        a = p.annotation
        if a is inspect.Parameter.empty or a is Encrypted:
            return InputSpec(False, self.slots)
        if a is Plain:
            return InputSpec(True, self.slots)
        if isinstance(a, InputSpec):
            return InputSpec(a.plain, a.slots or self.slots)
        raise TraceError(
            f"program {self.name}: parameter '{p.name}' is annotated {a!r}; use "
            "ember.Encrypted, ember.Encrypted[slots], ember.Plain or "
            "ember.Plain[slots]",
            self.filename,
            self.lineno,
        )

    def __repr__(self) -> str:
        return (
            f"<ember.program {self.name}({', '.join(self.inputs)}), {self.slots} slots>"
        )

    # --- inputs -----------------------------------------------------------------
    def bind(self, args: Sequence[Any], kwargs: dict[str, Any]) -> list[np.ndarray]:
        """Input values in parameter order (see :func:`bind_inputs`; for
        scheme="bgv", exact integers in [0, t))."""
        where = f"{self.filename}:{self.lineno}"
        if self.plaintext_modulus:
            values = bind_names(
                f"program {self.name} (defined at {where})", self.inputs, args, kwargs
            )
            return [
                _integers(
                    values[name],
                    spec.slots,
                    f"input '{name}'",
                    self.plaintext_modulus,
                    InputError,
                    scalar=False,
                )
                for name, spec in zip(self.inputs, self.specs, strict=True)
            ]
        return bind_inputs(
            self.name,
            self.inputs,
            [s.slots for s in self.specs],
            args,
            kwargs,
            where,
            self.dtype is complex,
        )

    # --- the two interpretations --------------------------------------------------
    def trace(self, ranges: dict[str, tuple[float, float]] | None = None) -> Trace:
        """Runs the function on traced values: the fhe module. Each input
        with a range (``ranges``, by default the declared ones) carries it as
        its ``fhe.range``; in a complex program every input does, for its
        real and its imaginary parts ([-1, 1] unless declared)."""
        ranges = self.ranges if ranges is None else ranges
        tracer = _Tracer(self)
        args = []
        for i, (name, spec) in enumerate(zip(self.inputs, self.specs, strict=True)):
            r = ranges.get(name)
            if self.dtype is complex:
                lo, hi = r if r is not None else DEFAULT_RANGE
                r = (lo, hi, lo, hi)
            v = tracer.emitter.argument(
                i, spec.slots, not spec.plain, self.location, name, r
            )
            if self.plaintext_modulus and not spec.plain:
                args.append(Encrypted(v, spec.slots, tracer, self.plaintext_modulus))
            else:
                args.append((Plain if spec.plain else Encrypted)(v, spec.slots, tracer))
        result = self.fn(*args)
        outputs = self._outputs(result, tracer)
        text = tracer.emitter.finish([o._value for o in outputs], self.location)
        return Trace(
            text,
            self.inputs,
            len(outputs),
            not isinstance(result, tuple | list),
            tuple(tracer.approximations),
        )

    def __call__(
        self, *args: Any, **kwargs: Any
    ) -> np.ndarray | tuple[np.ndarray, ...]:
        """Runs the function on plain numpy values (the reference)."""
        values = self.bind(args, kwargs)
        t = self.plaintext_modulus
        result = self.fn(
            *(
                Encrypted(v, spec.slots, None, t)
                if t and not spec.plain
                else (Plain if spec.plain else Encrypted)(v, spec.slots, None)
                for spec, v in zip(self.specs, values, strict=True)
            )
        )
        outputs = [o._value for o in self._outputs(result, None)]
        if t:  # exact results in [0, t) as int64
            outputs = [
                np.array([int(x) % t for x in o], dtype=np.int64) for o in outputs
            ]
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
    *,
    slots: int | None = None,
    dtype: type = float,
    ranges: dict[str, tuple[float, float]] | None = None,
    scheme: str = "ckks",
    plaintext_modulus: int = 65537,
) -> Callable[[Callable[..., Any]], Any]:
    """Marks a function over :class:`Encrypted` values as an Ember program.

    ``scheme``: "ckks" (approximate arithmetic on encrypted vectors, the
    default), "bgv" (exact arithmetic on vectors of integers modulo
    ``plaintext_modulus``, a prime t = 1 mod 2N: + - * with ciphertexts,
    integers and integer numpy arrays, rotations, ``ember.sum``; results
    decrypt to int64 arrays in [0, t), exactly numpy's arithmetic ``% t``;
    ``dtype`` and ``ranges`` do not apply), "bfv" (the same integer
    arithmetic in the scale-invariant scheme: every ciphertext stays at the
    full modulus, products by the HPS method; no modulus switching) or
    "tfhe" (exact arithmetic on
    encrypted integers and bits annotated ``ember.UInt(k)``,
    ``ember.Int(k)``, ``ember.Bit``; see :mod:`ember.tfhe`; ``slots``,
    ``dtype`` and ``ranges`` do not apply).

    ``slots`` (a power of two, at most 2^16) is the slot count of every
    input not annotated otherwise (``ember.Encrypted[n]``,
    ``ember.Plain[n]``) and the most values such an input or a plaintext
    vector may hold (shorter ones are zero-padded); the compiler picks
    N >= 2 * the largest slot count. ``dtype``: ``float`` (real slots; the
    outputs decrypt to their real parts) or ``complex`` (complex inputs,
    constants and outputs).

    ``ranges`` declares the interval ``(lo, hi)`` each named input's values
    lie in (e.g. ``{"x": (-3000, 3000)}``; in a complex program, the real
    and the imaginary parts'); an input not named lies in [-1, 1]. The
    compiler chooses the scale so that every value computed from inputs in
    their ranges fits, and encrypting (or, for a plaintext input, running
    with) a value outside its range is an InputError (see
    :mod:`ember.ranges`).
    """
    if scheme == "tfhe":
        if slots is not None or ranges is not None or dtype is not float:
            raise TraceError(
                "scheme='tfhe' programs take no slots, dtype or ranges: their "
                "inputs are annotated ember.UInt(k), ember.Int(k) or ember.Bit"
            )
        from ember.tfhe import TfheProgram

        return TfheProgram
    if scheme in ("bgv", "bfv"):
        if ranges is not None or dtype is not float:
            raise TraceError(
                f"scheme={scheme!r} programs take no dtype or ranges: their "
                "slots are integers modulo plaintext_modulus"
            )
        if (
            not isinstance(plaintext_modulus, numbers.Integral)
            or isinstance(plaintext_modulus, bool)
            or not 2 < plaintext_modulus < 2**52
        ):
            raise TraceError(
                f"plaintext_modulus must be an integer prime in 3..2^52, got "
                f"{plaintext_modulus!r}"
            )
    elif scheme != "ckks":
        raise TraceError(
            f"unknown scheme {scheme!r} (expected 'ckks', 'bgv', 'bfv' or 'tfhe')"
        )
    if slots is None:
        raise TraceError("@ember.program needs slots=... (the vectors' length)")
    n = _check_slots(slots)
    if dtype not in (float, complex):
        raise TraceError(f"dtype must be float or complex, got {dtype!r}")

    t = int(plaintext_modulus) if scheme in ("bgv", "bfv") else 0

    def decorate(fn: Callable[..., Any]) -> Program:
        return Program(fn, n, dtype, ranges, t, scheme)

    return decorate
