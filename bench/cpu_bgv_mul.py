"""Ember's BFV and BGV multiply+relinearize on the CPU (the runtime's
hand-written BfvEvaluator / BgvEvaluator through the Python module), at the
N and Q sizes OpenFHE 1.6 picks for t = 65537 and multiplicative depth 10
(bench/openfhe_bgv.py, run under Python 3.10 beside it): BFV Q = 7 x 60
bits (420), BGV Q = 40 + 10 x 39 bits (430); P = 3 x 60, dnum 3. Median of
RUNS after one warm-up; the product decrypts to x * x mod t (checked). One
JSON object per scheme. The runtime's Context keeps freed memory in the
heap (internal::keepFreedMemory, as every compiled program run does); run
OpenFHE with GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:
glibc.malloc.trim_threshold=4294967295 for the same malloc policy.

With --behz, BFV's multiply+relinearize with BEHZ's tensor product too
(multiply_relin_behz: behz_mul_relin_ms, behz_exact), its runs interleaved
with HPS's.

    python bench/cpu_bgv_mul.py [RUNS] [--log-n 15] [--behz]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

# numpy's OpenBLAS threads would otherwise spin on the two cores this times
# (bench/openfhe_bgv.py does not load numpy).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "build" / "python"))
import ember_runtime as er  # noqa: E402

T = 65537


def measure(scheme: str, log_n: int, runs: int, behz: bool = False) -> dict:
    q_bits = [60] * 7 if scheme == "bfv" else [40] + [39] * 10
    spec = er.ParamSpec(log_n=log_n, q_bits=q_bits, p_bits=[60] * 3, dnum=3)
    ctx = er.Context(spec)
    prng = er.Prng()
    bgv = scheme == "bgv"
    keygen = (
        er.KeyGenerator(ctx, prng, error_factor=T)
        if bgv
        else er.KeyGenerator(ctx, prng)
    )
    enc = (er.BgvEncoder if bgv else er.BfvEncoder)(ctx, T)
    ev = (er.BgvEvaluator if bgv else er.BfvEvaluator)(ctx, T)
    encryptor = er.Encryptor(ctx, prng, error_factor=T if bgv else 1)
    rk = keygen.relin_key()
    n = 1 << (log_n - 1)  # slots
    x = (7 * np.arange(n) + 3) % T
    ct = encryptor.encrypt(enc.encode(x), keygen.public_key())
    # BGV: OpenFHE's EvalMult relinearizes and does not switch; so does
    # multiply + relinearize here (multiply_relin would add the switch).
    mul = (
        (lambda: ev.relinearize(ev.multiply(ct, ct), rk))
        if bgv
        else (lambda: ev.multiply_relin(ct, ct, rk))
    )
    muls = {"": mul}
    if behz and not bgv:
        muls["behz_"] = lambda: ev.multiply_relin_behz(ct, ct, rk)
    outs = {key: f() for key, f in muls.items()}  # warm-up
    times: dict[str, list[float]] = {key: [] for key in muls}
    for _ in range(runs):
        for key, f in muls.items():  # interleaved
            t0 = time.perf_counter()
            outs[key] = f()
            times[key].append((time.perf_counter() - t0) * 1e3)
    dec = er.Decryptor(ctx, keygen.secret_key())
    result = {"scheme": scheme, "log_n": log_n, "q_bits": sum(q_bits)}
    for key, out in outs.items():
        got = np.asarray(enc.decode(dec.decrypt(out)))
        result[key + "exact"] = bool(np.array_equal(got[:n], (x * x) % T))
    result["runs"] = runs
    for key in muls:
        result[key + "mul_relin_ms"] = statistics.median(times[key])
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("runs", type=int, nargs="?", default=9)
    ap.add_argument("--log-n", type=int, default=15)
    ap.add_argument("--behz", action="store_true", help="time BFV's BEHZ multiply too")
    a = ap.parse_args()
    for scheme in ("bfv", "bgv"):
        print(json.dumps(measure(scheme, a.log_n, a.runs, a.behz)), flush=True)


if __name__ == "__main__":
    main()
