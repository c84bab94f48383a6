"""Compile programs for bench/gpu_python.py (issue 13), here where the
compiler is: each program twice, target="cpu" and target="cuda", saved with
``Compiled.save`` as OUT/<name>-cpu and OUT/<name>-cuda, plus OUT/inputs.npz
(the inputs of every program, drawn here so both hosts use the same ones).
The GPU host (no MLIR) loads them with ``ember.load`` and runs them from
Python.

Programs: the examples of examples/ and, at parameter set B (N = 2^16,
24 Q primes), a sum of 8 rotations, a 256 x 256 dense layer (diagonal
method, baby-step giant-step) and the degree-15 polynomial.

    .venv/bin/python bench/make_python_gpu_artifacts.py [--out out/py_gpu]
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "frontend"))
sys.path.insert(0, str(ROOT / "bench" / "programs"))

import ember  # noqa: E402
import set_b  # noqa: E402
from ember import cli  # noqa: E402

EXAMPLES = ["logistic_regression", "dense_layer", "variance", "polynomial", "mlp"]


def programs(rng: np.random.Generator):
    """(name, program, options, inputs) of every program."""
    for example in EXAMPLES:
        path = ROOT / "examples" / f"{example}.py"
        module = cli._load_module(path)
        prog = cli._find_program(module, path, None)
        yield example, prog, {}, cli._inputs(module, prog, None, rng)
    for name, prog in set_b.PROGRAMS.items():
        yield name, prog, {"params": "B"}, set_b.inputs(prog, rng)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=ROOT / "out" / "py_gpu")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--only", help="comma-separated program names")
    args = ap.parse_args()
    only = set(args.only.split(",")) if args.only else None
    shutil.rmtree(args.out, ignore_errors=True)
    args.out.mkdir(parents=True)
    rng = np.random.default_rng(args.seed)
    arrays = {}
    for name, prog, options, inputs in programs(rng):
        if only and name not in only:
            continue
        for target in ("cpu", "cuda"):
            c = ember.compile(prog, target=target, **options)
            c.save(args.out / f"{name}-{target}")
        for key, value in inputs.items():
            arrays[f"{name}/{key}"] = value
        memory = c.meta["memory"]
        print(f"{name}: {c!r}, planned arena {memory}", flush=True)
    np.savez(args.out / "inputs.npz", **arrays)


if __name__ == "__main__":
    main()
