#!/usr/bin/env python3
"""Precision, parameters, compile and CPU run time of the examples at
64-bit and 32-bit words (issue 15, ``word=``), side by side.

Each example of examples/ is compiled at ``word=64`` and ``word=32``
(target="cpu"), run on the same fresh inputs (the example's own sampler,
as ``ember run`` uses) and decrypted; the precision is reported as OpenFHE
and Lattigo do: the mean and the minimum over the slots of
-log2 |decrypted - exact|, the exact value from the example's function on
numpy. Also: N, the levels, the scale, log QP, the compile time (trace to
built library) and the median CPU run of RUNS runs.

    .venv/bin/python bench/word_precision.py [RUNS=5] [SEED=1]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "frontend"))
import ember  # noqa: E402
from ember import cli  # noqa: E402

EXAMPLES = [
    "logistic_regression",
    "dense_layer",
    "variance",
    "polynomial",
    "tanh_layer",
]


def bits(got, want) -> tuple[float, float]:
    got_t = got if isinstance(got, tuple) else (got,)
    want_t = want if isinstance(want, tuple) else (want,)
    pairs = zip(got_t, want_t, strict=True)
    err = np.concatenate([np.abs(np.asarray(g) - np.real(w)).ravel() for g, w in pairs])
    b = -np.log2(np.maximum(err, 2.0**-60))
    return float(b.mean()), float(b.min())


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    print(
        "| example | word | N | levels | scale | log QP | mean bits | min bits "
        "| compile s | run ms |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for example in EXAMPLES:
        path = ROOT / "examples" / f"{example}.py"
        module = cli._load_module(path)
        prog = cli._find_program(module, path, None)
        inputs = cli._inputs(module, prog, None, np.random.default_rng(seed))
        want = prog(**inputs)
        for word in ("64", "32"):
            t = time.perf_counter()
            c = ember.compile(prog, word=word)
            c._program()  # the library built
            compile_s = time.perf_counter() - t
            keys = c.keygen()
            cts = c.encrypt(keys, **inputs)
            ms = []
            for _ in range(runs):
                t = time.perf_counter()
                out = c.run(keys.evaluation, cts)
                ms.append((time.perf_counter() - t) * 1e3)
            got = c.decrypt(keys, out)
            mean, low = bits(got, want)
            p = c.manifest["params"]
            levels = (len(p["q"]) - 3) // 2 if c.word == 32 else len(p["q"]) - 1
            log_qp = sum(int(x).bit_length() for x in p["q"] + p["p"])
            print(
                f"| {example} | {c.word} | 2^{p['log_n']} | {levels} | "
                f"2^{p['log_scale']} | {log_qp} | {mean:.1f} | {low:.1f} | "
                f"{compile_s:.2f} | {np.median(ms):.1f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
