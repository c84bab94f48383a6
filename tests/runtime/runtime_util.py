"""Helpers shared by the runtime tests: the module import, precision,
random inputs, and the keys and workers of a CKKS context."""

from __future__ import annotations

import types

import numpy as np

try:
    import ember_runtime as er
except ImportError as exc:  # pragma: no cover - a setup problem, say so plainly
    raise ImportError(
        "cannot import ember_runtime: build the runtime and run the tests with "
        "PYTHONPATH=<build>/python (e.g. PYTHONPATH=build/python pytest tests/runtime)"
    ) from exc


def precision_bits(got: np.ndarray, want: np.ndarray) -> float:
    """-log2 of the largest absolute error (inf when exact)."""
    err = float(np.max(np.abs(np.asarray(got) - np.asarray(want))))
    return float("inf") if err == 0 else -float(np.log2(err))


def random_complex(rng: np.random.Generator, n: int, bound: float = 1.0) -> np.ndarray:
    """Uniform in the square [-bound, bound] + i[-bound, bound]."""
    return rng.uniform(-bound, bound, n) + 1j * rng.uniform(-bound, bound, n)


def make_ckks(
    ctx: er.Context, rotations: list[int], slots: int
) -> types.SimpleNamespace:
    """Keys and workers of one context: rotations by `rotations` at `slots`
    slots, conjugation, relinearization."""
    kg = er.KeyGenerator(ctx)
    elements = sorted(
        {er.galois_element_for_rotation(ctx, k, slots) for k in rotations}
        | {er.galois_element_for_conjugation(ctx)}
    )
    galois = kg.galois_keys(elements)
    relin = kg.relin_key()
    return types.SimpleNamespace(
        ctx=ctx,
        slots=slots,
        rotations=rotations,
        keygen=kg,
        sk=kg.secret_key(),
        pk=kg.public_key(),
        relin=relin,
        galois=galois,
        keys=er.EvaluationKeys(relin=relin, galois=galois),
        encoder=er.Encoder(ctx),
        encryptor=er.Encryptor(ctx),
        decryptor=er.Decryptor(ctx, kg.secret_key()),
        evaluator=er.Evaluator(ctx),
    )
