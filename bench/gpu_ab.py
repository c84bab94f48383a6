"""Settings of a runtime knob read where a graph is captured (an environment
variable, e.g. EMBER_KS_LIFT_IN_IP in runtime/cuda/rns.cu), timed side by
side in one process: differences of a few microseconds are within the
spread between processes and builds (bench/gpu_knobs.sh's variants), not
within one process's interleaved replays.

    python3 bench/gpu_ab.py out/kb 40 EMBER_KS_LIFT_IN_IP=1,0 \\
        mul_relin_B_norescale rotate_B

A knob written `.name=a,b` is an attribute of the loaded program instead
(ember.Compiled: `.concurrent=1,0`, `.in_place=1,0`), set to int(value)
as a bool before its capture.

For each program (artifacts as bench/make_python_gpu_artifacts.py makes
them: <name>-cuda, <name>-cpu, inputs.npz): the artifact is loaded once per
setting, each load captures its own graph with the variable at that value,
on the same keys and inputs. Each setting's residues are compared with the
CPU's. Then RUNS rounds replay every setting once, in an order that rotates
each round. Prints one JSON object per program: per setting the median and
minimum in ms, and the median of the paired differences against the first
setting in us.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from pathlib import Path

# A first context before numpy (see bench/gpu_python.py).
_er = importlib.import_module("ember_runtime")
_er.Context(
    _er.ParamSpec(log_n=13, q_bits=[50, 40], p_bits=[50], dnum=2, insecure=True)
)

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ember  # noqa: E402
import gpu_python  # noqa: E402


def ab(folder: Path, runs: int, var: str, values: list[str], name: str) -> dict:
    gpu_python.unpack(folder, name)
    inputs = gpu_python.program_inputs(folder, name)
    base = ember.load(folder / f"{name}-cuda")
    cpu = ember.load(folder / f"{name}-cpu")
    keys = base.keygen()
    cts = base.encrypt(keys, **inputs)
    ref = cpu._program().run(base._context(), keys.evaluation.keys, list(cts), [])
    on_gpu = base.to_device(cts)
    path = folder / f"{name}-cuda"
    progs, identical = [], {}
    for v in values:
        c = base if not progs else gpu_python.load_variant(path, base)
        c.graphs = c.arena = True
        if var.startswith("."):
            setattr(c, var[1:], bool(int(v)))
        else:
            os.environ[var] = v
        out = c.run(keys.evaluation, on_gpu)  # eager, then captures
        out = c.run(keys.evaluation, on_gpu)  # the captured graph
        identical[v] = gpu_python.same(ref, list(c.from_device(out)))
        progs.append(c)
    if not var.startswith("."):
        os.environ.pop(var, None)
    times: list[list[float]] = [[] for _ in values]
    for r in range(runs):
        for k in range(len(values)):
            i = (k + r) % len(values)
            progs[i].run(keys.evaluation, on_gpu)
            times[i].append(progs[i].last_run["run"])
    row = {"program": name, "var": var, "runs": runs}
    for i, v in enumerate(values):
        row[v] = {
            "median_ms": float(np.median(times[i])),
            "min_ms": float(min(times[i])),
            "identical": identical[v],
        }
        if i:
            diff = np.array(times[i]) - np.array(times[0])
            row[v]["minus_first_us"] = float(np.median(diff) * 1e3)
    return row


def main() -> None:
    folder, runs = Path(sys.argv[1]), int(sys.argv[2])
    var, _, values = sys.argv[3].partition("=")
    for name in sys.argv[4:]:
        print(json.dumps(ab(folder, runs, var, values.split(","), name)), flush=True)


if __name__ == "__main__":
    main()
