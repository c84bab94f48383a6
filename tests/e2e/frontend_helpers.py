"""What the frontend's tests share: the error bound against numpy, random
inputs, the line of a marked statement.

Bound: every slot within BOUND * max(1, |numpy value|) of numpy. CKKS at a
2^40 scale gives about 2^-20 relative error (public-key encryption, a few
rescales and key switches); 2^-13 leaves room for sums of 16 slots and
degree-3 terms while any wrong slot, rotation or sign is off by O(1).
"""

from __future__ import annotations

import inspect

import numpy as np

BOUND = 2.0**-13


def close(got, want, bound: float = BOUND) -> None:
    got, want = np.asarray(got), np.real(np.asarray(want))
    assert got.dtype == np.float64 and got.shape == want.shape
    err = np.max(np.abs(got - want) / np.maximum(1.0, np.abs(want)))
    assert err < bound, f"max error {err:.3g} (bound {bound:.3g})\n{got}\n{want}"


def inputs(rng, prog) -> dict[str, np.ndarray]:
    return {name: rng.uniform(-1, 1, prog.slots) for name in prog.inputs}


def line_of(fn, text: str) -> int:
    """The line of the first line of ``fn``'s source that contains ``text``."""
    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, ln in enumerate(lines) if text in ln)
