"""Input ranges: what a program declares its inputs to be, and the check
that an input lies in it.

The compiler chooses the first prime and the scale so that every value the
program computes fits (fhe-to-ckks, from a range analysis of the traced
program); it can only do that from bounds on the inputs. An input declares
its range with ``@ember.program(slots=..., ranges={"x": (lo, hi)})`` or
through a sample set, ``ember.compile(f, inputset=[...])``: the smallest
interval holding every sample value, widened by :data:`INPUTSET_MARGIN` of
its largest magnitude on each side. An input that declares nothing lies in
:data:`DEFAULT_RANGE`, [-1, 1], the usual CKKS convention. The traced
program carries each declared range as the argument attribute
``fhe.range``; the manifest records every input's range, and encrypting a
value outside it is an :class:`InputError`.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from ember.errors import InputError, OptionError, TraceError

Range = tuple[float, float]

DEFAULT_RANGE: Range = (-1.0, 1.0)
# An inputset's observed interval [lo, hi] becomes [lo - m, hi + m] with
# m = INPUTSET_MARGIN * max(|lo|, |hi|): inputs a little beyond the samples
# are still accepted (and fit), at the price of a tenth more magnitude.
INPUTSET_MARGIN = 0.1


def check_declared(
    ranges: object, inputs: Sequence[str], where: tuple[str, int]
) -> dict[str, Range]:
    """The ``ranges=`` of ``@ember.program``, checked: a dict from input
    names to ``(lo, hi)`` with finite ``lo <= hi`` (a TraceError at the
    program's definition otherwise)."""
    if ranges is None:
        return {}
    if not isinstance(ranges, Mapping):
        raise TraceError(
            "ranges must be a dict from input names to (lo, hi), got "
            f"{type(ranges).__name__}",
            *where,
        )
    out = {}
    for name, bounds in ranges.items():
        if name not in inputs:
            raise TraceError(
                f"ranges names '{name}', which is not an input (the inputs: "
                f"{', '.join(inputs)})",
                *where,
            )
        ok = (
            isinstance(bounds, tuple | list)
            and len(bounds) == 2
            and all(
                isinstance(b, numbers.Real) and not isinstance(b, bool) for b in bounds
            )
        )
        lo, hi = (float(bounds[0]), float(bounds[1])) if ok else (0.0, 0.0)
        if not ok or not (math.isfinite(lo) and math.isfinite(hi)) or lo > hi:
            raise TraceError(
                f"the range of '{name}' must be (lo, hi) with finite lo <= hi, "
                f"got {bounds!r}",
                *where,
            )
        out[name] = (lo, hi)
    return out


def from_inputset(
    bind: Any, inputs: Sequence[str], declared: Mapping[str, Range], inputset: object
) -> dict[str, Range]:
    """The range of every input from ``inputset`` (an iterable of samples,
    each a dict by name or a sequence in parameter order, bound by
    ``bind(args, kwargs)``): the hull of its values, widened by
    INPUTSET_MARGIN, for the inputs ``declared`` does not fix; a sample
    outside a declared range is an InputError."""
    if isinstance(inputset, Mapping) or not isinstance(inputset, Iterable):
        raise OptionError(
            "inputset must be a list of samples (each a dict of the inputs by "
            f"name, or a sequence of them), got {type(inputset).__name__}"
        )
    lo = dict.fromkeys(inputs, math.inf)
    hi = dict.fromkeys(inputs, -math.inf)
    count = 0
    for i, sample in enumerate(inputset):
        if isinstance(sample, Mapping):
            values = bind((), dict(sample))
        elif isinstance(sample, Sequence | np.ndarray) and not isinstance(sample, str):
            values = bind(tuple(sample), {})
        else:
            raise OptionError(
                f"inputset sample {i} must be a dict of the inputs by name or a "
                f"sequence of them, got {type(sample).__name__}"
            )
        for name, v in zip(inputs, values, strict=True):
            if name in declared:
                check_input(name, v, declared[name], f"inputset sample {i}: ")
            lo[name] = min(lo[name], float(v.min()))
            hi[name] = max(hi[name], float(v.max()))
        count += 1
    if count == 0:
        raise OptionError("inputset is empty: give at least one sample")
    out = dict(declared)
    for name in inputs:
        if name not in declared:
            margin = INPUTSET_MARGIN * max(abs(lo[name]), abs(hi[name]))
            out[name] = (lo[name] - margin, hi[name] + margin)
    return out


def check_input(
    name: str, values: np.ndarray, bounds: Sequence[float], prefix: str = ""
) -> None:
    """An InputError when a value of input ``name`` lies outside
    ``bounds`` (the manifest's ``[lo, hi]``; complex ranges bound the real
    parts with the first two and the imaginary parts with the last two)."""
    values = np.asarray(values)
    parts = [("", np.real(values), bounds[0], bounds[1])]
    if len(bounds) == 4:
        parts.append((" (imaginary part)", np.imag(values), bounds[2], bounds[3]))
    for what, v, lo, hi in parts:
        lo, hi = float(lo), float(hi)
        if not ((v < lo) | (v > hi)).any():
            continue
        slot = int(np.argmax(np.where(v < lo, lo - v, v - hi)))
        value = float(v[slot])
        if value == 0:
            what += " (shorter vectors are zero-padded)"
        default = ""
        if (lo, hi) == DEFAULT_RANGE:
            default = " (the default: declare the range of an input that can leave it)"
        raise InputError(
            f"{prefix}input '{name}' = {value!r} in slot {slot}{what} is outside its "
            f"range [{lo!r}, {hi!r}]{default}; the parameters were chosen for that "
            "range, so a value outside it could overflow. Declare a wider one "
            f"(@ember.program(..., ranges={{'{name}': (lo, hi)}}) or an inputset "
            "holding such values) and compile again"
        )
