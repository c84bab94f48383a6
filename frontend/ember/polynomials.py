"""Polynomials of encrypted values: :func:`poly` (given coefficients) and
:func:`approx` (the Chebyshev interpolant of any numpy function).

CKKS adds and multiplies; every other function is evaluated as a polynomial
approximation. ``ember.poly`` records one ``fhe.poly_eval`` operation, which
the compiler expands by Paterson-Stockmeyer at the minimal depth
ceil(log2(d + 1)) for degree d (``fhe-expand-poly-eval``), plus one level
when the Chebyshev interval [lo, hi] needs a change of variable that is not
free (2 / (hi - lo) not an integer). Like every Ember operation they also
run on numpy arrays, where they are numpy's ``chebval`` / ``polyval``.

The interval is the caller's statement that the polynomial's input lies in
[lo, hi]: the compiler's range analysis takes it (the Chebyshev T_n are then
within [-1, 1]); a value outside it makes the result wrong, as it would be
for the function being approximated. Program inputs outside [-1, 1] still
declare their range (``@ember.program(..., ranges={"x": (0, 4)})``).
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.polynomial import chebyshev, polynomial

from ember.errors import TraceError, user_location, user_position
from ember.tracing import Encrypted, Plain

BASES = ("chebyshev", "power")
MAX_DEGREE = 1024
_GRID = 20001  # points where approx measures its maximum error


def _interval(interval: object) -> tuple[float, float]:
    try:
        lo, hi = (float(b) for b in interval)  # type: ignore[union-attr]
    except (TypeError, ValueError):
        raise TraceError(
            f"interval must be a pair (lo, hi) of numbers, got {interval!r}"
        ) from None
    if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi):
        raise TraceError(f"interval must have finite lo < hi, got ({lo}, {hi})")
    return lo, hi


def _coefficients(coeffs: object) -> np.ndarray:
    c = np.asarray(coeffs)
    if c.ndim != 1 or c.size == 0:
        raise TraceError(
            f"coefficients must be a 1-d sequence of numbers, got shape {c.shape}"
        )
    if np.iscomplexobj(c) or not np.issubdtype(c.dtype, np.number):
        raise TraceError(
            f"coefficients must be real numbers, got dtype {c.dtype} "
            "(a complex polynomial is two real ones)"
        )
    c = c.astype(np.float64)
    if not np.all(np.isfinite(c)):
        raise TraceError("coefficients contain a NaN or infinite value")
    nonzero = np.flatnonzero(c)
    if nonzero.size == 0 or nonzero[-1] == 0:
        raise TraceError(
            "the polynomial is a constant (no nonzero coefficient past c[0]): "
            "use the constant itself"
        )
    c = c[: nonzero[-1] + 1]
    if c.size - 1 > MAX_DEGREE:
        raise TraceError(f"degree {c.size - 1} is above {MAX_DEGREE}")
    return c


def _evaluate(a: np.ndarray, c: np.ndarray, lo: float, hi: float, basis: str):
    if basis == "power":
        return polynomial.polyval(a, c)
    return chebyshev.chebval((2 * a - lo - hi) / (hi - lo), c)


def poly(
    x: Encrypted | np.ndarray,
    coeffs: Sequence[float] | np.ndarray,
    *,
    interval: tuple[float, float] = (-1.0, 1.0),
    basis: str = "chebyshev",
) -> Encrypted | np.ndarray:
    """``sum_k coeffs[k] T_k(t)``, ``t = (2 x - lo - hi) / (hi - lo)``: the
    Chebyshev series on ``interval`` (``basis="chebyshev"``, the default), or
    ``sum_k coeffs[k] x^k`` (``basis="power"``, which takes no interval).

    Coefficients are real; trailing zeros are dropped; the degree is at
    least 1 and at most 1024. On an :class:`Encrypted` value in a traced
    program it costs ceil(log2(d + 1)) levels (one more for an interval
    whose 2 / (hi - lo) is not an integer); on plain values it is numpy's
    ``chebval`` / ``polyval``. The Chebyshev basis is the stable one for
    degrees past ~10: power coefficients of a good approximation grow
    exponentially with the degree.
    """
    if basis not in BASES:
        raise TraceError(f"basis must be 'chebyshev' or 'power', got {basis!r}")
    lo, hi = _interval(interval)
    if basis == "power" and (lo, hi) != (-1.0, 1.0):
        raise TraceError(
            "the power basis takes no interval: map x first, or use the "
            "Chebyshev basis on (lo, hi)"
        )
    c = _coefficients(coeffs)
    if isinstance(x, Plain):
        raise TraceError(
            "ember.poly of a plaintext input: a polynomial of values the "
            "server knows is not an encrypted computation"
        )
    if isinstance(x, Encrypted):
        if x._tracer is None:
            return x._wrap(_evaluate(x._value, c, lo, hi, basis))
        value = x._tracer.emitter.poly_eval(
            x._value, basis, c.tolist(), (lo, hi), user_position()
        )
        return x._wrap(value)
    if isinstance(x, numbers.Number | np.ndarray | list | tuple):
        return _evaluate(np.asarray(x), c, lo, hi, basis)
    raise TraceError(
        f"ember.poly takes an Encrypted value or numbers, got {type(x).__name__}"
    )


def chebyshev_fit(
    fn: Callable[[np.ndarray], Any], interval: tuple[float, float], degree: int
) -> tuple[np.ndarray, float]:
    """The degree-``degree`` Chebyshev interpolant of ``fn`` on ``interval``
    (at the Chebyshev points of the first kind: numpy's
    ``Chebyshev.interpolate``) and its maximum error ``max |fn - p|`` over
    20001 evenly spaced points of the interval. ``fn`` takes and returns
    numpy arrays."""
    if (
        not isinstance(degree, numbers.Integral)
        or isinstance(degree, bool)
        or not 1 <= degree <= MAX_DEGREE
    ):
        raise TraceError(f"degree must be an int in [1, {MAX_DEGREE}], got {degree!r}")
    lo, hi = _interval(interval)
    if not callable(fn):
        raise TraceError(f"fn must be a function of numpy arrays, got {fn!r}")

    where = user_location()  # fn runs under numpy's frames: name the caller

    def values(t: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"):
            y = np.asarray(fn(t))
        if y.shape != t.shape or np.iscomplexobj(y):
            raise TraceError(
                f"fn must map an array of {t.size} reals to as many reals "
                f"elementwise, got shape {y.shape}, dtype {y.dtype}",
                *where,
            )
        if not np.all(np.isfinite(y)):
            raise TraceError(
                f"fn is not finite everywhere on [{lo}, {hi}] (a pole or a "
                "NaN in the interval)",
                *where,
            )
        return y.astype(np.float64)

    p = chebyshev.Chebyshev.interpolate(values, int(degree), domain=[lo, hi])
    grid = np.linspace(lo, hi, _GRID)
    err = float(np.max(np.abs(values(grid) - p(grid))))
    return np.asarray(p.coef, dtype=np.float64), err


def approx(
    fn: Callable[[np.ndarray], Any],
    x: Encrypted | np.ndarray,
    *,
    interval: tuple[float, float],
    degree: int,
) -> Encrypted | np.ndarray:
    """``fn(x)`` approximated by its degree-``degree`` Chebyshev interpolant
    on ``interval`` (:func:`chebyshev_fit`), evaluated with :func:`poly`.

    The interpolant's maximum error on the interval is reported: in a
    compiled program's ``approximations`` (one entry per call: the user's
    file and line, the function's name, interval, degree and ``max_error``).
    Outside the interval the polynomial is not ``fn`` (it grows like
    |t|^degree): declare the input's range so that the compiler checks it.
    """
    lo, hi = _interval(interval)
    c, err = chebyshev_fit(fn, (lo, hi), degree)
    if np.flatnonzero(c[1:]).size == 0:  # fn is constant on the interval
        raise TraceError(
            f"{getattr(fn, '__name__', 'fn')} is constant on [{lo}, {hi}] to "
            "double precision: use the constant"
        )
    if isinstance(x, Encrypted) and x._tracer is not None:
        file, line = user_location()
        x._tracer.approximations.append(
            {
                "file": file,
                "line": line,
                "function": getattr(fn, "__name__", None) or repr(fn),
                "interval": [lo, hi],
                "degree": int(degree),
                "max_error": err,
            }
        )
    return poly(x, c, interval=(lo, hi))
