"""Compile programs for bench/gpu_python.py (issue 13), here where the
compiler is: each program twice, target="cpu" and target="cuda", saved with
``Compiled.save`` as OUT/<name>-cpu and OUT/<name>-cuda, plus OUT/inputs.npz
(the inputs of every program, drawn here so both hosts use the same ones).
The GPU host (no MLIR) loads them with ``ember.load`` and runs them from
Python.

Programs: the examples of examples/ (four also at 32-bit words, and four
set-B programs at cheddar32's 32-bit shape: <name>_w32); at parameter set B (N = 2^16,
24 Q primes), a sum of 8 rotations, a 256 x 256 dense layer (diagonal
method, baby-step giant-step), the degree-15 polynomial, one hmul+relin
and one rotation; and bootstrap13, one full-slot x.bootstrap() at N = 2^13
in the named insecure test mode; the deep examples poly_net (20 layers)
and logistic_regression_training (10 iterations) with bootstrap="auto"
at N = 2^16, 128-bit; bootstrap16, the same at N = 2^16 with
128-bit parameters and nine levels left, bootstrap16_s14 and _s12 with
sparse packing (2^14 and 2^12 slots), bootstrap16_dh_off and its twins
(``double_hoisting=False``: the DFTs' splits and sums of before), and
bootstrap16's twins stopped after
CoeffToSlot and after EvalMod (``bootstrap_stop_after``: the phase times are
the differences), and bootstrap16_cos34 (and its twin stopped after
EvalMod) with the earlier degree-48 cosine (``bootstrap_cosine_bits=34``)
(its DFT constants make a 166 MB
data file and a 332 MB kernel IR per artifact: files above 1 MiB travel
xz-compressed, 2.7 and 4.5 MB; gpu_python.py unpacks them). Every
program but mlp and the bootstraps also as OUT/<name>-cuda-nofuse
(``fusion=False``), to measure fusion's gain.

    .venv/bin/python bench/make_python_gpu_artifacts.py [--out out/py_gpu]
        [--only bootstrap16] [--nohoist] [--nolift]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "frontend"))
sys.path.insert(0, str(ROOT / "bench" / "programs"))

import ember  # noqa: E402
import klss_form  # noqa: E402
import set_b  # noqa: E402
from ember import cli  # noqa: E402

# The deep examples (N = 2^16, 128-bit), with the bootstraps the compiler
# places (issue 14's bootstrap="auto").
DEEP_EXAMPLES = {
    "poly_net": {"bootstrap": "auto"},
    "logistic_regression_training": {"bootstrap": "auto"},
}
# No fusion-off twin: mlp's constants (21 MB per artifact) would take the
# carried folder past the device tool's 64 MiB.
NO_NOFUSE = {
    "mlp",
    "bootstrap13",
    "bootstrap16",
    "bootstrap16_coeff_to_slot",
    "bootstrap16_eval_mod",
    "bootstrap16_s14",
    "bootstrap16_s12",
    "bootstrap16_cos34",
    "bootstrap16_cos34_eval_mod",
    "bootstrap16_dh_off",
    "bootstrap16_dh_off_coeff_to_slot",
    "bootstrap16_dh_off_eval_mod",
    "klss_form",
    "klss_form_off",
    *DEEP_EXAMPLES,
}
# Files above this size travel xz-compressed (the DFT constants, in the
# data file and inline in the kernel IR, compress 60-70x).
PACK_ABOVE = 1 << 20
EXAMPLES = [
    "logistic_regression",
    "dense_layer",
    "variance",
    "polynomial",
    "mlp",
    "tanh_layer",
]
# 32-bit twins (issue 15, word=32): examples with automatic 32-bit
# parameters, and set-B programs at cheddar32's shape (N = 2^16, 47 Q
# limbs, pairs carrying 2^58), as <name>_w32.
W32_EXAMPLES = ["logistic_regression", "dense_layer", "variance", "polynomial"]
W32_SET_B = ["rot8_sum_B", "polynomial_B", "mul_relin_B", "rotate_B"]
# word=auto's 32-bit choices, measured: examples at a 2^46 scale at both
# words (<name>_s46 and <name>_s46_w32), where the cost model picks 32 bits
# (tanh_layer by 16%, polynomial by 0.4%).
W32_S46 = ["tanh_layer", "polynomial"]
NO_NOFUSE |= {f"{n}_w32" for n in W32_EXAMPLES + W32_SET_B}
NO_NOFUSE |= {f"{n}_s46{w}" for n in W32_S46 for w in ("", "_w32")}
# bootstrap16 at 32-bit words (word=32: 53 Q limbs of double-prime scaling)
# and its twins stopped after CoeffToSlot and after EvalMod.
W32_BOOTSTRAPS = [
    "bootstrap16_w32",
    "bootstrap16_w32_coeff_to_slot",
    "bootstrap16_w32_eval_mod",
    "bootstrap16_w32_dh_off",  # double_hoisting=False at 32 bits
]
NO_NOFUSE |= set(W32_BOOTSTRAPS)
# KLSS at 32-bit words: set-B programs at cheddar32k1 (Athena's small-K
# shape on cheddar32's chain: K = 1, dnum 47, gamma 3, r' 5), every key
# switch KLSS (<name>_k1_klss) and hybrid (<name>_k1_hybrid).
W32_KLSS = ["mul_relin_B", "rotate_B"]
NO_NOFUSE |= {f"{n}_k1_{m}" for n in W32_KLSS for m in ("klss", "hybrid")}
# tanh_layer at 32 bits: its automatic parameters (K = 1, dnum 17) get a
# KLSS form (klss_form, the default); "_off_w32" is the hybrid twin.
NO_NOFUSE |= {"tanh_layer_w32", "tanh_layer_off_w32"}
NO_NOFUSE |= {"mul_relin_B_norescale", "mul_relin_B_norescale_w32"}


# Examples whose matrix-vector products double hoisting changes, also as
# <name>_dh_off (double_hoisting=False: the splits and sums of before).
DH_OFF_EXAMPLES = ["mlp", "tanh_layer"]
NO_NOFUSE |= {f"{n}_dh_off" for n in DH_OFF_EXAMPLES}


# Programs with a ModDown addend that lift_addends adds in the ModDown's
# last NTT, also as <name>_lift_off (lift_addends=False), to measure it.
LIFT_OFF = ["mul_relin_B_norescale", "rot8_sum_B", "mlp", "bootstrap16"]
NO_NOFUSE |= {f"{n}_lift_off" for n in LIFT_OFF}


def programs(rng: np.random.Generator):
    """(name, program, options, inputs) of every program, and the
    lift_addends=False twins of LIFT_OFF."""
    for name, prog, options, inputs in _programs(rng):
        yield name, prog, options, inputs
        if name in LIFT_OFF:
            yield f"{name}_lift_off", prog, {**options, "lift_addends": False}, inputs


def _programs(rng: np.random.Generator):
    for example in [*EXAMPLES, *DEEP_EXAMPLES]:
        path = ROOT / "examples" / f"{example}.py"
        module = cli._load_module(path)
        prog = cli._find_program(module, path, None)
        options = DEEP_EXAMPLES.get(example, {})
        inputs = cli._inputs(module, prog, None, rng)
        yield example, prog, options, inputs
        if example in DH_OFF_EXAMPLES:
            yield f"{example}_dh_off", prog, {"double_hoisting": False}, inputs
    for name, prog in set_b.PROGRAMS.items():
        yield name, prog, {"params": "B"}, set_b.inputs(prog, rng)
    # One hmul + relin without its rescale (the output at scale ~2^80), the
    # operation BENCHMARKS.md's hmul figures time, at both words.
    prog = set_b.PROGRAMS["mul_relin_B"]
    for suffix, params in (("", "B"), ("_w32", "cheddar32")):
        options = {"params": params, "rescale_outputs": False}
        yield f"mul_relin_B_norescale{suffix}", prog, options, set_b.inputs(prog, rng)
    for example in W32_EXAMPLES:
        path = ROOT / "examples" / f"{example}.py"
        module = cli._load_module(path)
        prog = cli._find_program(module, path, None)
        inputs = cli._inputs(module, prog, None, rng)
        yield f"{example}_w32", prog, {"word": "32"}, inputs
    for name in W32_SET_B:
        prog = set_b.PROGRAMS[name]
        yield f"{name}_w32", prog, {"params": "cheddar32"}, set_b.inputs(prog, rng)
    path = ROOT / "examples" / "tanh_layer.py"
    module = cli._load_module(path)
    prog = cli._find_program(module, path, None)
    inputs = cli._inputs(module, prog, None, rng)
    yield "tanh_layer_w32", prog, {"word": "32"}, inputs
    yield "tanh_layer_off_w32", prog, {"word": "32", "klss_form": False}, inputs
    for name in W32_KLSS:
        prog = set_b.PROGRAMS[name]
        inputs = set_b.inputs(prog, rng)
        for method in ("klss", "hybrid"):
            options = {"params": "cheddar32k1", "keyswitch": method}
            yield f"{name}_k1_{method}", prog, options, inputs
    for example in W32_S46:
        path = ROOT / "examples" / f"{example}.py"
        module = cli._load_module(path)
        prog = cli._find_program(module, path, None)
        inputs = cli._inputs(module, prog, None, rng)
        for word in ("64", "32"):
            suffix = "_w32" if word == "32" else ""
            options = {"word": word, "scale_bits": 46}
            yield f"{example}_s46{suffix}", prog, options, inputs
    yield (
        "bootstrap13",
        bootstrap13,
        {"security": "none", "log_n": 13},
        {"x": rng.uniform(-1, 1, 4096)},
    )
    x16 = rng.uniform(-1, 1, 1 << 15)
    yield "bootstrap16", bootstrap16, {"log_n": 16, "extra_levels": 9}, {"x": x16}
    for log_slots, prog in ((14, bootstrap16_s14), (12, bootstrap16_s12)):
        yield (
            prog.name,
            prog,
            {"log_n": 16, "extra_levels": 9},
            {"x": rng.uniform(-1, 1, 1 << log_slots)},
        )
    # Automatic parameters with and without the KLSS form the compiler adds.
    xy = {"x": rng.uniform(-1, 1, 16), "y": rng.uniform(-1, 1, 16)}
    options = {"log_n": 16, "extra_levels": 20, "dnum": 23}
    yield "klss_form", klss_form.klss_form, {**options, "klss_form": True}, xy
    yield "klss_form_off", klss_form.klss_form, {**options, "klss_form": False}, xy
    # The same program stopped after CoeffToSlot and after EvalMod: the
    # phases' times are differences of the three (gpu_python.py PHASES).
    for phase in ("coeff_to_slot", "eval_mod"):
        yield (
            f"bootstrap16_{phase}",
            bootstrap16,
            {"log_n": 16, "extra_levels": 9, "bootstrap_stop_after": phase},
            {"x": x16},
        )
    # The same with the degree-48 cosine of before bootstrap_cosine_bits
    # (34 bits: two double angles), whole and stopped after EvalMod.
    cos34 = {"log_n": 16, "extra_levels": 9, "bootstrap_cosine_bits": 34}
    yield "bootstrap16_cos34", bootstrap16, cos34, {"x": x16}
    yield (
        "bootstrap16_cos34_eval_mod",
        bootstrap16,
        {**cos34, "bootstrap_stop_after": "eval_mod"},
        {"x": x16},
    )
    # The same without double hoisting's products over Q_l u P (its
    # baby-step giant-step splits too): the IR of before, to measure it.
    # The same at 32-bit words (w32). Each with its twins stopped after
    # CoeffToSlot and after EvalMod.
    dh_off = {"log_n": 16, "extra_levels": 9, "double_hoisting": False}
    w32 = {"log_n": 16, "extra_levels": 9, "word": "32"}
    for name, opts in (("bootstrap16_dh_off", dh_off), ("bootstrap16_w32", w32)):
        yield name, bootstrap16, opts, {"x": x16}
        for phase in ("coeff_to_slot", "eval_mod"):
            yield (
                f"{name}_{phase}",
                bootstrap16,
                {**opts, "bootstrap_stop_after": phase},
                {"x": x16},
            )
    w32_dh_off = {**w32, "double_hoisting": False}
    yield "bootstrap16_w32_dh_off", bootstrap16, w32_dh_off, {"x": x16}


@ember.program(slots=4096)
def bootstrap13(x):
    """One full-slot bootstrap at N = 2^13 (gpu_python.py's INSECURE)."""
    return x.bootstrap()


@ember.program(slots=1 << 15)
def bootstrap16(x):
    """One full-slot bootstrap at N = 2^16, 128-bit, nine levels left."""
    return x.bootstrap()


@ember.program(slots=1 << 14)
def bootstrap16_s14(x):
    """Sparse packing: 2^14 slots at N = 2^16, 128-bit, nine levels left."""
    return x.bootstrap()


@ember.program(slots=1 << 12)
def bootstrap16_s12(x):
    """Sparse packing: 2^12 slots at N = 2^16, 128-bit, nine levels left."""
    return x.bootstrap()


def pack(folder: Path) -> None:
    """An artifact folder ready to carry: its IR stages dropped, its files
    above PACK_ABOVE xz-compressed (once: packed files are left)."""
    strip_stages(folder)
    for f in folder.iterdir():
        if f.suffix != ".xz" and f.stat().st_size > PACK_ABOVE:
            subprocess.run(["xz", "-T0", "-6", "-f", str(f)], check=True)


def strip_stages(folder: Path) -> None:
    """Drops the saved IR stages (inspection only; outside the program
    hash) so that the carried folder stays under the device tool's 64 MiB."""
    meta_path = folder / "ember.json"
    meta = json.loads(meta_path.read_text())
    for name, _digest in meta.pop("stages", {}).values():
        (folder / name).unlink(missing_ok=True)
    meta_path.write_text(json.dumps(meta, indent=1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=ROOT / "out" / "py_gpu")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--only", help="comma-separated program names")
    ap.add_argument(
        "--nohoist",
        action="store_true",
        help="also a <name>-cuda-nohoist twin (hoist_siblings=False) where "
        "hoisting changes the kernels",
    )
    ap.add_argument(
        "--nolift",
        action="store_true",
        help="also a <name>-cuda-nolift twin (lift_rotation=False) where a "
        "rotation's c0 side is folded into its ModDown",
    )
    ap.add_argument(
        "--nooverlap",
        action="store_true",
        help="also a <name>-cuda-nooverlap twin (ks_overlap=False) where a "
        "ModDown overlaps its inner product",
    )
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
        if name not in NO_NOFUSE:  # fusion's gain (the -cuda twin with fusion off)
            ember.compile(prog, target="cuda", fusion=False, **options).save(
                args.out / f"{name}-cuda-nofuse"
            )
        if args.nohoist:  # hoisted sibling kernels' gain
            twin = ember.compile(prog, target="cuda", hoist_siblings=False, **options)
            if twin.ir("kernel") != c.ir("kernel"):
                twin.save(args.out / f"{name}-cuda-nohoist")
        if args.nolift:  # rotations' c0 side in the ModDown's epilogue
            twin = ember.compile(prog, target="cuda", lift_rotation=False, **options)
            if twin.ir("kernel") != c.ir("kernel"):
                twin.save(args.out / f"{name}-cuda-nolift")
        if args.nooverlap:  # a ModDown's INTT and BConv beside its inner product
            twin = ember.compile(prog, target="cuda", ks_overlap=False, **options)
            if twin.ir("kernel") != c.ir("kernel"):
                twin.save(args.out / f"{name}-cuda-nooverlap")
        for key, value in inputs.items():
            arrays[f"{name}/{key}"] = value
        memory = c.meta["memory"]
        print(f"{name}: {c!r}, planned arena {memory}", flush=True)
    np.savez(args.out / "inputs.npz", **arrays)
    for folder in sorted(args.out.iterdir()):
        if folder.is_dir():
            pack(folder)


if __name__ == "__main__":
    main()
