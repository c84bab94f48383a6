"""OpenFHE's CKKS EvalBootstrap, for the comparison that issue 14 asks for:
full-slot bootstrapping at N = 2^16 (32768 slots; --log-slots k: sparse
packing of 2^k slots), 128-bit security, on uniform inputs in [-1, 1]
(seeded), precision as OpenFHE and Lattigo report it (mean and minimum bits
over the slots, -log2 |decrypted - input|) and the time of EvalBootstrap
on this machine's cores. OpenFHE's own defaults for the example of its
documentation (simple-ckks-bootstrapping): FLEXIBLEAUTO, 59-bit scale
primes and a 60-bit q_0, level budget {4, 4}, uniform ternary secret, 10
levels left after bootstrapping. Runs under Python 3.10 with the
openfhe wheel from PyPI (1.6.x), not inside Ember's environment:

    python3.10 -m venv /tmp/ofenv && /tmp/ofenv/bin/pip install openfhe numpy
    /tmp/ofenv/bin/python bench/openfhe_bootstrap.py [--log-n 16] [--runs 3]

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import openfhe as of


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--log-n", type=int, default=16)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--log-slots", type=int, default=0, help="sparse packing: 2^k < N/2 slots"
    )
    ap.add_argument("--sparse", action="store_true", help="SPARSE_TERNARY secret")
    ap.add_argument("--levels-after", type=int, default=10)
    ap.add_argument("--scale-bits", type=int, default=59)
    ap.add_argument("--insecure", action="store_true", help="HEStd_NotSet")
    args = ap.parse_args()
    n = 1 << args.log_n
    slots = 1 << args.log_slots if args.log_slots else n // 2
    levels_after, budget = args.levels_after, [4, 4]
    secret = of.SPARSE_TERNARY if args.sparse else of.UNIFORM_TERNARY
    p = of.CCParamsCKKSRNS()
    p.SetSecretKeyDist(secret)
    p.SetSecurityLevel(of.HEStd_NotSet if args.insecure else of.HEStd_128_classic)
    p.SetRingDim(n)
    p.SetScalingModSize(args.scale_bits)
    p.SetFirstModSize(60)
    p.SetScalingTechnique(of.FLEXIBLEAUTO)
    # FHECKKSRNS::GetBootstrapDepth (not in the Python API): the level
    # budgets plus GetModDepthInternal, 14 for a uniform ternary secret
    # (Chebyshev series and 6 double angles) and 10 for a sparse one.
    depth = levels_after + sum(budget) + (10 if args.sparse else 14)
    p.SetMultiplicativeDepth(depth)
    p.SetBatchSize(slots)
    t = time.perf_counter()
    cc = of.GenCryptoContext(p)
    for feature in (of.PKE, of.KEYSWITCH, of.LEVELEDSHE, of.ADVANCEDSHE, of.FHE):
        cc.Enable(feature)
    cc.EvalBootstrapSetup(budget, [0, 0], slots)
    keys = cc.KeyGen()
    cc.EvalMultKeyGen(keys.secretKey)
    cc.EvalBootstrapKeyGen(keys.secretKey, slots)
    setup_s = time.perf_counter() - t
    x = np.random.default_rng(args.seed).uniform(-1, 1, slots)
    # The input at the last level, as OpenFHE's example does.
    pt = cc.MakeCKKSPackedPlaintext(x.tolist(), 1, depth - 1, None, slots)
    pt.SetLength(slots)
    ct = cc.Encrypt(keys.publicKey, pt)
    times, out = [], None
    for _ in range(args.runs):
        t = time.perf_counter()
        out = cc.EvalBootstrap(ct)
        times.append(time.perf_counter() - t)
    dec = cc.Decrypt(keys.secretKey, out)
    dec.SetLength(slots)
    y = np.array(dec.GetRealPackedValue())
    err = np.abs(y - x)
    print(
        json.dumps(
            {
                "library": f"openfhe {of.__version__}"
                if hasattr(of, "__version__")
                else "openfhe",
                "log_n": args.log_n,
                "slots": slots,
                "secret": "sparse" if args.sparse else "uniform ternary",
                "ring_dim": cc.GetRingDimension(),
                "depth": depth,
                "levels_left": depth - out.GetLevel(),
                "log_q": float(np.log2(cc.GetModulus())),
                "mean_bits": float(-np.mean(np.log2(err))),
                "min_bits": float(-np.log2(err.max())),
                "setup_s": setup_s,
                "bootstrap_s_median": float(np.median(times)),
                "bootstrap_s": times,
            }
        )
    )


if __name__ == "__main__":
    main()
