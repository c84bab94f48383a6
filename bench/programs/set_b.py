"""Programs of issue 13's GPU measurements at parameter set B (N = 2^16,
24 Q primes; compiled with ``params="B"``): a sum of 8 rotations over all
2^15 slots, a 256 x 256 dense layer (diagonal method, 16 baby steps and 15
giant steps) and the degree-15 polynomial of examples/polynomial.py.
Inputs are uniform in [-1, 1] (bench/make_python_gpu_artifacts.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
import ember  # noqa: E402
import polynomial as _poly  # noqa: E402

DENSE = 256
BABY = 16
_rng = np.random.default_rng(256)
W = _rng.normal(0, 1 / np.sqrt(DENSE), (DENSE, DENSE))


def _diagonal(k: int) -> np.ndarray:
    t = np.arange(DENSE)
    return W[t, (t + k) % DENSE]


@ember.program(slots=2**15)
def rot8_sum_b(x):
    """x rotated by 1..8 slots, summed (one hoisted ModUp)."""
    return sum(x.rotate(k) for k in range(1, 9))


@ember.program(slots=DENSE)
def dense256_b(x):
    """W x for a 256 x 256 W, BSGS diagonals."""
    baby = [x.rotate(i) for i in range(BABY)]
    y = None
    for j in range(0, DENSE, BABY):
        inner = sum(np.roll(_diagonal(j + i), j) * baby[i] for i in range(BABY))
        term = inner.rotate(j) if j else inner
        y = term if y is None else y + term
    return y


@ember.program(slots=4096)
def polynomial_b(x):
    """The degree-15 polynomial of examples/polynomial.py."""
    return _poly.polynomial.fn(x)


PROGRAMS = {
    "rot8_sum_B": rot8_sum_b,
    "dense256_B": dense256_b,
    "polynomial_B": polynomial_b,
}


def inputs(program, rng: np.random.Generator) -> dict[str, np.ndarray]:
    return {name: rng.uniform(-1, 1, program.slots) for name in program.inputs}
