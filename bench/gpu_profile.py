"""One program of bench/make_python_gpu_artifacts.py run under Nsight
Compute, to list the kernels of one run with their durations (what the
key switch's stages cost inside a compiled program, and the same
operations issued one by one through the hand-written API):

    ncu --metrics gpu__time_duration.sum --csv \\
        python3 bench/gpu_profile.py out/py_gpu rotate_B compiled|one_by_one

Runs the chosen form three times with graphs off (every launch its own
kernel for ncu); bench/gpu_run.sh (PROFILE_PY=...) keeps the last run's
kernels. No timing here: ncu serialises the kernels.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

# See bench/gpu_python.py: a first context before numpy on the GPU host.
_er = importlib.import_module("ember_runtime")
_er.Context(
    _er.ParamSpec(log_n=13, q_bits=[50, 40], p_bits=[50], dnum=2, insecure=True)
)

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "frontend"))
sys.path.insert(0, str(ROOT / "bench" / "programs"))

import ember  # noqa: E402
import set_b  # noqa: E402
from ember import _toolchain  # noqa: E402


def main() -> None:
    folder, name, form = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    arrays = np.load(folder / "inputs.npz")
    inputs = {
        k.split("/")[1]: arrays[k] for k in arrays.files if k.startswith(name + "/")
    }
    cuda = ember.load(folder / f"{name}-cuda")
    keys = cuda.keygen()
    on_gpu = cuda.to_device(cuda.encrypt(keys, **inputs))
    if form == "compiled":
        cuda.graphs = False
        for _ in range(3):
            cuda.run(keys.evaluation, on_gpu)
        return
    er = _toolchain.runtime()
    ev = er.CudaEvaluator(cuda._gpu(), cuda._gpu_keys(keys.evaluation))
    log_n = cuda.manifest["params"]["log_n"]
    for _ in range(3):
        if set_b.one_by_one(name, ev, list(on_gpu), None, log_n) is None:
            raise SystemExit(f"{name} has no one-by-one form")


if __name__ == "__main__":
    main()
