"""An 8-bit adder and an 8-bit comparison compiled with
@ember.program(scheme="tfhe") (issue 16), timed on the CPU and, with
--gpu, on the GPU; every result checked against Python's integers. Each
twice: as gate circuits over bits at STD128 (add8, lt8) and as radix blocks
at STD128_4BIT_MR (add8_radix, lt8_radix; and an 8-bit product,
mul8_radix).

Two steps, so that the GPU host (no compiler) runs what was compiled here:

    python bench/tfhe_programs.py save out/tfhe_programs   # compile, save
    python bench/tfhe_programs.py run out/tfhe_programs [--gpu] [--runs 7]

Prints one JSON object (compile seconds, gates, blind rotations, depth,
keygen seconds, median run seconds per target). concrete-python's times
for the same two programs come from bench/concrete_programs.py.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "frontend"))

import ember  # noqa: E402
import numpy as np  # noqa: E402


@ember.program(scheme="tfhe")
def add8(x: ember.UInt(8), y: ember.UInt(8)):
    return x + y


@ember.program(scheme="tfhe")
def lt8(x: ember.UInt(8), y: ember.UInt(8)):
    return x < y


@ember.program(scheme="tfhe")
def mul8(x: ember.UInt(8), y: ember.UInt(8)):
    return x * y


RADIX = {"params": "STD128_4BIT_MR"}
PROGRAMS = {
    "add8": (add8, lambda x, y: (x + y) % 256, {}),
    "lt8": (lt8, lambda x, y: int(x < y), {}),
    "add8_radix": (add8, lambda x, y: (x + y) % 256, RADIX),
    "lt8_radix": (lt8, lambda x, y: int(x < y), RADIX),
    "mul8_radix": (mul8, lambda x, y: (x * y) % 256, RADIX),
}


def save(folder: Path) -> None:
    out = {}
    for name, (prog, _, options) in PROGRAMS.items():
        t0 = time.perf_counter()
        c = ember.compile(prog, **options)
        out[name] = {"compile_s": time.perf_counter() - t0, **c.stats}
        c.save(folder / name)
    print(json.dumps(out, indent=1))


def run(folder: Path, gpu: bool, runs: int, many: int) -> None:
    rng = np.random.default_rng()
    result = {}
    for name, (_, fn, _) in PROGRAMS.items():
        targets = ["cpu", "cuda"] if gpu else ["cpu"]
        row: dict = {}
        keys = None
        for target in targets:
            c = ember.load(folder / name, target=target)
            if keys is None:
                t0 = time.perf_counter()
                keys = c.keygen()
                row["keygen_s"] = time.perf_counter() - t0
                row.update(c.stats)
            times, wrong = [], 0
            for _ in range(runs):
                x, y = (int(v) for v in rng.integers(0, 256, 2))
                cts = c.encrypt(keys, x=x, y=y)
                t0 = time.perf_counter()
                out = c.run(keys.evaluation, cts)
                times.append(time.perf_counter() - t0)
                wrong += int(c.decrypt(keys, out) != fn(x, y))
            row[f"{target}_run_s"] = statistics.median(times)
            row[f"{target}_wrong"] = wrong
            if target == "cuda":
                # Many runs at once: each level of every run in one batch.
                pairs = [
                    tuple(int(v) for v in rng.integers(0, 256, 2)) for _ in range(many)
                ]
                cts = [c.encrypt(keys, x=x, y=y) for x, y in pairs]
                t0 = time.perf_counter()
                outs = c.run_many(keys.evaluation, cts)
                seconds = time.perf_counter() - t0
                row["cuda_many"] = many
                row["cuda_many_per_s"] = many / seconds
                row["cuda_many_wrong"] = sum(
                    int(c.decrypt(keys, o) != fn(x, y))
                    for o, (x, y) in zip(outs, pairs, strict=True)
                )
        result[name] = row
        print(name, row, flush=True)
    print(json.dumps(result, indent=1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("mode", choices=["save", "run"])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--gpu", action="store_true")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument(
        "--many", type=int, default=512, help="runs at once on the GPU (run_many)"
    )
    args = ap.parse_args()
    if args.mode == "save":
        save(args.folder)
    else:
        run(args.folder, args.gpu, args.runs, args.many)


if __name__ == "__main__":
    main()
