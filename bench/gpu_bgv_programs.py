"""Compiled BGV and BFV programs on the GPU (issue 17): identical residues
with the CPU and exact results, from Python as a user runs them.

``make OUT [--only PREFIX,...]`` (here, where the compiler is):
bench/programs/bgv_chain.py's chain(1..10), chain(5) with KLSS key
switching (bgv_chain5_klss), mul_relin(2^14), affine() (plaintext
inputs), rotate() (one rotation), its CKKS twin ckks_affine() and
matvec() (a 256 x 256 integer
matrix), and the same programs with scheme="bfv" (bfv_*), compiled for
target="cpu" and "cuda",
saved as OUT/<name>-cpu and OUT/<name>-cuda, with OUT/inputs.npz (inputs
and numpy's results, drawn here).

``run OUT [RUNS]`` (on the GPU host, bench/gpu_run.sh BGV_PROGRAMS=OUT):
per program, keys and encryptions from the CUDA artifact, the CPU
artifact's run on the same ciphertexts as the reference, the GPU run
step by step and as a CUDA Graph (first run and replay): every residue
compared with the CPU's, the decryptions with numpy's (exactly; CKKS
within 2^-20). Timed: the median
of RUNS graph replays on device-resident inputs (``Compiled.last_run``, as
bench/gpu_python.py reads it). For bgv_mul16384 also the runtime's hand-written
CudaBgvEvaluator.multiply_relin (tensor, relinearization and modulus
switch, one merged ModDown) at the same parameters and keys, and for
bfv_mul16384 CudaBfvEvaluator.multiply_relin_behz (BEHZ, as the compiled
program multiplies; host wall
time around the call and a device synchronize). One JSON row
per program on stdout, a table at the end.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "frontend"))
sys.path.insert(0, str(ROOT / "bench" / "programs"))

import ember  # noqa: E402
from bgv_chain import (  # noqa: E402
    T,
    affine,
    chain,
    ckks_affine,
    matvec,
    mul_relin,
    rotate,
)

DEPTHS = range(1, 11)
MUL_SLOTS = 1 << 14


def programs(only: str = ""):
    """(program, compile options) pairs; names are unique. ``only``: comma-
    separated name prefixes to keep (all when empty)."""

    def every():
        for scheme in ("bgv", "bfv"):
            for d in DEPTHS:
                yield chain(d, scheme=scheme), {}
            klss = chain(5, scheme=scheme)
            klss.name = f"{scheme}_chain5_klss"
            yield klss, {"keyswitch": "klss"}
            yield mul_relin(MUL_SLOTS, scheme=scheme), {}
            yield rotate(scheme=scheme), {}
            yield affine(scheme=scheme), {}
            yield matvec(scheme=scheme), {}
        yield ckks_affine(), {}

    keep = [p for p in only.split(",") if p]
    for prog, options in every():
        if not keep or any(prog.name.startswith(p) for p in keep):
            yield prog, options


def make(out: Path, only: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng()
    arrays = {}
    (out / "programs.txt").write_text(only)
    for prog, options in programs(only):
        for target in ("cpu", "cuda"):
            c = ember.compile(prog, target=target, **options)
            c.save(out / f"{prog.name}-{target}")
        if prog.plaintext_modulus:
            values = {name: rng.integers(0, T, prog.slots) for name in prog.inputs}
        else:  # CKKS: reals in the default range [-1, 1]
            values = {name: rng.uniform(-1, 1, prog.slots) for name in prog.inputs}
        want = prog(**values)
        want = want if isinstance(want, tuple) else (want,)
        for name, v in values.items():
            arrays[f"{prog.name}/in/{name}"] = v
        for i, w in enumerate(want):
            arrays[f"{prog.name}/want{i}"] = w
        p = c.manifest["params"]
        print(f"{prog.name}: N = 2^{p['log_n']}, {len(p['q'])} + {len(p['p'])} primes")
    np.savez(out / "inputs.npz", **arrays)


def same(a, b) -> bool:
    return len(a) == len(b) and all(
        np.array_equal(np.asarray(x.residues()), np.asarray(y.residues()))
        for x, y in zip(a, b, strict=True)
    )


def median_ms(fn, runs: int) -> float:
    """Host wall time of fn (which synchronizes), median after 2 warm-ups."""
    times = []
    for _ in range(runs + 2):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times[2:])


def program_ms(c, keys, on_gpu, runs: int, plain: dict) -> float:
    """Median of the Compiled run's own timing (``last_run["run"]``, as
    bench/gpu_python.py reads it), graphs on, inputs on the device."""
    c.graphs = True
    c.run(keys.evaluation, on_gpu, **plain)
    times = []
    for _ in range(runs):
        c.run(keys.evaluation, on_gpu, **plain)
        times.append(c.last_run["run"])
    return statistics.median(times)


def run_one(folder: Path, name: str, runs: int) -> dict:
    import ember_runtime as er

    arrays = np.load(folder / "inputs.npz")
    prefix = f"{name}/in/"
    inputs = {k[len(prefix) :]: arrays[k] for k in arrays.files if k.startswith(prefix)}
    want = [arrays[k] for k in sorted(arrays.files) if k.startswith(f"{name}/want")]
    cuda = ember.load(folder / f"{name}-cuda")
    cpu = ember.load(folder / f"{name}-cpu")
    keys = cuda.keygen()
    plain = {k: v for k, v in inputs.items() if k in cuda.plain_inputs}
    cts = cuda.encrypt(keys, **{k: v for k, v in inputs.items() if k not in plain})
    values = [np.asarray(plain[k], dtype=np.complex128) for k in cuda.plain_inputs]
    ref = cpu._program().run(cuda._context(), keys.evaluation.keys, list(cts), values)
    on_gpu = cuda.to_device(cts)
    cuda.graphs = False
    eager = cuda.from_device(cuda.run(keys.evaluation, on_gpu, **plain))
    cuda.graphs = True
    first = cuda.from_device(cuda.run(keys.evaluation, on_gpu, **plain))
    replay = cuda.run(keys.evaluation, on_gpu, **plain)
    identical = (
        same(ref, eager) and same(ref, first) and same(ref, cuda.from_device(replay))
    )
    got = cuda.decrypt(keys, cuda.from_device(replay))
    got = got if isinstance(got, tuple) else (got,)
    bgv = cuda.plain_modulus is not None  # BGV or BFV
    # BGV and BFV: exact; CKKS: within 2^-20 of numpy (its error at these
    # scales).
    exact = all(
        np.array_equal(g, w) if bgv else np.max(np.abs(g - w)) < 2**-20
        for g, w in zip(got, want, strict=True)
    )
    ms = program_ms(cuda, keys, on_gpu, runs, plain)
    p = cuda.manifest["params"]
    row = {
        "program": name,
        "log_n": p["log_n"],
        "q": len(p["q"]),
        "p": len(p["p"]),
        "dnum": p["dnum"],
        "identical": identical,
        "exact": exact,
        "estimated_budget": cuda.noise_budgets if bgv else [],
        "measured_budget": (
            cuda.measure_noise_budgets(keys, cuda.from_device(replay)) if bgv else []
        ),
        "graph_ms": ms,
    }
    if name.startswith(("bgv_mul", "bfv_mul")):
        # The runtime's hand-written evaluator at the same parameters.
        dev = er.CudaDevice(cuda._context())
        dkeys = er.CudaEvaluationKeys(dev, keys.evaluation.keys)
        evaluator = (
            er.CudaBgvEvaluator if name.startswith("bgv") else er.CudaBfvEvaluator
        )
        ev = evaluator(dev, dkeys, T)
        a, b = dev.upload(cts[0]), dev.upload(cts[1])
        # A compiled BFV program multiplies by BEHZ (its default bfv_mult).
        mul = ev.multiply_relin_behz if name.startswith("bfv") else ev.multiply_relin
        hand = dev.download(mul(a, b))
        row["hand_identical"] = same(ref, [hand])
        row["hand_ms"] = median_ms(lambda: (mul(a, b), dev.synchronize()), runs)
    return row


def run(folder: Path, runs: int) -> None:
    rows = []
    only = (folder / "programs.txt").read_text()
    for prog, _ in programs(only):
        row = run_one(folder, prog.name, runs)
        print(json.dumps(row), flush=True)
        rows.append(row)
    print(
        "\n| program | N | Q + P | residues = CPU | exact "
        "| budget est. / measured | graph run ms |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        print(
            f"| {r['program']} | 2^{r['log_n']} | {r['q']} + {r['p']} | "
            f"{'yes' if r['identical'] else 'NO'} | {'yes' if r['exact'] else 'NO'} | "
            f"{r['estimated_budget']} / {r['measured_budget']} | {r['graph_ms']:.3f} |"
        )
        if "hand_ms" in r:
            print(
                f"| (hand-written multiply_relin) | | | "
                f"{'yes' if r['hand_identical'] else 'NO'} | | | {r['hand_ms']:.3f} |"
            )
    if not all(r["identical"] and r["exact"] for r in rows):
        sys.exit(1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=("make", "run"))
    ap.add_argument("folder", type=Path)
    ap.add_argument("runs", type=int, nargs="?", default=30)
    ap.add_argument("--only", default="", help="comma-separated name prefixes")
    a = ap.parse_args()
    make(a.folder, a.only) if a.mode == "make" else run(a.folder, a.runs)


if __name__ == "__main__":
    main()
