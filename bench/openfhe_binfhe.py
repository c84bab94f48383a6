"""OpenFHE's binfhe gate bootstrapping, for issue 16's comparison: the
median time of each two-input gate at STD128 with GINX (OpenFHE's default;
Ember's STD128), or with `--method AP` at STD128_AP (Ember's STD128_AP),
on this machine's cores, every output decrypted. Runs under Python 3.10
with the openfhe wheel from PyPI (1.6.x), outside Ember's environment:

    python3.10 -m venv /tmp/ofenv && /tmp/ofenv/bin/pip install openfhe
    /tmp/ofenv/bin/python bench/openfhe_binfhe.py [--runs 21]

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import openfhe as of

GATES = {
    "AND": (of.AND, lambda a, b: a & b),
    "OR": (of.OR, lambda a, b: a | b),
    "NAND": (of.NAND, lambda a, b: 1 - (a & b)),
    "NOR": (of.NOR, lambda a, b: 1 - (a | b)),
    "XOR": (of.XOR, lambda a, b: a ^ b),
    "XNOR": (of.XNOR, lambda a, b: 1 - (a ^ b)),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--method", choices=["GINX", "AP"], default="GINX")
    args = ap.parse_args()
    cc = of.BinFHEContext()
    if args.method == "AP":
        cc.GenerateBinFHEContext(of.STD128_AP, of.AP)
    else:
        cc.GenerateBinFHEContext(of.STD128, of.GINX)
    t0 = time.perf_counter()
    sk = cc.KeyGen()
    cc.BTKeyGen(sk)
    out = {
        "method": args.method,
        "n": cc.Getn(),
        "q": cc.Getq(),
        "N": cc.GetN(),
        "Q": cc.GetQ(),
        "keygen_s": time.perf_counter() - t0,
        "gates_ms": {},
    }
    wrong = 0
    for name, (gate, fn) in GATES.items():
        times = []
        for r in range(args.runs):
            a, b = r & 1, (r >> 1) & 1
            ca, cb = cc.Encrypt(sk, a), cc.Encrypt(sk, b)
            t0 = time.perf_counter()
            c = cc.EvalBinGate(gate, ca, cb)
            times.append(time.perf_counter() - t0)
            wrong += int(cc.Decrypt(sk, c) != fn(a, b))
        out["gates_ms"][name] = 1e3 * statistics.median(times)
    out["wrong"] = wrong
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
