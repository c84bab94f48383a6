"""Issue 18 on a host of several GPUs: each program of
bench/make_multi_gpu_artifacts.py loaded from Python (``ember.load``) and
run on one GPU (<name>-d1) and spread over two (<name>-d2), on the same
ciphertexts and evaluation keys:

- residues: every output of the two-GPU run equal to the one-GPU run's,
  residue for residue; the one-GPU result decrypted against numpy;
- times, median and minimum of RUNS runs after a warm-up (graphs on; the
  two-GPU run is one thread per GPU, each replaying its device's graph,
  NCCL between them): wall-clock milliseconds from the call to every
  device's finish, for both (the one-GPU run's CUDA-event time beside);
  the same with each graph one chain in program order (``concurrent =
  False``) and with the DAGs in their own order (``prioritized = False``)
  beside, and each device's (longest chain, nodes);
- the partition's prediction (the manifest's ``devices``) beside them,
  each device's arena and key bytes, and NCCL's point-to-point bandwidth
  between GPUs 0 and 1;
- variants: each <name>-d2.<variant> folder beside <name>-d2 (another
  partition of the same program, e.g. compiled before a change of the
  pass: make_multi_gpu_artifacts.py --variant) run on the same ciphertexts,
  its residues checked against the one-GPU run's and its time taken in
  the same way, so that two partitions compare on one machine.

    python3 bench/gpu_multi.py out/multi [RUNS]   (results: stdout, and
        $OUT/gpu_multi.json when OUT is set; MULTI_ONLY=a,b: those only)
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("NCCL_NVLS_ENABLE", "0")  # no NVLink multicast, ever
# A first context before numpy (see bench/gpu_python.py).
_er = importlib.import_module("ember_runtime")
_er.Context(
    _er.ParamSpec(log_n=13, q_bits=[50, 40], p_bits=[50], dnum=2, insecure=True)
)

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "frontend"))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "bench" / "programs"))
sys.path.insert(0, str(ROOT / "examples"))

import ember  # noqa: E402
import gpu_python  # noqa: E402
import set_b  # noqa: E402
from ember import _toolchain  # noqa: E402
from ember.compiled import Ciphertexts  # noqa: E402

ORDER = [
    "logistic_regression",
    "dense_layer",
    "variance",
    "polynomial",
    "tanh_layer",
    "mlp",
    "dense1024_B",
    "mul_relin_B",
    "rotate_B",
    "bootstrap16",
]


def reference(name: str, inputs: dict[str, np.ndarray]):
    if name == "dense1024_B":
        return set_b.dense1024_b(**inputs)
    return gpu_python.cuda_reference(name, inputs)


def timed(c, keys, cts, runs: int) -> list[float]:
    """Wall-clock ms of each run (after a warm-up that captures)."""
    c.graphs, c.arena = True, True
    c.run(keys, cts)
    out = []
    for _ in range(runs):
        c.run(keys, cts)
        out.append(c.last_run["run_wall"])
    return out


def run_one(folder: Path, name: str, runs: int) -> dict:
    gpu_python.unpack(folder, name)
    inputs = gpu_python.program_inputs(folder, name)
    one = ember.load(folder / f"{name}-d1")
    two = ember.load(folder / f"{name}-d2")
    t = time.perf_counter()
    keys = one.keygen()
    cts = one.encrypt(keys, **inputs)
    keygen_s = time.perf_counter() - t
    # The same ciphertexts and keys for the partitioned program (its hash
    # differs): the raw evaluation keys, the ciphertexts re-labelled.
    raw = keys.evaluation.keys
    on1 = one.to_device(cts)
    on2 = two.to_device(Ciphertexts(list(cts), two.program_hash, "inputs"))
    one.graphs = two.graphs = True
    first1 = one.from_device(one.run(raw, on1))
    first2 = two.from_device(two.run(raw, on2))  # eager run + capture
    again2 = two.from_device(two.run(raw, on2))  # graph replay
    two.graphs = False
    eager2 = two.from_device(two.run(raw, on2))  # step by step, no graphs
    identical = all(
        gpu_python.same(list(first1), list(x)) for x in (first2, again2, eager2)
    )
    got = one.decrypt(keys, first1)
    want = reference(name, inputs)
    err = gpu_python.max_error(got, want)
    row = {"identical": identical, "max_error": err, "keygen_s": keygen_s}
    if name == "bootstrap16":
        bits = -np.log2(np.abs(got - inputs["x"]))
        row.update(mean_bits=float(bits.mean()), min_bits=float(bits.min()))
    ms1 = timed(one, raw, on1, runs)
    event1 = []
    for _ in range(runs):
        one.run(raw, on1)
        event1.append(one.last_run["run"])
    kernels1 = one.last_run["kernels"]
    ms2 = timed(two, raw, on2, runs)
    kernels2 = two.last_run["kernels"]
    paths = [list(p) for p in two._program().device_graph_paths]

    def switched_off(attr: str):
        """Both programs timed with `attr` off, and whether the spread one
        still gives the single GPU's residues."""
        setattr(one, attr, False)
        setattr(two, attr, False)
        ms1, ms2 = timed(one, raw, on1, runs), timed(two, raw, on2, runs)
        same = gpu_python.same(list(first1), list(two.from_device(two.run(raw, on2))))
        setattr(one, attr, True)
        setattr(two, attr, True)
        return ms1, ms2, same

    # Each graph as one chain in program order (the graphs before their
    # DAGs), on the same machine; then the DAGs in the graphs' own order.
    chain1, chain2, same_chain = switched_off("concurrent")
    flat1, flat2, same_flat = switched_off("prioritized")
    identical = identical and same_chain and same_flat
    two.graphs = False
    ms2_eager = []
    for _ in range(max(3, runs // 4)):
        two.run(raw, on2)
        ms2_eager.append(two.last_run["run_wall"])
    dev = two.manifest.get("devices", {})
    row.update(
        one_gpu_ms=float(np.median(ms1)),
        one_gpu_min_ms=float(np.min(ms1)),
        one_gpu_event_ms=float(np.median(event1)),
        two_gpu_ms=float(np.median(ms2)),
        two_gpu_min_ms=float(np.min(ms2)),
        two_gpu_graphs_off_ms=float(np.median(ms2_eager)),
        one_gpu_chain_ms=float(np.median(chain1)),
        two_gpu_chain_ms=float(np.median(chain2)),
        chain_speedup=float(np.median(chain1) / np.median(chain2)),
        one_gpu_unprioritized_ms=float(np.median(flat1)),
        two_gpu_unprioritized_ms=float(np.median(flat2)),
        device_path_nodes=paths,
        speedup=float(np.median(ms1) / np.median(ms2)),
        predicted_two_ms=max(dev.get("predicted_us", [float("nan")])) / 1e3,
        predicted_one_ms=dev.get("one_device_predicted_us", float("nan")) / 1e3,
        transfer_mb=dev.get("transfer_bytes", 0) / 1e6,
        arena_bytes=dev.get("arena_bytes"),
        key_bytes=[shard["key_bytes"] for shard in dev.get("keys", [])],
        # What each GPU holds: its keys as uploaded (rows only, with the
        # limbs split).
        uploaded_key_bytes=[k.bytes for k in two._gpus_keys(raw)],
        one_gpu_arena_bytes=one.manifest["memory"].get("arena_bytes"),
        one_gpu_key_bytes=one.manifest["memory"].get("evaluation_key_bytes"),
        kernels=[kernels1, kernels2],
        runs=runs,
    )
    row["variants"] = {}
    for v in sorted(folder.glob(f"{name}-d2.*")):
        other = ember.load(v)
        on = other.to_device(Ciphertexts(list(cts), other.program_hash, "inputs"))
        other.graphs = True
        got_v = other.from_device(other.run(raw, on))
        ms = timed(other, raw, on, runs)
        vdev = other.manifest.get("devices", {})
        row["variants"][v.name.split(".", 1)[1]] = {
            "identical": gpu_python.same(list(first1), list(got_v)),
            "two_gpu_ms": float(np.median(ms)),
            "speedup": float(np.median(ms1) / np.median(ms)),
            "predicted_two_ms": max(vdev.get("predicted_us", [float("nan")])) / 1e3,
            "transfer_mb": vdev.get("transfer_bytes", 0) / 1e6,
        }
    return row


def main() -> None:
    folder = Path(sys.argv[1])
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 21
    er = _toolchain.cuda_runtime()
    n = er.cuda_device_count()
    names = [er.cuda_device_name(d) for d in range(n)]
    print(f"{n} GPUs: {names}", flush=True)
    results = {"gpus": names, "programs": {}}
    if n >= 2:
        try:
            results["p2p_gbps"] = er.cuda_p2p_bandwidth(0, 1, 256, 20)
            print(f"NCCL send/recv 0 -> 1, 256 MB: {results['p2p_gbps']:.1f} GB/s")
        except Exception as err:  # measured for the cost model; not fatal
            print(f"p2p bandwidth: {err}")
    present = {
        p.name.rsplit("-", 1)[0]
        for p in folder.iterdir()
        if p.is_dir() and "." not in p.name.rsplit("-", 1)[1]
    }
    if os.environ.get("MULTI_ONLY"):  # a comma-separated subset
        present &= set(os.environ["MULTI_ONLY"].split(","))
    for name in [n for n in ORDER if n in present]:
        t = time.perf_counter()
        try:
            row = run_one(folder, name, runs)
        except Exception as err:  # one program's failure is reported, not fatal
            row = {"error": f"{type(err).__name__}: {err}"}
        row["wall_s"] = time.perf_counter() - t
        results["programs"][name] = row
        print(name, json.dumps(row), flush=True)
    print(
        "\n| program | identical | max error | 1 GPU ms | 2 GPUs ms | speedup "
        "| predicted 1 / 2 GPUs ms | transfers MB | 2 GPUs graphs off ms "
        "| chains: 1 / 2 GPUs ms (speedup) | unprioritized: 1 / 2 GPUs ms |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, r in results["programs"].items():
        if "error" in r:
            print(f"| {name} | error: {r['error'][:80]} |")
            continue
        print(
            f"| {name} | {r['identical']} | {r['max_error']:.2e} | "
            f"{r['one_gpu_ms']:.3f} | {r['two_gpu_ms']:.3f} | {r['speedup']:.2f}x | "
            f"{r['predicted_one_ms']:.2f} / {r['predicted_two_ms']:.2f} | "
            f"{r['transfer_mb']:.0f} | {r['two_gpu_graphs_off_ms']:.3f} | "
            f"{r['one_gpu_chain_ms']:.3f} / {r['two_gpu_chain_ms']:.3f} "
            f"({r['chain_speedup']:.2f}x) | "
            f"{r['one_gpu_unprioritized_ms']:.3f} / "
            f"{r['two_gpu_unprioritized_ms']:.3f} |"
        )
        for v, x in r.get("variants", {}).items():
            print(
                f"| {name} ({v}) | {x['identical']} | | | {x['two_gpu_ms']:.3f} | "
                f"{x['speedup']:.2f}x | - / {x['predicted_two_ms']:.2f} | "
                f"{x['transfer_mb']:.0f} | |"
            )
    if os.environ.get("OUT"):
        Path(os.environ["OUT"], "gpu_multi.json").write_text(
            json.dumps(results, indent=1)
        )


if __name__ == "__main__":
    main()
