#!/usr/bin/env python3
"""Precision and compile time of the polynomial programs of issue 12.

Compiles the Paterson-Stockmeyer evaluations of tests/e2e/polys.py (power
basis: the fixed random coefficients of tests/e2e/test_polynomials.py;
Chebyshev basis: the interpolant of tanh(3x)) at degrees 16, 27 and 59,
runs each on the CPU on fresh inputs uniform in [-1, 1] and prints, as
OpenFHE and Lattigo report CKKS precision, the mean and the minimum over
the slots of -log2 |decrypted - exact| (the exact value from numpy's
polynomial evaluation), plus the depth, the scale and the compile time.
The degree-59 Chebyshev polynomial runs once more with eager
relinearization. The same polynomials (and degrees 15 and 31, where d + 1
is a power of two) also run as the compiler's own operation,
``ember.poly`` (one fhe.poly_eval, expanded by fhe-expand-poly-eval, issue
14), in the column "form".

    .venv/bin/python bench/polynomial_precision.py [SLOTS=4096] [SEED=1]
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

import numpy as np
from numpy.polynomial import chebyshev as cheb
from numpy.polynomial import polynomial as poly

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "frontend"))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
import ember  # noqa: E402
from polys import chebyshev_ps, power_ps  # noqa: E402


def bits(got: np.ndarray, want: np.ndarray) -> tuple[float, float]:
    err = np.maximum(np.abs(got - want), 2.0**-60)
    b = -np.log2(err)
    return float(np.mean(b)), float(np.min(b))


def program_body(evaluate, c):
    def body(x):
        return evaluate(x, c)

    return body


def ember_poly(basis: str):
    """ember.poly in `basis`, as an evaluate(x, c) of tests/e2e/polys.py."""
    return lambda x, c: ember.poly(x, c, basis=basis)


def main() -> None:
    slots = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rng = np.random.default_rng(seed)
    cases = []
    for d in (16, 27, 59):
        c = np.random.default_rng(d).uniform(-1, 1, d + 1) / np.arange(1, d + 2)
        cases.append(("power", d, power_ps, poly.polyval, c, {}))
    for d in (16, 27, 59):
        c = cheb.chebinterpolate(lambda t: np.tanh(3 * t), d)
        cases.append(("chebyshev", d, chebyshev_ps, cheb.chebval, c, {}))
    c59 = cases[-1][4]
    cases.append(
        ("chebyshev", 59, chebyshev_ps, cheb.chebval, c59, {"lazy_relin": False})
    )
    for d in (15, 16, 27, 31, 59):
        c = np.random.default_rng(d).uniform(-1, 1, d + 1) / np.arange(1, d + 2)
        cases.append(("power", d, ember_poly("power"), poly.polyval, c, {}))
    for d in (15, 16, 27, 31, 59):
        c = cheb.chebinterpolate(lambda t: np.tanh(3 * t), d)
        cases.append(("chebyshev", d, ember_poly("chebyshev"), cheb.chebval, c, {}))

    print(
        "| form | basis | degree | relinearization | depth | log2 scale | "
        "compile s | mean bits | min bits |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for basis, d, evaluate, exact, c, opts in cases:
        prog = ember.program(slots=slots)(program_body(evaluate, c))
        form = "python" if evaluate in (power_ps, chebyshev_ps) else "ember.poly"
        prog.name = f"{basis}{d}" + ("" if form == "python" else "_op")
        start = time.perf_counter()
        compiled = ember.compile(prog, **opts)
        seconds = time.perf_counter() - start
        params = compiled.manifest["params"]
        x = rng.uniform(-1, 1, slots)
        mean, low = bits(compiled(x=x), exact(x, c))
        relin = "eager" if opts.get("lazy_relin") is False else "lazy"
        print(
            f"| {form} | {basis} | {d} | {relin} | {len(params['q']) - 1} | "
            f"{params['log_scale']:g} | {seconds:.2f} | {mean:.1f} | {low:.1f} |"
        )
    print(
        f"\n{slots} slots, inputs uniform in [-1, 1] (seed {seed}); "
        f"bits = -log2 |decrypted - numpy| per slot; depth ceil(log2(d + 1)) "
        f"= {math.ceil(math.log2(17))}, {math.ceil(math.log2(28))}, "
        f"{math.ceil(math.log2(60))}."
    )


if __name__ == "__main__":
    main()
