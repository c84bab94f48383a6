"""The one place that writes fhe-dialect MLIR text.

The tracer calls :class:`FunctionEmitter` for each operation; nothing else
formats IR. Every operation carries the user's ``file:line:col`` as its MLIR
location, so a diagnostic of the compiler (e.g. a program too deep for
secure parameters) points at the Python line that made the operation.
Syntax: dialects/FHE/IR/FHEOps.td and tests/lit/Dialect/FHE/ops.mlir.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

Location = tuple[str, int, int]  # file, line, column (1-based)

_BARE_ID = re.compile(r"^[A-Za-z_][A-Za-z0-9_$.]*$")


def _string(s: str) -> str:
    """An MLIR string literal."""
    out = []
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif 0x20 <= ord(ch) < 0x7F:
            out.append(ch)
        else:
            out.extend(f"\\{b:02X}" for b in ch.encode())
    return '"' + "".join(out) + '"'


def _loc(loc: Location) -> str:
    file, line, col = loc
    return f"loc({_string(file)}:{line}:{col})"


def _symbol(name: str) -> str:
    return "@" + (name if _BARE_ID.match(name) else _string(name))


def f64(x: float) -> str:
    """A float literal that MLIR parses back to exactly ``x`` (any finite
    double: subnormal, huge, -0.0).

    repr() gives the shortest digits that round-trip, but MLIR's float
    literal needs a '.' in the mantissa ("1e-05" lexes as the integer 1 and
    the identifier e); the exponent loses its '+' and leading zeros to stay
    compact: 1e-05 -> "1.0e-5", 1e+16 -> "1.0e16".
    """
    assert math.isfinite(x), "NaN and infinities are refused when tracing"
    mantissa, e, exponent = repr(float(x)).partition("e")
    if "." not in mantissa:
        mantissa += ".0"
    return mantissa + (e + str(int(exponent)) if e else "")


# Constants of more values than this are written in MLIR's hex form; the
# shorter ones stay decimal, readable in the IR a user inspects.
_HEX_ABOVE = 64


def _hex_dense(data: np.ndarray) -> str:
    """MLIR's hex form of a dense attribute: the raw little-endian doubles
    (re, im pairs for complex) in row-major order, exact and about 30x
    faster to write and to parse than decimal text."""
    raw = np.ascontiguousarray(data.astype(data.dtype.newbyteorder("<")))
    return f'dense<"0x{raw.tobytes().hex().upper()}">'


def _element(x: complex, is_complex: bool) -> str:
    """One slot value: ``1.5`` or, in a complex constant, ``(1.5,-2.0)``."""
    if not is_complex:
        return f64(x.real)
    return f"({f64(x.real)},{f64(x.imag)})"


def _arg_attrs(name: str, value_range: tuple[float, ...] | None) -> str:
    """`` {ember.name = "x", fhe.range = [lo, hi]}``: an argument's name in
    the interface and its declared range (``[lo, hi]``, or ``[re_lo, re_hi,
    im_lo, im_hi]`` for complex slots), or ""."""
    attrs = []
    if name:
        attrs.append(f"ember.name = {_string(name)}")
    if value_range is not None:
        attrs.append("fhe.range = [" + ", ".join(f64(b) for b in value_range) + "]")
    return f" {{{', '.join(attrs)}}}" if attrs else ""


def _module_text(
    name: str,
    func_loc: Location,
    args: str,
    body: list[str],
    results: list[tuple[str, str]],
    return_loc: Location,
) -> str:
    """A module of one function: its arguments' text, its body's lines and
    its results as (name, type). The module, too, is at the program's
    definition: a diagnostic about the whole program (its parameters) names
    the user's line, not the IR file."""
    types = ", ".join(t for _, t in results)
    result_types = types if len(results) == 1 else f"({types})"
    lines = ["module {"]
    lines.append(f"func.func {_symbol(name)}({args}) -> {result_types} {{")
    lines += [f"  {line}" for line in body]
    names = ", ".join(n for n, _ in results)
    lines.append(f"  return {names} : {types} {_loc(return_loc)}")
    lines.append(f"}} {_loc(func_loc)}")
    lines.append(f"}} {_loc(func_loc)}")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Value:
    """An SSA value of the function: its name, whether it is encrypted and
    its slot count."""

    name: str
    encrypted: bool
    slots: int


class FunctionEmitter:
    """Builds one ``func.func`` over ``!fhe.ct<n>`` / ``!fhe.pt<n>`` values
    (each value has its own slot count)."""

    def __init__(self, name: str, loc: Location) -> None:
        self.name = name
        self.loc = loc
        self._args: list[tuple[Value, Location, str]] = []
        self._body: list[str] = []
        self._constants: dict[str, Value] = {}
        self._count = 0

    # --- types ---------------------------------------------------------------
    @staticmethod
    def _type(v: Value) -> str:
        return f"!fhe.{'ct' if v.encrypted else 'pt'}<{v.slots}>"

    def _fresh(self, encrypted: bool, slots: int) -> Value:
        v = Value(f"%{self._count}", encrypted, slots)
        self._count += 1
        return v

    # --- building ------------------------------------------------------------
    def argument(
        self,
        index: int,
        slots: int,
        encrypted: bool,
        loc: Location,
        name: str = "",
        value_range: tuple[float, ...] | None = None,
    ) -> Value:
        """Function argument ``%argN``: an encrypted input (``!fhe.ct``) or a
        plaintext input (``!fhe.pt``, values the server gets at run time),
        named in the interface (``ember.name``) when `name` is given, with
        its range as the attribute ``fhe.range`` when one is given."""
        v = Value(f"%arg{index}", encrypted, slots)
        self._args.append((v, loc, _arg_attrs(name, value_range)))
        return v

    def constant(
        self, values: np.ndarray | complex, slots: int, loc: Location
    ) -> Value:
        """A plaintext constant of `slots` values (a splat when they are all
        equal, bit for bit): f64, or complex<f64> when `values` is complex.
        Equal constants are emitted once."""
        data = np.asarray(values).reshape(-1)
        is_complex = np.iscomplexobj(data)
        data = data.astype(np.complex128 if is_complex else np.float64)
        words = data.view(np.uint64).reshape(data.size, -1)
        if np.all(words == words[0]):
            dense = f"dense<{_element(complex(data[0]), is_complex)}>"
        elif data.size > _HEX_ABOVE:
            # MLIR's hex form of a dense attribute: the raw little-endian
            # doubles (re, im pairs for complex), exact and about 30x faster
            # to write and to parse than decimal text for the weight
            # matrices of a model.
            dense = _hex_dense(data)
        else:
            dense = (
                "dense<["
                + ", ".join(_element(complex(x), is_complex) for x in data)
                + "]>"
            )
        element = "complex<f64>" if is_complex else "f64"
        key = f"{dense} {slots} {element}"
        if key in self._constants:
            return self._constants[key]
        v = self._fresh(False, slots)
        self._body.append(
            f"{v.name} = fhe.constant {dense} : tensor<{slots}x{element}> -> "
            f"{self._type(v)} {_loc(loc)}"
        )
        self._constants[key] = v
        return v

    def binary(self, op: str, lhs: Value, rhs: Value, loc: Location) -> Value:
        """``fhe.add``/``fhe.sub``/``fhe.mul`` of any encrypted/plain mix."""
        assert op in ("add", "sub", "mul") and (lhs.encrypted or rhs.encrypted)
        assert lhs.slots == rhs.slots
        v = self._fresh(True, lhs.slots)
        self._body.append(
            f"{v.name} = fhe.{op} {lhs.name}, {rhs.name} : ({self._type(lhs)}, "
            f"{self._type(rhs)}) -> {self._type(v)} {_loc(loc)}"
        )
        return v

    def unary(self, op: str, x: Value, loc: Location) -> Value:
        """``fhe.neg`` / ``fhe.conjugate`` / ``fhe.bootstrap``."""
        assert op in ("neg", "conjugate", "bootstrap") and x.encrypted
        v = self._fresh(True, x.slots)
        self._body.append(f"{v.name} = fhe.{op} {x.name} : {self._type(x)} {_loc(loc)}")
        return v

    def rotate(self, x: Value, offset: int, loc: Location) -> Value:
        """``fhe.rotate`` (cyclic left), ``-slots < offset < slots``."""
        assert x.encrypted and -x.slots < offset < x.slots
        v = self._fresh(True, x.slots)
        self._body.append(
            f"{v.name} = fhe.rotate {x.name} by {offset} : {self._type(x)} "
            f"{_loc(loc)}"
        )
        return v

    def poly_eval(
        self,
        x: Value,
        basis: str,
        coeffs: Sequence[float],
        interval: tuple[float, float],
        loc: Location,
    ) -> Value:
        """``fhe.poly_eval``: a polynomial of `x` in the Chebyshev basis on
        `interval` or in the power basis (interval (-1, 1))."""
        assert x.encrypted and basis in ("chebyshev", "power")
        v = self._fresh(True, x.slots)
        cs = ", ".join(f64(float(c)) for c in coeffs)
        lo, hi = (f64(float(b)) for b in interval)
        self._body.append(
            f'{v.name} = fhe.poly_eval {x.name} "{basis}" [{cs}] on [{lo}, {hi}] '
            f": {self._type(x)} {_loc(loc)}"
        )
        return v

    def linear_transform(
        self,
        x: Value,
        offsets: Sequence[int],
        diagonals: np.ndarray,
        baby: int,
        loc: Location,
    ) -> Value:
        """``fhe.linear_transform``: sum_j diagonals[j] * rot(x, offsets[j])
        (real or complex diagonals, one row per offset, hex-encoded)."""
        assert x.encrypted and diagonals.shape == (len(offsets), x.slots)
        is_complex = np.iscomplexobj(diagonals)
        data = diagonals.astype(np.complex128 if is_complex else np.float64)
        element = "complex<f64>" if is_complex else "f64"
        v = self._fresh(True, x.slots)
        attrs = f" {{baby = {int(baby)} : i64}}" if baby else ""
        self._body.append(
            f"{v.name} = fhe.linear_transform {x.name} by "
            f"[{', '.join(str(int(o)) for o in offsets)}] diagonals "
            f"{_hex_dense(data)} : "
            f"tensor<{len(offsets)}x{x.slots}x{element}>{attrs} : {self._type(x)} "
            f"{_loc(loc)}"
        )
        return v

    def tile(self, x: Value, slots: int, loc: Location) -> Value:
        """``fhe.tile``: the vector repeated to `slots` slots (free)."""
        assert x.encrypted and slots % x.slots == 0
        v = self._fresh(True, slots)
        self._body.append(
            f"{v.name} = fhe.tile {x.name} : {self._type(x)} -> {self._type(v)} "
            f"{_loc(loc)}"
        )
        return v

    def finish(self, results: list[Value], loc: Location) -> str:
        """The module text with ``return results``. The module, too, is at
        the program's definition: a diagnostic about the whole program (its
        parameters) names the user's line, not the IR file."""
        args = ", ".join(
            f"{v.name}: {self._type(v)}{attrs} {_loc(a)}" for v, a, attrs in self._args
        )
        return _module_text(
            self.name,
            self.loc,
            args,
            self._body,
            [(v.name, self._type(v)) for v in results],
            loc,
        )


# --- encrypted integers (scheme="tfhe") ---------------------------------------


@dataclass(frozen=True)
class IntValue:
    """An SSA value over encrypted integers: its name, width and signedness."""

    name: str
    width: int
    signed: bool


def int_type(width: int, signed: bool) -> str:
    """``!fhe.eint<8>`` or ``!fhe.esint<8>``."""
    return f"!fhe.{'esint' if signed else 'eint'}<{width}>"


class IntFunctionEmitter:
    """Builds one ``func.func`` over ``!fhe.eint<k>`` / ``!fhe.esint<k>``
    values (dialects/FHE/IR/FHEOps.td, the encrypted-integer ops)."""

    BINARY = ("int_add", "int_sub", "int_mul", "int_and", "int_or", "int_xor")

    def __init__(self, name: str, loc: Location) -> None:
        self.name = name
        self.loc = loc
        self._args: list[tuple[IntValue, Location, str]] = []
        self._body: list[str] = []
        self._count = 0

    def _fresh(self, width: int, signed: bool) -> IntValue:
        v = IntValue(f"%{self._count}", width, signed)
        self._count += 1
        return v

    def argument(
        self, index: int, width: int, signed: bool, loc: Location, name: str
    ) -> IntValue:
        v = IntValue(f"%arg{index}", width, signed)
        self._args.append((v, loc, _arg_attrs(name, None)))
        return v

    def constant(self, value: int, width: int, signed: bool, loc: Location) -> IntValue:
        v = self._fresh(width, signed)
        self._body.append(
            f"{v.name} = fhe.int_constant {int(value)} : {int_type(width, signed)} "
            f"{_loc(loc)}"
        )
        return v

    def binary(self, op: str, a: IntValue, b: IntValue, loc: Location) -> IntValue:
        assert op in self.BINARY and (a.width, a.signed) == (b.width, b.signed)
        v = self._fresh(a.width, a.signed)
        self._body.append(
            f"{v.name} = fhe.{op} {a.name}, {b.name} : "
            f"{int_type(a.width, a.signed)} {_loc(loc)}"
        )
        return v

    def bitwise_not(self, a: IntValue, loc: Location) -> IntValue:
        v = self._fresh(a.width, a.signed)
        self._body.append(
            f"{v.name} = fhe.int_not {a.name} : {int_type(a.width, a.signed)} "
            f"{_loc(loc)}"
        )
        return v

    def compare(
        self, predicate: str, a: IntValue, b: IntValue, loc: Location
    ) -> IntValue:
        v = self._fresh(1, False)
        self._body.append(
            f"{v.name} = fhe.int_cmp {_string(predicate)}, {a.name}, {b.name} : "
            f"{int_type(a.width, a.signed)} -> {int_type(1, False)} {_loc(loc)}"
        )
        return v

    def lut(
        self, a: IntValue, table: Sequence[int], width: int, signed: bool, loc: Location
    ) -> IntValue:
        v = self._fresh(width, signed)
        entries = ", ".join(str(int(t)) for t in table)
        self._body.append(
            f"{v.name} = fhe.int_lut {a.name} [{entries}] : "
            f"{int_type(a.width, a.signed)} -> {int_type(width, signed)} {_loc(loc)}"
        )
        return v

    def finish(self, results: list[IntValue], loc: Location) -> str:
        """The module text with ``return results``."""
        args = ", ".join(
            f"{v.name}: {int_type(v.width, v.signed)}{attrs} {_loc(a)}"
            for v, a, attrs in self._args
        )
        return _module_text(
            self.name,
            self.loc,
            args,
            self._body,
            [(v.name, int_type(v.width, v.signed)) for v in results],
            loc,
        )
