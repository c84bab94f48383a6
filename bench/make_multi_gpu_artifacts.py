"""Compile issue 18's programs for bench/gpu_multi.py, here where the
compiler is: each program for one GPU (OUT/<name>-d1) and spread over two
(OUT/<name>-d2, ``devices=2``), target="cuda", plus OUT/inputs.npz. The
GPU host (no MLIR) loads them with ``ember.load`` and runs both on the same
ciphertexts and keys.

Programs: the CKKS examples of examples/ (mlp, whose constants alone would
take the carried folder past the device tool's 64 MiB, with --with-mlp),
the 1024 x 1024 dense layer at set B (bench/programs/set_b.py, 32 x 32
baby-step giant-step), one hmul+relin and one rotation at set B
(mul_relin_B, rotate_B) and bootstrap16 (one full-slot bootstrap at N = 2^16,
128-bit, nine levels left). Prints each partition's prediction (the
manifest's ``devices`` section).

    .venv/bin/python bench/make_multi_gpu_artifacts.py [--out out/multi]
        [--only dense1024_B] [--devices 2] [--variant before]

(--only rebuilds those programs and keeps the others.)
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "frontend"))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "bench" / "programs"))

import ember  # noqa: E402
import make_python_gpu_artifacts as py_gpu  # noqa: E402
import set_b  # noqa: E402
from ember import cli  # noqa: E402

# The CKKS examples of make_python_gpu_artifacts.py, mlp optional.
EXAMPLES = [e for e in py_gpu.EXAMPLES if e != "mlp"]


def programs(rng: np.random.Generator, with_mlp: bool):
    for example in EXAMPLES + (["mlp"] if with_mlp else []):
        path = ROOT / "examples" / f"{example}.py"
        module = cli._load_module(path)
        prog = cli._find_program(module, path, None)
        yield example, prog, {}, cli._inputs(module, prog, None, rng)
    prog = set_b.dense1024_b
    yield "dense1024_B", prog, {"params": "B"}, set_b.inputs(prog, rng)
    # One key switch at set B: what a limb split over GPUs shortens
    # (partition="limbs"); whole operations cannot spread them.
    for name in ("mul_relin_B", "rotate_B"):
        prog = set_b.PROGRAMS[name]
        yield name, prog, {"params": "B"}, set_b.inputs(prog, rng)
    yield (
        "bootstrap16",
        py_gpu.bootstrap16,
        {"log_n": 16, "extra_levels": 9},
        {"x": rng.uniform(-1, 1, 1 << 15)},
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=ROOT / "out" / "multi")
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--only", help="comma-separated program names")
    ap.add_argument("--devices", type=int, default=2)
    ap.add_argument("--with-mlp", action="store_true")
    # Variants of the partition, e.g. '{"recompute": false}' or
    # '{"link_gbps": 120}': options of the -d<devices> compile only;
    # --no-d1 leaves the one-GPU artifacts out (copied from another folder).
    ap.add_argument("--d2-options", type=json.loads, default={})
    ap.add_argument("--no-d1", action="store_true")
    # Another partition beside the kept one: only <name>-d<devices>.<variant>
    # is written (the folder's others stay; gpu_multi.py times it on the
    # same ciphertexts): e.g. a build before a change of the pass.
    ap.add_argument("--variant", help="write <name>-d<devices>.<variant> only")
    # A variant compiled for another device count (e.g. 1 with
    # '{"expand_modswitch": true}': one GPU with the modulus switches a
    # limb split expands), still written as <name>-d<devices>.<variant>.
    ap.add_argument("--variant-devices", type=int)
    args = ap.parse_args()
    only = set(args.only.split(",")) if args.only else None
    if not only and not args.variant:
        shutil.rmtree(args.out, ignore_errors=True)
    args.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    arrays = {}
    if (only or args.variant) and (
        args.out / "inputs.npz"
    ).exists():  # the others' inputs stay
        with np.load(args.out / "inputs.npz") as kept:
            arrays = {k: kept[k] for k in kept.files}
    for name, prog, options, inputs in programs(rng, args.with_mlp):
        if only and name not in only:
            continue
        one_too = not (args.no_d1 or args.variant)
        for k in (1, args.devices) if one_too else (args.devices,):
            folder = args.out / f"{name}-d{k}"
            if k > 1 and args.variant:
                folder = folder.with_name(f"{folder.name}.{args.variant}")
            shutil.rmtree(folder, ignore_errors=True)
            extra = args.d2_options if k > 1 else {}
            on = args.variant_devices if args.variant and args.variant_devices else k
            c = ember.compile(prog, target="cuda", devices=on, **options, **extra)
            c.save(folder)
        dev = c.manifest.get("devices", {})
        predicted = max(dev.get("predicted_us", [0.0]))
        one = dev.get("one_device_predicted_us", 0.0)
        print(
            f"{name}: {c!r}; predicted {predicted / 1e3:.2f} ms on {k} GPUs, "
            f"{one / 1e3:.2f} ms on one, transfers "
            f"{dev.get('transfer_bytes', 0) / 1e6:.0f} MB, arenas "
            f"{dev.get('arena_bytes')}",
            flush=True,
        )
        if not args.variant:  # a variant runs on the kept inputs
            for key, value in inputs.items():
                arrays[f"{name}/{key}"] = value
    np.savez(args.out / "inputs.npz", **arrays)
    for folder in sorted(args.out.iterdir()):
        if folder.is_dir() and (not only or folder.name.rsplit("-", 1)[0] in only):
            py_gpu.pack(folder)


if __name__ == "__main__":
    main()
