"""Programs of issue 13's GPU measurements at parameter set B (N = 2^16,
24 Q primes; compiled with ``params="B"``): a sum of 8 rotations over all
2^15 slots, a 256 x 256 dense layer (diagonal method, 16 baby steps and 15
giant steps), the degree-15 polynomial of examples/polynomial.py, and
the two single operations of the targets: one hmul+relin (with its
rescale) and one rotation over all 2^15 slots.
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


def _bsgs(x, diagonal, size: int, baby_steps: int):
    """W x by W's diagonals, baby-step giant-step: baby_steps hoisted
    rotations, size / baby_steps giant steps."""
    baby = [x.rotate(i) for i in range(baby_steps)]
    y = None
    for j in range(0, size, baby_steps):
        inner = sum(np.roll(diagonal(j + i), j) * baby[i] for i in range(baby_steps))
        term = inner.rotate(j) if j else inner
        y = term if y is None else y + term
    return y


@ember.program(slots=DENSE)
def dense256_b(x):
    """W x for a 256 x 256 W, BSGS diagonals."""
    return _bsgs(x, _diagonal, DENSE, BABY)


# Issue 18's matrix: 1024 x 1024, 32 baby and 32 giant steps. Its weights
# are 8-bit (int8 levels / (127 sqrt(1024))), as a quantized network's
# are: the program's constants then compress to about a byte per weight,
# which keeps the artifacts the GPU runs under the device tool's limit.
DENSE1024 = 1024
W1024 = np.random.default_rng(1024).integers(-127, 128, (DENSE1024, DENSE1024)) / (
    127 * np.sqrt(DENSE1024)
)


def _diagonal1024(k: int) -> np.ndarray:
    t = np.arange(DENSE1024)
    return W1024[t, (t + k) % DENSE1024]


@ember.program(slots=DENSE1024)
def dense1024_b(x):
    """W x for a 1024 x 1024 W, BSGS diagonals (32 x 32)."""
    return _bsgs(x, _diagonal1024, DENSE1024, 32)


@ember.program(slots=4096)
def polynomial_b(x):
    """The degree-15 polynomial of examples/polynomial.py."""
    return _poly.polynomial.fn(x)


@ember.program(slots=2**15)
def mul_relin_b(x, y):
    """One hmul + relinearization (and its rescale)."""
    return x * y


@ember.program(slots=2**15)
def rotate_b(x):
    """One rotation by one slot."""
    return x.rotate(1)


PROGRAMS = {
    "rot8_sum_B": rot8_sum_b,
    "dense256_B": dense256_b,
    "polynomial_B": polynomial_b,
    "mul_relin_B": mul_relin_b,
    "rotate_B": rotate_b,
}


def _rotate(ev, ct, k: int, log_n: int):
    """Rotation by k slots through the Galois element the compiled program
    uses (and lists in its manifest): the shorter signed offset modulo the
    slot count, over all N/2 slots (the same map on a replicated packing)."""
    if k > DENSE // 2:
        k -= DENSE
    half = 1 << (log_n - 1)
    return ev.apply_galois(ct, pow(5, k % half, 2 * half * 2))


def one_by_one(name: str, ev, cts: list, encode, log_n: int = 16):
    """The program issued one operation at a time through the runtime's
    hand-written API (``ember_runtime.CudaEvaluator``): the baseline of
    issue 13's 0.75x target. ``encode(values, level)`` gives a device
    plaintext at that level, scaled by its last prime (so that a rescale
    returns the ciphertext's scale). None for the programs without one."""
    if name == "rot8_sum_B":
        (x,) = cts
        y = ev.rotate(x, 1)
        for k in range(2, 9):
            y = ev.add(y, ev.rotate(x, k))
        return y
    if name == "dense256_B":
        (x,) = cts
        baby = [x] + [ev.rotate(x, i) for i in range(1, BABY)]
        y = None
        for j in range(0, DENSE, BABY):
            inner = None
            for i in range(BABY):
                diag = np.roll(_diagonal(j + i), j)
                term = ev.mul_plain(baby[i], encode(diag, x.level))
                inner = term if inner is None else ev.add(inner, term)
            inner = ev.rescale(inner)
            term = _rotate(ev, inner, j, log_n) if j else inner
            y = term if y is None else ev.add(y, term)
        return y
    if name == "mul_relin_B":
        x, y = cts
        return ev.rescale(ev.multiply_relin(x, y))
    if name == "mul_relin_B_norescale":  # compiled with rescale_outputs=False
        x, y = cts
        return ev.multiply_relin(x, y)
    if name == "rotate_B":
        (x,) = cts
        return ev.rotate(x, 1)
    return None


def inputs(program, rng: np.random.Generator) -> dict[str, np.ndarray]:
    return {name: rng.uniform(-1, 1, program.slots) for name in program.inputs}
