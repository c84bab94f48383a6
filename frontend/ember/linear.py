"""Matrix-vector products of encrypted vectors: :func:`matvec`.

``ember.matvec(W, x)`` records one ``fhe.linear_transform`` (W's nonzero
generalized diagonals); the compiler lowers it by baby-step giant-step
(``fhe-expand-linear-transform``): about 2 sqrt(n) rotations and Galois keys
for n diagonals, the baby rotations sharing one ModUp and the giant ones one
ModDown, in one level.
"""

from __future__ import annotations

import numbers

import numpy as np

from ember.errors import TraceError, user_position
from ember.tracing import Encrypted, Plain


def _padded(w: np.ndarray, slots: int) -> np.ndarray:
    """``w`` zero-padded to slots x slots."""
    padded = np.zeros((slots, slots), dtype=w.dtype)
    padded[: w.shape[0], : w.shape[1]] = w
    return padded


def diagonals(w: np.ndarray, slots: int) -> tuple[list[int], np.ndarray]:
    """The nonzero generalized diagonals of ``w`` zero-padded to slots x
    slots: offsets k and rows ``d_k[s] = W[s, (s + k) mod slots]``, so that
    ``W x = sum_k d_k * np.roll(x, -k)``."""
    padded = _padded(w, slots)
    s = np.arange(slots)
    rows = padded[s[None, :], (s[None, :] + s[:, None]) % slots]  # [k, s]
    keep = np.flatnonzero(np.any(rows != 0, axis=1))
    return keep.tolist(), rows[keep]


def matvec(
    w: np.ndarray | list, x: Encrypted | np.ndarray, *, baby: int | None = None
) -> Encrypted | np.ndarray:
    """``W @ x`` for a plaintext matrix ``W`` of at most ``slots`` rows and
    columns (zero-padded to slots x slots; the result has ``slots`` values,
    zero past W's rows) and an Encrypted ``x`` of ``slots`` slots.

    One level. ``baby`` forces the number of baby steps (a power of two is
    usual; default: the compiler's cost model chooses). On numpy values it
    is ``W_padded @ x``. The Galois keys the program needs are in its
    manifest. Complex ``W`` needs a ``dtype=complex`` program; in a
    ``scheme="bgv"`` program W holds integers (taken mod t) and the product
    is exact.
    """
    a = np.asarray(w)
    if a.ndim != 2 or a.size == 0 or not np.issubdtype(a.dtype, np.number):
        raise TraceError(
            f"matvec takes a 2-d numeric matrix, got shape {a.shape}, dtype {a.dtype}"
        )
    if not np.all(np.isfinite(a)):
        raise TraceError("the matrix contains a NaN or infinite value")
    if isinstance(x, Plain):
        raise TraceError("ember.matvec of a plaintext input is not encrypted work")
    slots = x.slots if isinstance(x, Encrypted) else np.asarray(x).size
    if a.shape[0] > slots or a.shape[1] > slots:
        raise TraceError(
            f"a {a.shape[0]} x {a.shape[1]} matrix does not fit {slots} slots "
            "(at most slots rows and columns)"
        )
    if baby is not None and (
        not isinstance(baby, numbers.Integral)
        or isinstance(baby, bool)
        or not 1 <= baby <= slots
    ):
        raise TraceError(f"baby must be an int in [1, {slots}], got {baby!r}")
    if np.iscomplexobj(a) and isinstance(x, Encrypted) and not x._complex:
        raise TraceError(
            "a complex matrix in a real program: declare "
            "@ember.program(..., dtype=complex)"
        )
    t = x._modulus if isinstance(x, Encrypted) else 0
    if t:  # scheme="bgv": an integer matrix, taken mod t
        if np.iscomplexobj(a) or not np.all(a == np.trunc(a)):
            raise TraceError(
                f"a BGV program's matrix holds integers (mod {t}), got {a.dtype} "
                "values that are not"
            )
        a = np.array([[int(v) % t for v in row] for row in a.tolist()], dtype=object)
        if x._tracer is not None:  # centred, exact as doubles
            a = np.where(a > t // 2, a - t, a).astype(np.float64)
    if isinstance(x, Encrypted) and x._tracer is not None:
        offsets, rows = diagonals(a, slots)
        if not offsets:
            raise TraceError("the matrix is zero: W @ x is the zero vector")
        value = x._tracer.emitter.linear_transform(
            x._value, offsets, rows, baby or 0, user_position()
        )
        return x._wrap(value)
    values = x._value if isinstance(x, Encrypted) else np.asarray(x)
    result = _padded(a, slots) @ values
    return x._wrap(result) if isinstance(x, Encrypted) else result
