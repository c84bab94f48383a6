"""The deep examples of issue 14 on the CPU runtime (N = 2^16, 128-bit,
bootstrap="auto"): compile, key generation, encryption, run and decryption
times, the bootstraps the compiler placed (from the cost report), and the
error against numpy (the program's plain run) and against the example's
own reference. One program per call: at N = 2^16 each takes 10-15 GB.

    .venv/bin/python bench/deep_cpu.py poly_net|logistic_regression_training
        [bootstrap_levels=9 | key_memory_mib=8000]

(The default placement of the training example chooses 14 levels between
bootstraps with dnum 9 (31 Q + 3 P primes): its 45 keys, 14.2 GB, still do
not fit this machine's 24 GB (key generation was killed at 24.4 GB RSS,
2026-11-25); with bootstrap_levels=9 they are about 7 GB, and with
key_memory_mib=8000 the placement itself picks a run whose keys fit: 7
levels between 9 bootstraps, 5.6 GB of keys, 11.7 GB peak.)
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "frontend"))
sys.path.insert(0, str(ROOT / "examples"))

import ember  # noqa: E402
from ember import cli  # noqa: E402


def main() -> None:
    name = sys.argv[1]
    path = ROOT / "examples" / f"{name}.py"
    module = cli._load_module(path)
    prog = cli._find_program(module, path, None)
    inputs = cli._inputs(module, prog, None, np.random.default_rng(5))
    times = {}
    t = time.perf_counter()
    options = {k: int(v) for k, v in (a.split("=") for a in sys.argv[2:])}
    c = ember.compile(prog, bootstrap="auto", **options)
    times["compile"] = time.perf_counter() - t
    report = c.cost_report
    print(report[report.index("  bootstrap placement") :].split("\n    bootstrap 1")[0])
    print(re.search(r"key memory: .*", report)[0])
    p = c.manifest["params"]
    print(f"chain: {len(p['q'])} Q primes, {len(p['p'])} P primes, dnum {p['dnum']}")
    t = time.perf_counter()
    keys = c.keygen()
    times["keygen"] = time.perf_counter() - t
    t = time.perf_counter()
    cts = c.encrypt(keys, **inputs)
    times["encrypt"] = time.perf_counter() - t
    t = time.perf_counter()
    out = c.run(keys.evaluation, cts)
    times["run"] = time.perf_counter() - t
    t = time.perf_counter()
    got = c.decrypt(keys, out)
    times["decrypt"] = time.perf_counter() - t
    want = prog(**inputs)
    err = np.abs(got - want)
    print(
        f"max error vs numpy 2^{np.log2(err.max()):.1f}, mean "
        f"{-np.mean(np.log2(np.maximum(err, 2.0**-60))):.1f} bits"
    )
    if name == "logistic_regression_training":
        print(
            f"training accuracy: numpy {module.accuracy(inputs['z'], want):.3f},"
            f" encrypted {module.accuracy(inputs['z'], got):.3f}"
        )
    print(", ".join(f"{k} {v:.1f} s" for k, v in times.items()))
    rss = Path("/proc/self/status").read_text()
    print(re.search(r"VmHWM:\s+(\d+) kB", rss)[0])


if __name__ == "__main__":
    main()
