"""Where one GPU spends a compiled program's run: every kernel of RUNS
graph replays (graphs on, as bench/gpu_python.py times them) from CUPTI's
kernel activity records, summed by kernel and by class (NTT, BConv, inner
product, generated element-wise kernels, ...). Nsight Compute serialises
kernels and takes minutes over a bootstrapping's thousand; CUPTI records
them as they run.

    python3 bench/gpu_trace.py out/prof [RUNS=5] bootstrap16 bootstrap16_w32

Prints one JSON object per program, and one per variant beside it
(<name>-cuda-<variant> of the same kernel IR, bench/reemit_cuda.py, run on
the program's keys): the run's window, the time some kernel runs
(covered), the sum of kernel durations, and per class and per kernel
(template arguments dropped; each generated kernel kfN by name) the
milliseconds and launches per run. Needs
cupti-python on the GPU host (as bench/gpu_trace_multi.py).
"""

from __future__ import annotations

import importlib
import json
import sys
from collections import defaultdict
from pathlib import Path

# A first context before numpy (see bench/gpu_python.py).
_er = importlib.import_module("ember_runtime")
_er.Context(
    _er.ParamSpec(log_n=13, q_bits=[50, 40], p_bits=[50], dnum=2, insecure=True)
)

from cupti import cupti  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ember  # noqa: E402
import gpu_python  # noqa: E402
import gpu_trace_multi as multi  # noqa: E402

# Kernel classes by name (the first pattern that matches).
CLASSES = [
    ("ntt_forward", ("nttFwd", "nttForward")),
    ("ntt_inverse", ("nttInv", "nttInverse")),
    ("bconv", ("bconv", "Bconv", "BConv", "modUp", "modDown")),
    ("inner_product", ("InnerProduct", "innerProduct", "nttRowsIp")),
    ("automorphism", ("utomorph",)),
    ("generated", ("kf",)),
]


def kernel_class(short: str) -> str:
    for cls, keys in CLASSES:
        if any(k in short for k in keys):
            return cls
    return "other"


def trace(cuda, keys, on_gpu, label: str, runs: int) -> dict:
    """The kernels of `runs` graph replays of one loaded program."""
    cuda.graphs = True
    cuda.run(keys.evaluation, on_gpu)  # captures the graph
    cuda.run(keys.evaluation, on_gpu)
    multi.RECORDS.clear()
    cupti.activity_enable(cupti.ActivityKind.CONCURRENT_KERNEL)
    times = []
    for _ in range(runs):
        cuda.run(keys.evaluation, on_gpu)
        times.append(cuda.last_run["run"])
    cupti.activity_flush_all(1)
    cupti.activity_disable(cupti.ActivityKind.CONCURRENT_KERNEL)
    records = list(multi.RECORDS)
    names = multi._demangle({r[3] for r in records})
    per_kernel: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    per_class: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for _, s, e, n in records:
        short = multi._short(names.get(n, n))  # kfN: each generated kernel
        for table, key in ((per_kernel, short), (per_class, kernel_class(short))):
            table[key][0] += (e - s) / 1e6 / runs
            table[key][1] += 1 / runs
    spans = [(s, e) for _, s, e, _ in records]
    times.sort()
    # One more replay's kernels in start order (name, start and duration
    # in us from the first start): what ran beside what.
    multi.RECORDS.clear()
    cupti.activity_enable(cupti.ActivityKind.CONCURRENT_KERNEL)
    cuda.run(keys.evaluation, on_gpu)
    cupti.activity_flush_all(1)
    cupti.activity_disable(cupti.ActivityKind.CONCURRENT_KERNEL)
    one = sorted(multi.RECORDS, key=lambda r: r[1])
    names |= multi._demangle({r[3] for r in one} - set(names))
    t0 = one[0][1] if one else 0
    timeline = [
        [
            multi._short(names.get(n, n)),
            round((s - t0) / 1e3, 2),
            round((e - s) / 1e3, 2),
        ]
        for _, s, e, n in one
    ]

    def rows(table):
        return {
            k: [round(v[0], 4), round(v[1], 1)]
            for k, v in sorted(table.items(), key=lambda kv: -kv[1][0])
        }

    return {
        "program": label,
        "runs": runs,
        "median_ms": times[len(times) // 2],
        "window_ms": (max(e for _, e in spans) - min(s for s, _ in spans)) / 1e6 / runs,
        "covered_ms": multi._union(spans) / 1e6 / runs,
        "kernel_sum_ms": sum(e - s for s, e in spans) / 1e6 / runs,
        "kernels": len(records) / runs,
        "classes_ms_launches": rows(per_class),
        "kernels_ms_launches": rows(per_kernel),
        "timeline_us": timeline if len(timeline) <= 64 else [],
    }


def trace_one(folder: Path, name: str, runs: int) -> list[dict]:
    """The program and each <name>-cuda-<variant> beside it that has the
    same kernel IR (bench/reemit_cuda.py), on the same keys and inputs."""
    gpu_python.unpack(folder, name)
    cuda = ember.load(folder / f"{name}-cuda")
    keys = cuda.keygen()
    inputs = gpu_python.program_inputs(folder, name)
    on_gpu = cuda.to_device(cuda.encrypt(keys, **inputs))
    out = [trace(cuda, keys, on_gpu, name, runs)]
    for path in sorted(folder.glob(f"{name}-cuda-*")):
        twin = gpu_python.load_variant(path, cuda)
        if twin.program_hash != cuda.program_hash:
            continue  # another program: its own keys (not traced here)
        out.append(trace(twin, keys, on_gpu, path.name[len(name) + 1 :], runs))
    return out


def main() -> None:
    folder, runs = Path(sys.argv[1]), int(sys.argv[2])
    cupti.activity_register_callbacks(multi._requested, multi._completed)
    for name in sys.argv[3:]:
        for row in trace_one(folder, name, runs):
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
