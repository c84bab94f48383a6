"""Ember runtime demo: CKKS on the CPU backend at parameter set B.

Encrypts two random vectors of N/2 = 32768 complex slots, multiplies them
(relinearize, rescale), rotates the product by 3 slots, decrypts, and prints
the error against numpy and the time of each step.

    PYTHONPATH=build/python .venv/bin/python examples/runtime_demo.py
"""

from __future__ import annotations

import time

import ember_runtime as er
import numpy as np

ROTATION = 3


def main() -> None:
    timings: list[tuple[str, float]] = []

    def timed(label, fn, *args):
        start = time.perf_counter()
        result = fn(*args)
        timings.append((label, time.perf_counter() - start))
        return result

    def keygen():
        kg = er.KeyGenerator(ctx)
        galois = kg.galois_keys([er.galois_element_for_rotation(ctx, ROTATION, slots)])
        return kg, kg.public_key(), kg.relin_key(), galois

    ctx = er.Context(er.ParamSpec.named("B"))
    slots = ctx.slots_max
    print(
        f"parameters: {ctx.describe()}, scale 2^{ctx.spec.log_scale:g}, {slots} slots"
    )

    kg, pk, relin, galois = timed("keygen (sk, pk, relin, 1 Galois)", keygen)
    encoder, encryptor = er.Encoder(ctx), er.Encryptor(ctx)
    decryptor, evaluator = er.Decryptor(ctx, kg.secret_key()), er.Evaluator(ctx)

    rng = np.random.default_rng()
    x = rng.uniform(-1, 1, slots) + 1j * rng.uniform(-1, 1, slots)
    y = rng.uniform(-1, 1, slots) + 1j * rng.uniform(-1, 1, slots)

    cx = timed("encode+encrypt", lambda: encryptor.encrypt(encoder.encode(x), pk))
    cy = encryptor.encrypt(encoder.encode(y), pk)
    prod = timed("hmul+relin", evaluator.multiply_relin, cx, cy, relin)
    prod = timed("rescale", evaluator.rescale, prod)
    rotated = timed(f"rotate by {ROTATION}", evaluator.rotate, prod, ROTATION, galois)
    got = timed("decrypt+decode", lambda: encoder.decode(decryptor.decrypt(rotated)))

    want = np.roll(x * y, -ROTATION)
    err = float(np.max(np.abs(got - want)))
    print(f"result: level {rotated.level}, scale 2^{np.log2(rotated.scale):.4f}")
    print(f"max |error| vs numpy: {err:.3e}  ({-np.log2(err):.1f} bits of precision)")
    print()
    width = max(len(label) for label, _ in timings)
    print(f"{'step':<{width}}  time (ms)")
    print(f"{'-' * width}  ---------")
    for label, seconds in timings:
        print(f"{label:<{width}}  {seconds * 1e3:9.1f}")


if __name__ == "__main__":
    main()
