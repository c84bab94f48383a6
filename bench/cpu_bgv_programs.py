"""Compiled BGV and BFV programs on the CPU (issue 17), side by side:
bench/programs/bgv_chain.py's chain(1..10) in both schemes, compiled for
target="cpu": the parameters each scheme's compiler picks, the noise
budget it estimates beside the one measured on the decryption, and the
run time (median of RUNS runs of Compiled.run on fresh encryptions, host
wall time, after one warm-up run). Every output is checked against
numpy's arithmetic mod t (exactly).

``--switches``: instead, the gain of two compile options, each program
compiled with everything on and with one switch off: ``rescale="eager"``
(BGV: a modulus switch right after every product instead of where it is
needed) and ``hoisting=False`` (a ModUp per rotation instead of one per
rotated value), on chain(5), chain(10), matvec() (256 x 256) and
affine().

    python bench/cpu_bgv_programs.py [RUNS] [--switches]
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
from bgv_chain import T, affine, chain, matvec  # noqa: E402


def timed(c, prog, rng, runs: int) -> tuple[float, bool, list[int]]:
    """Median run ms over fresh encryptions of random inputs (plaintext
    inputs too), whether every output equals numpy's, and the noise budgets
    measured on the decryption."""
    values = {n: rng.integers(0, T, prog.slots) for n in prog.inputs}
    plain = {n: v for n, v in values.items() if n in c.plain_inputs}
    keys = c.keygen()
    cts = c.encrypt(keys, **{n: v for n, v in values.items() if n not in plain})
    outs = c.run(keys.evaluation, cts, **plain)  # warm-up (builds, encodes)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        outs = c.run(keys.evaluation, cts, **plain)
        times.append((time.perf_counter() - t0) * 1e3)
    got = c.decrypt(keys, outs)
    want = prog(**values)
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    ok = all(np.array_equal(g, w) for g, w in zip(got, want, strict=True))
    return statistics.median(times), ok, c.measure_noise_budgets(keys, outs)


def switches(runs: int) -> None:
    rng = np.random.default_rng()
    print("| program | scheme | all on ms | rescale=eager ms | hoisting off ms |")
    print("| --- | --- | --- | --- | --- |")
    ok = True
    for make in (
        lambda s: chain(5, scheme=s),
        lambda s: chain(10, scheme=s),
        lambda s: matvec(scheme=s),
        lambda s: affine(scheme=s),
    ):
        for scheme in ("bgv", "bfv"):
            prog = make(scheme)
            cells = []
            for opts in ({}, {"rescale": "eager"}, {"hoisting": False}):
                if scheme == "bfv" and "rescale" in opts:
                    cells.append("- (no switching)")
                    continue
                ms, good, _ = timed(ember.compile(prog, **opts), prog, rng, runs)
                ok &= good
                cells.append(f"{ms:.1f}")
            print(f"| {prog.name} | {scheme} | {' | '.join(cells)} |", flush=True)
    print("exact: all" if ok else "MISMATCH")
    sys.exit(0 if ok else 1)


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    runs = int(args[0]) if args else 5
    if "--switches" in sys.argv:
        switches(runs)
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
            ms, good, measured = timed(c, prog, rng, runs)
            ok &= good
            p = c.manifest["params"]
            log_qp = sum(q.bit_length() for q in p["q"] + p["p"])
            print(
                f"| {depth} | {scheme} | 2^{p['log_n']} | {len(p['q'])} + "
                f"{len(p['p'])} | {log_qp} | {c.noise_budgets} / "
                f"{measured} | {ms:.1f} |",
                flush=True,
            )
    print("exact: all" if ok else "MISMATCH")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
