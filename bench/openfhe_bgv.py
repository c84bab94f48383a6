"""OpenFHE's BFV and BGV multiply+relinearize (EvalMult of two fresh
ciphertexts, which relinearizes), for issue 17's CPU comparison: t = 65537,
multiplicative depth 10, 128-bit security (HEStd_128_classic), OpenFHE's
defaults otherwise (BFV: HPSPOVERQLEVELED; BGV: FLEXIBLEAUTOEXT), on this
machine's cores. Prints one JSON object per scheme: N, log2 Q, the
decryption check and the median EvalMult time. Runs under Python 3.10 with
the openfhe wheel from PyPI (1.6.x), not inside Ember's environment:

    python3.10 -m venv /tmp/ofenv && /tmp/ofenv/bin/pip install openfhe
    /tmp/ofenv/bin/python bench/openfhe_bgv.py [--runs 9] [--depth 10] [--log-n 15]

bench/cpu_bgv_mul.py times Ember's at the same N and Q sizes.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time

import openfhe as of


def measure(scheme: str, depth: int, t: int, runs: int, log_n: int) -> dict:
    params = of.CCParamsBFVRNS() if scheme == "bfv" else of.CCParamsBGVRNS()
    if log_n:
        params.SetRingDim(1 << log_n)
    params.SetPlaintextModulus(t)
    params.SetMultiplicativeDepth(depth)
    params.SetSecurityLevel(of.SecurityLevel.HEStd_128_classic)
    cc = of.GenCryptoContext(params)
    for feature in (
        of.PKESchemeFeature.PKE,
        of.PKESchemeFeature.KEYSWITCH,
        of.PKESchemeFeature.LEVELEDSHE,
    ):
        cc.Enable(feature)
    keys = cc.KeyGen()
    cc.EvalMultKeyGen(keys.secretKey)
    n = cc.GetRingDimension()
    values = [(7 * i + 3) % t for i in range(n)]
    ct = cc.Encrypt(keys.publicKey, cc.MakePackedPlaintext(values))
    out = cc.EvalMult(ct, ct)  # warm-up
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        out = cc.EvalMult(ct, ct)
        times.append((time.perf_counter() - t0) * 1e3)
    pt = cc.Decrypt(keys.secretKey, out)
    pt.SetLength(n)
    got = pt.GetPackedValue()
    want = [(v * v) % t for v in values]
    exact = all(g % t == w for g, w in zip(got, want, strict=True))
    log_q = math.log2(float(cc.GetModulus()))
    return {
        "scheme": scheme,
        "log_n": int(math.log2(n)),
        "log_q": log_q,
        "exact": exact,
        "runs": runs,
        "eval_mult_ms": statistics.median(times),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--t", type=int, default=65537)
    ap.add_argument("--log-n", type=int, default=0, help="ring degree (0: OpenFHE's)")
    a = ap.parse_args()
    for scheme in ("bfv", "bgv"):
        row = measure(scheme, a.depth, a.t, a.runs, a.log_n)
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
