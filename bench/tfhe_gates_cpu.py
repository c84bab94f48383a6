"""Gate bootstrapping on the CPU (issue 16): the median time of each of
Ember's six gates, MUX and a lookup table over Z_4 at STD128, on this
machine's cores (the blind rotation uses two threads), every output
decrypted against its truth table. OpenFHE's binfhe on the same inputs'
shapes: bench/openfhe_binfhe.py.

    PYTHONPATH=build/python python bench/tfhe_gates_cpu.py [--runs 21]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import ember_runtime as er
from tfhe_gpu import TRUTH  # bench/: the six gates' truth

tfhe = er.tfhe


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--set", default="STD128")
    args = ap.parse_args()
    p = tfhe.Params.named(args.set)
    t0 = time.perf_counter()
    sk = tfhe.SecretKey(p)
    ev = tfhe.Evaluator(tfhe.EvaluationKeys(sk))
    out = {"set": args.set, "keygen_s": time.perf_counter() - t0, "gates_ms": {}}
    wrong = 0
    for gate, fn in TRUTH.items():
        times = []
        for r in range(args.runs):
            a, b = r & 1, (r >> 1) & 1
            ca, cb = sk.encrypt(a), sk.encrypt(b)
            t0 = time.perf_counter()
            c = ev.gate(gate, ca, cb)
            times.append(time.perf_counter() - t0)
            wrong += int(sk.decrypt(c) != fn(a, b))
        out["gates_ms"][gate] = 1e3 * statistics.median(times)
    times = []
    for r in range(args.runs):
        s, t, f = r & 1, (r >> 1) & 1, (r >> 2) & 1
        cs, ct, cf = sk.encrypt(s), sk.encrypt(t), sk.encrypt(f)
        t0 = time.perf_counter()
        c = ev.mux(cs, ct, cf)
        times.append(time.perf_counter() - t0)
        wrong += int(sk.decrypt(c) != (t if s else f))
    out["mux_ms"] = 1e3 * statistics.median(times)
    table, times = [3, 0, 2, 1], []
    for r in range(args.runs):
        m = r % 4
        cm = sk.encrypt(m, 8)
        t0 = time.perf_counter()
        c = ev.lut(cm, table)
        times.append(time.perf_counter() - t0)
        wrong += int(sk.decrypt(c, 8) != table[m])
    out["lut4_ms"] = 1e3 * statistics.median(times)
    out["wrong"] = wrong
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
