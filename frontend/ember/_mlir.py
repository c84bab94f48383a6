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


def _range_attr(value_range: tuple[float, float] | None) -> str:
    """`` {fhe.range = [lo, hi]}`` (an argument's declared range), or ""."""
    if value_range is None:
        return ""
    lo, hi = value_range
    return f" {{fhe.range = [{f64(lo)}, {f64(hi)}]}}"


@dataclass(frozen=True)
class Value:
    """An SSA value of the function: its name and whether it is encrypted."""

    name: str
    encrypted: bool


class FunctionEmitter:
    """Builds one ``func.func`` over ``!fhe.ct<slots>`` values."""

    def __init__(self, name: str, slots: int, loc: Location) -> None:
        self.name = name
        self.slots = slots
        self.loc = loc
        self._args: list[tuple[Value, Location, tuple[float, float] | None]] = []
        self._body: list[str] = []
        self._constants: dict[str, Value] = {}
        self._count = 0

    # --- types ---------------------------------------------------------------
    def _type(self, v: Value) -> str:
        return f"!fhe.{'ct' if v.encrypted else 'pt'}<{self.slots}>"

    def _fresh(self, encrypted: bool) -> Value:
        v = Value(f"%{self._count}", encrypted)
        self._count += 1
        return v

    # --- building ------------------------------------------------------------
    def argument(
        self, index: int, loc: Location, value_range: tuple[float, float] | None = None
    ) -> Value:
        """The next encrypted function argument (``%argN``), with its range
        as the attribute ``fhe.range = [lo, hi]`` when one is given."""
        v = Value(f"%arg{index}", True)
        self._args.append((v, loc, value_range))
        return v

    def constant(self, values: np.ndarray | float, loc: Location) -> Value:
        """A plaintext constant: a scalar or `slots` float64 values (a splat
        when they are all equal, bit for bit). Equal constants are emitted
        once."""
        data = np.asarray(values, dtype=np.float64).reshape(-1)
        if np.all(data.view(np.uint64) == data.view(np.uint64)[0]):
            dense = f"dense<{f64(data[0])}>"
        else:
            dense = "dense<[" + ", ".join(f64(x) for x in data) + "]>"
        if dense in self._constants:
            return self._constants[dense]
        v = self._fresh(False)
        self._body.append(
            f"{v.name} = fhe.constant {dense} : tensor<{self.slots}xf64> -> "
            f"{self._type(v)} {_loc(loc)}"
        )
        self._constants[dense] = v
        return v

    def binary(self, op: str, lhs: Value, rhs: Value, loc: Location) -> Value:
        """``fhe.add``/``fhe.sub``/``fhe.mul`` of any encrypted/plain mix."""
        assert op in ("add", "sub", "mul") and (lhs.encrypted or rhs.encrypted)
        v = self._fresh(True)
        self._body.append(
            f"{v.name} = fhe.{op} {lhs.name}, {rhs.name} : ({self._type(lhs)}, "
            f"{self._type(rhs)}) -> {self._type(v)} {_loc(loc)}"
        )
        return v

    def unary(self, op: str, x: Value, loc: Location) -> Value:
        """``fhe.neg`` / ``fhe.conjugate``."""
        assert op in ("neg", "conjugate") and x.encrypted
        v = self._fresh(True)
        self._body.append(f"{v.name} = fhe.{op} {x.name} : {self._type(x)} {_loc(loc)}")
        return v

    def rotate(self, x: Value, offset: int, loc: Location) -> Value:
        """``fhe.rotate`` (cyclic left), ``-slots < offset < slots``."""
        assert x.encrypted and -self.slots < offset < self.slots
        v = self._fresh(True)
        self._body.append(
            f"{v.name} = fhe.rotate {x.name} by {offset} : {self._type(x)} "
            f"{_loc(loc)}"
        )
        return v

    def finish(self, results: list[Value], loc: Location) -> str:
        """The module text with ``return results``. The module, too, is at
        the program's definition: a diagnostic about the whole program (its
        parameters) names the user's line, not the IR file."""
        ct = f"!fhe.ct<{self.slots}>"
        args = ", ".join(
            f"{v.name}: {ct}{_range_attr(r)} {_loc(a)}" for v, a, r in self._args
        )
        result_types = ", ".join(ct for _ in results)
        if len(results) != 1:
            result_types = f"({result_types})"
        lines = ["module {"]
        lines.append(f"func.func {_symbol(self.name)}({args}) -> {result_types} {{")
        lines += [f"  {line}" for line in self._body]
        names = ", ".join(v.name for v in results)
        types = ", ".join(ct for _ in results)
        lines.append(f"  return {names} : {types} {_loc(loc)}")
        lines.append(f"}} {_loc(self.loc)}")
        lines.append(f"}} {_loc(self.loc)}")
        return "\n".join(lines) + "\n"
