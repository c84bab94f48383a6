"""Compile the frontend's examples (examples/*.py) into GPU artifacts, here
where the compiler and the runtime module are, for bench/gpu_e2e.sh.

For each example OUT/ex_<example>/ holds ex_<example>.cu (the program
compiled with target="cuda"), the manifest, ember.json, and the data of one
CPU run of the same program (target="cpu", same manifest):
params.bin, in<i>.bin (the example's inputs, encrypted) and, in check mode,
keys.bin (exactly the manifest's keys) and out<i>.bin (the CPU outputs);
gpu_e2e.sh then checks that the GPU residues are identical and times the
run. Examples whose evaluation keys exceed --key-limit MB are written in
bench mode instead (galois.txt + inputs.txt, keys made on the GPU host:
timing only), to keep the folder small enough to carry. The CPU error
against numpy of each example is printed and written to OUT/errors.txt.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "frontend"))

import ember  # noqa: E402
from ember import _toolchain, cli  # noqa: E402

EXAMPLES = ["logistic_regression", "dense_layer", "variance", "polynomial", "mlp"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, default=ROOT / "out" / "example_artifacts")
    ap.add_argument("--key-limit", type=float, default=8.0, help="MB")
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    er = _toolchain.runtime()
    lines = []
    memory = {}  # planned memory per artifact, for gpu_e2e.sh's table
    for example in EXAMPLES:
        path = ROOT / "examples" / f"{example}.py"
        module = cli._load_module(path)
        prog = cli._find_program(module, path, None)
        rng = np.random.default_rng(args.seed)
        inputs = cli._inputs(module, prog, None, rng)
        cpu = ember.compile(prog, target="cpu")
        cuda = ember.compile(prog, target="cuda")
        # One program, two emitted sources: the same parameters and keys
        # (the program hash covers the source, so it differs).
        assert cpu.manifest == cuda.manifest
        name = f"ex_{example}"
        d = args.out / name
        if d.exists():
            shutil.rmtree(d)
        cuda.save(d)
        # What gpu_e2e.sh builds and reads: ex_<example>.cu / .data.
        (d / f"{prog.name}.cu").rename(d / f"{name}.cu")
        (d / f"{prog.name}.data").rename(d / f"{name}.data")
        # The IR texts stay here (the device tool carries 64 MiB at most).
        for ir in [*d.glob("*.mlir"), *d.glob(f"{prog.name}.*.txt")]:
            ir.unlink()
        keys = cpu.keygen()
        cts = cpu.encrypt(keys, **inputs)
        outs = cpu.run(keys.evaluation, cts)
        got = cpu.decrypt(keys, outs)
        want = prog(**inputs)
        got = got if isinstance(got, tuple) else (got,)
        want = want if isinstance(want, tuple) else (want,)
        err = max(float(np.max(np.abs(g - w))) for g, w in zip(got, want, strict=True))
        ctx = cpu._context()
        er.save(str(d / "params.bin"), ctx)
        for i, ct in enumerate(cts):
            er.save(str(d / f"in{i}.bin"), ctx, ct)
        key_bytes = er.serialize(ctx, keys.evaluation.keys)
        mode = "check" if len(key_bytes) <= args.key_limit * 2**20 else "bench"
        if mode == "check":
            (d / "keys.bin").write_bytes(key_bytes)
            for i, ct in enumerate(outs):
                er.save(str(d / f"out{i}.bin"), ctx, ct)
        else:
            m = cpu.manifest
            (d / "galois.txt").write_text(
                " ".join(str(g) for g in m["keys"]["galois"]) + "\n"
            )
            (d / "inputs.txt").write_text(
                "".join(
                    f"{s['level']} {s['scale']!r} {s['slots']}\n" for s in m["inputs"]
                )
                + ("relin\n" if m["keys"]["relin"] else "")
            )
            for i in range(len(cts)):
                (d / f"in{i}.bin").unlink()
        line = (
            f"{name}: {mode}, max error vs numpy {err:.3e} (CPU run), "
            f"keys {len(key_bytes) / 2**20:.1f} MB, {cpu.meta['memory']}"
        )
        memory[name] = cpu.meta["memory"]
        print(line, flush=True)
        lines.append(line)
    (args.out / "errors.txt").write_text("\n".join(lines) + "\n")
    (args.out / "memory.txt").write_text(
        "".join(f"{k}: {v}\n" for k, v in memory.items())
    )


if __name__ == "__main__":
    main()
