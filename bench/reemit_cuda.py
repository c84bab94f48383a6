"""A saved CUDA artifact with its .cu emitted again from its kernel IR by
this tree's ember-translate, into a new folder: to time a change of the
emitter alone (generated kernels, plan steps) on the same kernel IR, keys
and data, without compiling the program again (bootstrapping takes
minutes). The copy's ember.json gets the new source's SHA-256 and hash,
so ``ember.load`` accepts it; everything else is the original's.

    .venv/bin/python bench/reemit_cuda.py out/prof/bootstrap16-cuda \\
        out/lanes/bootstrap16-cuda [--lanes N]

``--lanes N`` sets the function's ``kernel.lanes`` (the ``lanes`` compile
option: coefficients per thread of the generated kernels) before emitting.
``--concurrency N`` places the buffers again (``kernel-plan-memory
concurrency=N``, the ``concurrency`` compile option) before emitting.
``--no-overlap`` drops the ``overlap`` marks of the ModDowns (the
``ks_overlap`` compile option) and keeps the memory plan made for them:
the runtime then runs each inner product and its ModDown in turn, so the
split's own effect is timed apart from the plan's. ``--ir FILE`` emits
from a hand-edited kernel IR instead (an experiment on the plan's steps
before the compiler makes them), written into the copy as its kernel IR.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import lzma
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "frontend"))

from ember.compiled import program_hash  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("src", type=Path)
    ap.add_argument("dst", type=Path)
    ap.add_argument("--lanes", type=int)
    ap.add_argument("--concurrency", type=int)
    ap.add_argument("--no-overlap", action="store_true")
    ap.add_argument("--ir", type=Path)
    args = ap.parse_args()
    src, dst = args.src, args.dst
    meta = json.loads((src / "ember.json").read_text())
    if meta["target"] != "cuda":
        raise SystemExit(f"{src}: not a target='cuda' artifact")
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(src, dst)
    kernel = dst / meta["files"]["kernel"]
    packed = kernel.with_name(kernel.name + ".xz")
    ir = lzma.decompress(packed.read_bytes()) if packed.exists() else None
    if ir is None:
        ir = kernel.read_bytes()
    if args.ir is not None:
        ir = args.ir.read_bytes()
    if args.lanes is not None:
        head, sep, rest = ir.partition(b") attributes {")
        if not sep or b"func.func" not in head:
            raise SystemExit(f"{kernel}: no function attributes to set lanes in")
        ir = head + sep + b"kernel.lanes = %d : i64, " % args.lanes + rest
    if args.concurrency is not None:
        ir = subprocess.run(
            ["ember-opt", f"--kernel-plan-memory=concurrency={args.concurrency}"],
            input=ir,
            capture_output=True,
            check=True,
        ).stdout
    if args.no_overlap:
        ir = ir.replace(b", overlap, ", b", ").replace(b"{overlap, ", b"{")
        ir = ir.replace(b", overlap}", b"}")
    if args.ir is not None:  # the copy's kernel IR is what it was emitted from
        packed.unlink(missing_ok=True)
        kernel.write_bytes(ir)
        meta["sha256"]["kernel"] = hashlib.sha256(ir).hexdigest()
    source = subprocess.run(
        ["ember-translate", "--emit-cuda"],
        input=ir,
        capture_output=True,
        check=True,
    ).stdout
    (dst / meta["files"]["source"]).write_bytes(source)
    meta["sha256"]["source"] = hashlib.sha256(source).hexdigest()
    meta["hash"] = program_hash(meta)
    (dst / "ember.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(f"{dst}: {len(source)} bytes of CUDA")


if __name__ == "__main__":
    main()
