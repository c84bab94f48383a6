"""BGV programs of issue 17's end-to-end checks (tests/e2e/test_bgv_programs.py)
and GPU runs (bench/gpu_bgv_programs.py): ``chain(depth)``, a program of
multiplicative depth 1..10 over 16 integer slots mod 65537 that also adds
and subtracts ciphertexts, integers and vectors, multiplies by small and
large integers, negates, rotates and sums; and ``mul_relin(slots)``, one
product x * y (multiply, relinearize, modulus switch: one merged ModDown)
over ``slots`` slots, to time against the runtime's hand-written
BgvEvaluator at the same parameters; ``rotate()``, one rotation; and
``affine()``, with plaintext inputs."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "frontend"))
import ember  # noqa: E402

T = 65537


def chain(depth: int, slots: int = 16, scheme: str = "bgv"):
    @ember.program(slots=slots, scheme=scheme, plaintext_modulus=T)
    def prog(x, y):
        acc = x * y + 3  # level 1
        w = np.arange(1, slots + 1) * 1000
        for i in range(depth - 1):
            if i % 3 == 0:
                acc = acc * w - y  # a product with a vector: a level
            elif i % 3 == 1:
                acc = (acc * x).rotate(i) + 40000 * x  # a large integer: a level
            else:
                acc = -(acc * acc) + 7 * acc.rotate(-1)
        return acc, ember.sum(x - 5)

    prog.__name__ = prog.name = f"{scheme}_chain{depth}"
    return prog


def mul_relin(slots: int, scheme: str = "bgv"):
    @ember.program(slots=slots, scheme=scheme, plaintext_modulus=T)
    def prog(x, y):
        return x * y

    prog.name = f"{scheme}_mul{slots}"
    return prog


def rotate(slots: int = 16, scheme: str = "bgv"):
    """One rotation: its c0 side added in its ModDown's last NTT (the
    compiler's lift_rotation, a permuted lifted addend)."""

    @ember.program(slots=slots, scheme=scheme, plaintext_modulus=T)
    def prog(x):
        return x.rotate(5)

    prog.name = f"{scheme}_rotate"
    return prog


def affine(slots: int = 16, scheme: str = "bgv"):
    """Two plaintext inputs (ember.Plain: integers the server encodes when
    the program runs) against one ciphertext: (x w + b) x - w."""

    @ember.program(slots=slots, scheme=scheme, plaintext_modulus=T)
    def prog(x, w: ember.Plain, b: ember.Plain):
        return (x * w + b) * x - w

    prog.name = f"{scheme}_affine"
    return prog


def ckks_affine(slots: int = 4096):
    """The same with CKKS (real slots): plaintext inputs at two levels,
    whose CUDA Graph replay once read overwritten buffers."""

    @ember.program(slots=slots)
    def prog(x, w: ember.Plain, b: ember.Plain):
        return (x * w + b) * x - w

    prog.name = "ckks_affine"
    return prog


def matvec(slots: int = 256, scheme: str = "bgv"):
    """An integer 256 x 256 matrix times an encrypted vector
    (ember.matvec: baby-step giant-step rotations, one level, the products
    of each giant step summed before one modulus switch)."""
    w = np.random.default_rng(17).integers(-1000, 1000, (slots, slots))

    @ember.program(slots=slots, scheme=scheme, plaintext_modulus=T)
    def prog(x):
        return ember.matvec(w, x)

    prog.name = f"{scheme}_matvec"
    return prog
