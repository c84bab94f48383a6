"""Ember's bootstrapping on the CPU runtime, the counterpart of
bench/openfhe_bootstrap.py for issue 14's CPU comparison: N = 2^16 (32768
slots, or 2^k with --log-slots k: sparse packing), 128-bit parameters,
uniform inputs in [-1, 1] (seeded), precision as OpenFHE and Lattigo report
it (mean and minimum bits over the slots, -log2 |decrypted - input|) and
the time of each run of the compiled bootstrap on this machine's cores.
Before the runs, ``Compiled.prepare()`` loads the program and encodes its
constants (timed apart as ``prepare_s``), as OpenFHE's EvalBootstrapSetup
precomputes its transforms before EvalBootstrap; ``--no-prepare`` leaves
that to the first run, whose time then includes it (the median is then over
the later runs).

    .venv/bin/python bench/cpu_bootstrap.py [--extra-levels 3] [--runs 4]
        [--no-double-hoisting]

``--extra-levels`` is the levels left for the program after bootstrapping
(OpenFHE's ``--levels-after 2`` leaves 3 by its count). Environment
variables reach the run unchanged (GLIBC_TUNABLES, OMP_NUM_THREADS).
Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "frontend"))

import ember  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--log-n", type=int, default=16)
    ap.add_argument("--extra-levels", type=int, default=3)
    ap.add_argument("--runs", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--no-prepare",
        action="store_true",
        help="encode the constants in the first run (as before prepare())",
    )
    ap.add_argument(
        "--log-slots", type=int, default=0, help="sparse packing: 2^k < N/2 slots"
    )
    ap.add_argument(
        "--cosine-bits",
        type=int,
        default=None,
        help="bootstrap_cosine_bits (34: the earlier degree-48 cosine)",
    )
    ap.add_argument(
        "--no-double-hoisting",
        action="store_true",
        help="double_hoisting=False (the DFTs' splits and sums of before)",
    )
    args = ap.parse_args()
    slots = 1 << args.log_slots if args.log_slots else 1 << (args.log_n - 1)

    @ember.program(slots=slots)
    def refresh(x):
        return x.bootstrap()

    t = time.perf_counter()
    cosine = (
        {} if args.cosine_bits is None else {"bootstrap_cosine_bits": args.cosine_bits}
    )
    compiled = ember.compile(
        refresh,
        log_n=args.log_n,
        extra_levels=args.extra_levels,
        target="cpu",
        double_hoisting=not args.no_double_hoisting,
        **cosine,
    )
    compile_s = time.perf_counter() - t
    t = time.perf_counter()
    keys = compiled.keygen()
    x = np.random.default_rng(args.seed).uniform(-1, 1, slots)
    cts = compiled.encrypt(keys, x=x)
    keygen_s = time.perf_counter() - t
    prepare_s = None
    if not args.no_prepare:
        t = time.perf_counter()
        compiled.prepare()
        prepare_s = time.perf_counter() - t
    times, out = [], None
    for _ in range(args.runs):
        t = time.perf_counter()
        out = compiled.run(keys.evaluation, cts)
        times.append(time.perf_counter() - t)
    y = np.asarray(compiled.decrypt(keys, out))
    err = np.abs(y - x)
    params = compiled.manifest["params"]
    print(
        json.dumps(
            {
                "library": "ember",
                "log_n": args.log_n,
                "slots": slots,
                "levels_left": compiled.manifest["outputs"][0]["level"],
                "q_limbs": len(params["q"]),
                "p_limbs": len(params["p"]),
                "dnum": params["dnum"],
                "double_hoisting": not args.no_double_hoisting,
                "mean_bits": float(-np.mean(np.log2(err))),
                "min_bits": float(-np.log2(err.max())),
                "compile_s": compile_s,
                "keygen_encrypt_s": keygen_s,
                "prepare_s": prepare_s,
                "bootstrap_s_median": float(
                    np.median(times if prepare_s is not None else times[1:] or times)
                ),
                "bootstrap_s": times,
            }
        )
    )


if __name__ == "__main__":
    main()
