"""Where a program spread over two GPUs loses its time (issue 18): each
GPU's kernels over bench/gpu_multi.py's runs of one program, from CUPTI's
kernel activity records (cupti-python; the GPU host has no Nsight
Systems, and Nsight Compute serialises kernels, which deadlocks NCCL's
paired send/recv kernels).

    python3 bench/gpu_trace_multi.py out/multi dense1024_B [RUNS]

gpu_multi.run_one runs the one-GPU program (<name>-d1) and the two-GPU
one (<name>-d2); its one-GPU timed runs are the largest gap between device
1's kernels. Printed (one JSON object), per run:
- one_gpu: the compute time of the one-GPU runs (the sum of kernel
  durations and the time some kernel runs);
- two_gpu, per device: the time covered by compute kernels, by NCCL
  kernels, by neither (idle: waiting for the other GPU or the host), the
  sum of compute kernel durations, and the kernels whose summed time rose
  most against the one-GPU runs (NCCL kernels beside compute kernels slow
  them, or the split made them smaller and less efficient).
"""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("NCCL_NVLS_ENABLE", "0")  # no NVLink multicast, ever
# A first context before numpy (see bench/gpu_python.py).
_er = importlib.import_module("ember_runtime")
_er.Context(
    _er.ParamSpec(log_n=13, q_bits=[50, 40], p_bits=[50], dnum=2, insecure=True)
)

from cupti import cupti  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gpu_multi  # noqa: E402

RECORDS: list[tuple[int, int, int, str]] = []  # (device, start, end, name)


def _requested():
    return 8 * 1024 * 1024, 0  # buffer bytes, no record limit


def _completed(activities) -> None:
    for a in activities:
        if a.kind == cupti.ActivityKind.CONCURRENT_KERNEL:
            RECORDS.append((int(a.device_id), int(a.start), int(a.end), a.name))


def _union(spans: list[tuple[int, int]]) -> int:
    total, end = 0, -1
    for s, e in sorted(spans):
        if e > end:
            total += e - max(s, end)
            end = e
    return total


def _demangle(names: set[str]) -> dict[str, str]:
    """CUPTI's mangled kernel names, demangled by c++filt (as they are
    where it is missing)."""
    names = sorted(names)
    try:
        out = subprocess.run(
            ["c++filt"], input="\n".join(names), capture_output=True, text=True
        ).stdout.split("\n")
    except OSError:
        return {n: n for n in names}
    return dict(zip(names, out, strict=False))


def _short(name: str) -> str:
    """A kernel's name without its template arguments and parameters."""
    name = re.sub(r"\(.*$", "", name.replace("(anonymous namespace)::", ""))
    while "<" in name:
        name = re.sub(r"<[^<>]*>", "", name)
    return name.split(" ")[-1].split("::")[-1][:48]


def _is_nccl(name: str) -> bool:
    return "nccl" in name.lower()


def analyse(runs: int, eager_runs: int) -> dict:
    names = _demangle({r[3] for r in RECORDS})
    RECORDS[:] = [(d, s, e, names.get(n, n)) for d, s, e, n in RECORDS]
    on1 = sorted(r for r in RECORDS if r[0] == 1)
    if len(on1) < 2:
        return {"error": "no kernels on device 1"}
    gap = max(range(1, len(on1)), key=lambda i: on1[i][1] - on1[i - 1][2])
    g_lo, g_hi = on1[gap - 1][2], on1[gap][1]
    lo, hi = g_hi, on1[-1][2]
    # gpu_multi.timed: a warm-up and the timed runs; then, one GPU, the
    # CUDA-event runs, two GPUs, the runs with graphs off.
    two_runs = 1 + runs + eager_runs
    one_runs = 1 + 2 * runs
    one = [r for r in RECORDS if r[0] == 0 and g_lo <= r[1] < g_hi]
    per_one = defaultdict(float)
    for _, s, e, n in one:
        per_one[_short(n)] += (e - s) / one_runs
    out = {
        "runs": {"one_gpu": one_runs, "two_gpu": two_runs},
        "one_gpu": {
            "window_ms": (g_hi - g_lo) / 1e6 / one_runs,
            "kernels": len(one) / one_runs,
            "compute_sum_ms": sum(e - s for _, s, e, _ in one) / 1e6 / one_runs,
            "covered_ms": _union([(s, e) for _, s, e, _ in one]) / 1e6 / one_runs,
        },
        "two_gpu": {"window_ms": (hi - lo) / 1e6 / two_runs},
    }
    per_two = defaultdict(float)
    for dev in sorted({r[0] for r in RECORDS}):
        mine = [r for r in RECORDS if r[0] == dev and lo <= r[1] < hi]
        comp = [(s, e) for _, s, e, n in mine if not _is_nccl(n)]
        comm = [(s, e) for _, s, e, n in mine if _is_nccl(n)]
        for _, s, e, n in mine:
            per_two[_short(n)] += (e - s) / two_runs
        out["two_gpu"][f"device{dev}"] = {
            "compute_kernels": len(comp) / two_runs,
            "nccl_kernels": len(comm) / two_runs,
            "compute_covered_ms": _union(comp) / 1e6 / two_runs,
            "nccl_covered_ms": _union(comm) / 1e6 / two_runs,
            "idle_ms": (hi - lo - _union(comp + comm)) / 1e6 / two_runs,
            "compute_sum_ms": sum(e - s for s, e in comp) / 1e6 / two_runs,
        }
    rise = sorted(
        ((per_two[k] - per_one.get(k, 0.0), k) for k in per_two), reverse=True
    )
    out["two_gpu"]["kernel_ms_rise"] = {
        k: [round(per_one.get(k, 0.0) / 1e6, 3), round(per_two[k] / 1e6, 3)]
        for _, k in rise[:12]
    }
    return out


def main() -> None:
    folder, name = Path(sys.argv[1]), sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    cupti.activity_enable(cupti.ActivityKind.CONCURRENT_KERNEL)
    cupti.activity_register_callbacks(_requested, _completed)
    row = gpu_multi.run_one(folder, name, runs)
    cupti.activity_flush_all(1)
    cupti.activity_disable(cupti.ActivityKind.CONCURRENT_KERNEL)
    out = {
        "program": name,
        "identical": row["identical"],
        "one_gpu_ms": row["one_gpu_ms"],
        "two_gpu_ms": row["two_gpu_ms"],
        "records": len(RECORDS),
        **analyse(runs, max(3, runs // 4)),
    }
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
