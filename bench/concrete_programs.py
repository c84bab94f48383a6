"""concrete-python's times for bench/tfhe_programs.py's two programs: an
8-bit adder (x + y; concrete keeps the 9-bit sum, Ember's UInt(8) wraps)
and an 8-bit comparison (x < y), 8-bit encrypted inputs, on this
machine's cores. concrete-python comes from PyPI, outside Ember's
environment:

    python3 -m venv /tmp/cpenv && /tmp/cpenv/bin/pip install concrete-python
    /tmp/cpenv/bin/python bench/concrete_programs.py [--runs 7]

Prints one JSON object (compile and keygen seconds, median run seconds).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np
from concrete import fhe


def add(x, y):
    return x + y


def lt(x, y):
    return x < y


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    rng = np.random.default_rng()
    inputset = [tuple(int(v) for v in rng.integers(0, 256, 2)) for _ in range(100)]
    inputset += [(0, 0), (255, 255), (0, 255), (255, 0)]
    out = {"concrete_version": getattr(fhe, "__version__", "?")}
    for name, fn, want in (
        ("add8", add, lambda x, y: x + y),
        ("lt8", lt, lambda x, y: int(x < y)),
    ):
        compiler = fhe.Compiler(fn, {"x": "encrypted", "y": "encrypted"})
        t0 = time.perf_counter()
        circuit = compiler.compile(inputset)
        compile_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        circuit.keygen()
        keygen_s = time.perf_counter() - t0
        times, wrong = [], 0
        for _ in range(args.runs):
            x, y = (int(v) for v in rng.integers(0, 256, 2))
            enc = circuit.encrypt(x, y)
            t0 = time.perf_counter()
            res = circuit.run(enc)
            times.append(time.perf_counter() - t0)
            wrong += int(circuit.decrypt(res) != want(x, y))
        out[name] = {
            "compile_s": compile_s,
            "keygen_s": keygen_s,
            "run_s": statistics.median(times),
            "wrong": wrong,
            "pbs": circuit.statistics.get("programmable_bootstrap_count"),
        }
        print(name, out[name], flush=True)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
