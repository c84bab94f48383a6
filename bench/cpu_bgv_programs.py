"""Compiled BGV and BFV programs on the CPU (issue 17), side by side:
bench/programs/bgv_chain.py's chain(1..10) in both schemes, compiled for
target="cpu": the parameters each scheme's compiler picks, the noise
budget it estimates beside the one measured on the decryption, and the
run time (median of RUNS runs of Compiled.run on fresh encryptions, host
wall time, after one warm-up run). Every output is checked against
numpy's arithmetic mod t (exactly).

    python bench/cpu_bgv_programs.py [RUNS]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "frontend"))
sys.path.insert(0, str(ROOT / "bench" / "programs"))

import ember  # noqa: E402
from bgv_chain import T, chain  # noqa: E402


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    rng = np.random.default_rng()
    print(
        "| depth | scheme | N | Q + P primes | log QP | budget est. / measured "
        "| run ms |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    ok = True
    for depth in range(1, 11):
        for scheme in ("bgv", "bfv"):
            prog = chain(depth, scheme=scheme)
            c = ember.compile(prog)
            x, y = rng.integers(0, T, 16), rng.integers(0, T, 16)
            keys = c.keygen()
            cts = c.encrypt(keys, x, y)
            outs = c.run(keys.evaluation, cts)  # warm-up (builds, encodes)
            times = []
            for _ in range(runs):
                t0 = time.perf_counter()
                outs = c.run(keys.evaluation, cts)
                times.append((time.perf_counter() - t0) * 1e3)
            got = c.decrypt(keys, outs)
            want = prog(x, y)
            ok &= all(np.array_equal(g, w) for g, w in zip(got, want, strict=True))
            p = c.manifest["params"]
            log_qp = sum(q.bit_length() for q in p["q"] + p["p"])
            print(
                f"| {depth} | {scheme} | 2^{p['log_n']} | {len(p['q'])} + "
                f"{len(p['p'])} | {log_qp} | {c.noise_budgets} / "
                f"{c.measure_noise_budgets(keys, outs)} | "
                f"{statistics.median(times):.1f} |",
                flush=True,
            )
    print("exact: all" if ok else "MISMATCH")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
