"""Compile the e2e programs and the rotation-sum benchmark into GPU
artifacts (run here, where the compiler and the runtime's Python module are).

For each program OUT/<name>/ holds <name>.cu, <name>.cpp, the manifest,
and the data of one CPU run: params.bin, keys.bin (exactly the manifest's
keys), in<i>.bin (fresh random encrypted inputs) and out<i>.bin (the
outputs of the emitted .cpp run on the CPU runtime). bench/gpu_e2e.sh runs
the .cu on those inputs and checks that the residues are identical.

Timing artifacts (<name>, timing only: params.bin, galois.txt, inputs.txt,
no keys, which would be too large to carry) are the 8-rotation sum at
parameter set B, hoisted and with hoisting disabled; the GPU host
generates their keys itself.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

import ember_runtime as er  # noqa: E402
import numpy as np  # noqa: E402
from client import Client, context_from_params  # noqa: E402

CHECK = {  # name -> (source, pipeline options)
    "poly_eval": ("tests/e2e/programs/poly_eval.mlir", ""),
    "rotation_sum": ("tests/e2e/programs/rotation_sum.mlir", ""),
    "dot_product": ("tests/e2e/programs/dot_product.mlir", ""),
    "depth8": ("tests/e2e/programs/depth8.mlir", ""),
    "two_in_two_out": ("tests/e2e/programs/two_in_two_out.mlir", ""),
    "rot8_sum": ("bench/programs/rot8_sum.mlir", ""),
    "rot8_sum_nohoist": ("bench/programs/rot8_sum.mlir", "hoisting=false"),
    # Every key switch in KLSS form (relinearization; hoisted rotations).
    "poly_eval_klss": ("tests/e2e/programs/poly_eval.mlir", "keyswitch=klss"),
    "rot8_sum_klss": ("bench/programs/rot8_sum.mlir", "keyswitch=klss"),
}
TIMING = {
    "rot8_sum_B": ("bench/programs/rot8_sum.mlir", "params=B"),
    "rot8_sum_B_nohoist": ("bench/programs/rot8_sum.mlir", "params=B hoisting=false"),
}


def compile_program(
    name: str, source: str, options: str, outdir: Path, bin_dir: Path
) -> str:
    cmd = [
        sys.executable,
        str(ROOT / "compiler/tools/ember-compile"),
        str(ROOT / source),
        "-o",
        str(outdir),
        "--name",
        name,
        "--target",
        "both",
        "--bin-dir",
        str(bin_dir),
    ]
    if options:
        cmd += ["--options", options]
    run = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return run.stdout.splitlines()[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--build-dir", type=Path, default=ROOT / "build")
    ap.add_argument("--out", type=Path, default=ROOT / "out" / "artifacts")
    ap.add_argument("--only", help="comma-separated program names (default: all)")
    args = ap.parse_args()
    only = set(args.only.split(",")) if args.only else None
    rng = np.random.default_rng()
    summary = {}
    for name, (source, options) in CHECK.items():
        if only is not None and name not in only:
            continue
        d = args.out / name
        memory = compile_program(name, source, options, d, args.build_dir / "bin")
        lib = er.build_program(str(d / f"{name}.cpp"), str(d / f"{name}.so"))
        client = Client(d / f"{name}.manifest.json")
        keys = client.evaluation_keys()
        inputs = [
            # uniform in each input's range (the client refuses values outside)
            rng.uniform(*spec.get("range", (-1, 1))[:2], spec["slots"])
            for spec in client.manifest["inputs"]
        ]
        cts = client.encrypt(inputs)
        outs = er.Program(lib, str(d / f"{name}.data")).run(client.ctx, keys, cts)
        er.save(str(d / "params.bin"), client.ctx)
        er.save(str(d / "keys.bin"), client.ctx, keys)
        for i, ct in enumerate(cts):
            er.save(str(d / f"in{i}.bin"), client.ctx, ct)
        for i, ct in enumerate(outs):
            er.save(str(d / f"out{i}.bin"), client.ctx, ct)
        (d / f"{name}.so").unlink()
        summary[name] = memory
        print(f"{name}: {memory}")
    for name, (source, options) in TIMING.items():
        if only is not None and name not in only:
            continue
        d = args.out / name
        memory = compile_program(name, source, options, d, args.build_dir / "bin")
        manifest = json.loads((d / f"{name}.manifest.json").read_text())
        ctx = context_from_params(manifest["params"])
        er.save(str(d / "params.bin"), ctx)
        keys = manifest["keys"]
        (d / "galois.txt").write_text(
            " ".join(str(g) for g in keys["galois"])
            + (" klss " + " ".join(str(g) for g in keys["klss_galois"]))
            * bool(keys.get("klss_galois"))
            + "\n"
        )
        (d / "inputs.txt").write_text(
            "".join(
                f"{s['level']} {s['scale']!r} {s['slots']}\n"
                for s in manifest["inputs"]
            )
            + ("relin\n" if keys["relin"] else "")
            + ("klss_relin\n" if keys.get("klss_relin") else "")
        )
        (d / f"{name}.cpp").unlink()
        summary[name] = memory
        print(f"{name}: {memory}")
    (args.out / "memory.txt").write_text(
        "".join(f"{k}: {v}\n" for k, v in summary.items())
    )


if __name__ == "__main__":
    main()
