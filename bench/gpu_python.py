"""Runs the artifacts of bench/make_python_gpu_artifacts.py on the GPU from
Python, as a user would (``ember.load(dir).run``), on the GPU host (no
compiler needed): for every program, fresh keys and the inputs of
inputs.npz encrypted once, then

- the CPU artifact's run (the reference residues),
- the CUDA artifact's run with everything on (graph and arena; the first
  run captures the graph), with graphs off and with the arena off (pool
  buffers): output residues compared with the CPU's, every residue;
  decrypted outputs compared with numpy;
- the graph in place (Compiled.in_place, "in_place_checks"): a replay on
  another encryption of the inputs against the step-by-step run on it,
  the device inputs unchanged, an earlier run's outputs intact after
  later runs; and timed with in_place off ("copies");
- RUNS timed runs of each mode on inputs already on the GPU (CUDA events
  around the run, ``Compiled.last_run["run"]``): median and minimum;
- kernel launches per graph replay; the run's device memory (the pool's
  growth over the first two runs, less the constants and the outputs)
  against the plan's arena;
- the DAG in the graph's own order (Compiled.prioritized = False): its
  residues and its time ("unprioritized");
- the graph as one chain in program order (Compiled.concurrent = False):
  its residues and its time ("chain"), and the nodes on the longest path
  of either graph;
- the <name>-cuda-nofuse twin (fusion=False) and the <name>-cuda-nohoist
  twin (hoist_siblings=False), where present, timed the same way;
- for the set-B programs with one (set_b.one_by_one), the same operations
  issued one by one through the runtime's hand-written API
  (ember_runtime.CudaEvaluator), timed with CUDA events around the calls,
  and its decryption against the compiled program's.

Prints one JSON object per program and a markdown table at the end.

    python3 bench/gpu_python.py out/py_gpu [RUNS=21]
"""

from __future__ import annotations

import importlib
import json
import lzma
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

# A first context before numpy: on the GPU host (Python 3.12 from
# /opt/_internal, numpy 2.5.2 with scipy-openblas), the process's first
# ember_runtime.Context crashes (segfault) when numpy's core is already
# loaded, even with OMP_NUM_THREADS=1; once one context exists, later ones
# work. Not seen here or in the C++ tests; cause not found yet (no gdb on
# that host; see bench/RESULTS.md). Found on PYTHONPATH.
_er = importlib.import_module("ember_runtime")
_er.Context(
    _er.ParamSpec(log_n=13, q_bits=[50, 40], p_bits=[50], dnum=2, insecure=True)
)

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "frontend"))

import ember  # noqa: E402
from ember import _toolchain  # noqa: E402
from ember.compiled import Ciphertexts  # noqa: E402

# Artifacts of bench/make_python_gpu_artifacts.py compiled with
# security="none" (its INSECURE list).
INSECURE = {"bootstrap13"}
# x.bootstrap(): the identity on plain values; precision reported in bits.
BOOTSTRAPS = {
    "bootstrap13",
    "bootstrap16",
    "bootstrap16_lift_off",  # lift_addends=False
    "bootstrap16_s14",
    "bootstrap16_s12",
    "bootstrap16_w32",
    "bootstrap16_cos34",  # the degree-48 cosine (bootstrap_cosine_bits=34)
    "bootstrap16_dh_off",  # double_hoisting=False
    "bootstrap16_w32_dh_off",
}
# bootstrap16 stopped after a phase (bootstrap_stop_after): no reference
# value; their times against bootstrap16's give the phases' times.
PHASES = {
    "bootstrap16_coeff_to_slot",
    "bootstrap16_eval_mod",
    "bootstrap16_cos34_eval_mod",
    "bootstrap16_dh_off_coeff_to_slot",
    "bootstrap16_dh_off_eval_mod",
}
# The same at 32-bit words (bootstrap16_w32).
PHASES32 = {"bootstrap16_w32_coeff_to_slot", "bootstrap16_w32_eval_mod"}


def same(a, b) -> bool:
    """Every residue of two host ciphertext lists equal."""
    if len(a) != len(b):
        return False
    for x, y in zip(a, b, strict=True):
        if x.level != y.level or x.scale != y.scale:
            return False
        if not np.array_equal(np.asarray(x.residues()), np.asarray(y.residues())):
            return False
    return True


def timed(c, keys, cts, runs: int, graphs: bool, arena: bool = True) -> list[float]:
    c.graphs, c.arena = graphs, arena
    c.run(keys.evaluation, cts)  # warm-up (captures the graph)
    out = []
    for _ in range(runs):
        c.run(keys.evaluation, cts)
        out.append(c.last_run["run"])
    return out


ORDER = [
    "logistic_regression",
    "polynomial",
    "variance",
    "dense_layer",
    "mlp",
    "tanh_layer",
    "rot8_sum_B",
    "polynomial_B",
    "dense256_B",
    "mul_relin_B",
    "mul_relin_B_norescale",
    "mul_relin_B_norescale_lift_off",
    "rotate_B",
    "bootstrap13",
    "bootstrap16",
    "bootstrap16_coeff_to_slot",
    "bootstrap16_eval_mod",
    "bootstrap16_s14",
    "bootstrap16_s12",
    "klss_form",
    "klss_form_off",
    "poly_net",
    "logistic_regression_training",
    # 32-bit twins (make_python_gpu_artifacts.py W32_EXAMPLES, W32_SET_B).
    "logistic_regression_w32",
    "polynomial_w32",
    "variance_w32",
    "dense_layer_w32",
    "rot8_sum_B_w32",
    "polynomial_B_w32",
    "mul_relin_B_w32",
    "mul_relin_B_norescale_w32",
    "rotate_B_w32",
    "tanh_layer_s46",
    "tanh_layer_s46_w32",
    "polynomial_s46",
    "polynomial_s46_w32",
    "bootstrap16_w32",
    "bootstrap16_w32_coeff_to_slot",
    "bootstrap16_w32_eval_mod",
    "bootstrap16_w32_dh_off",
]


def program_inputs(folder: Path, name: str) -> dict[str, np.ndarray]:
    """The inputs of program `name` in folder/inputs.npz (saved as
    <name>/<input>)."""
    with np.load(folder / "inputs.npz") as arrays:
        return {
            k.split("/")[1]: arrays[k] for k in arrays.files if k.startswith(name + "/")
        }


def unpack(folder: Path, name: str) -> None:
    """Large files travel xz-compressed (make_python_gpu_artifacts.py):
    unpacked in place, once."""
    for packed in folder.glob(f"{name}-*/*.xz"):
        with lzma.open(packed) as src, open(packed.with_suffix(""), "wb") as dst:
            shutil.copyfileobj(src, dst, 1 << 24)
        packed.unlink()


def load_variant(path: Path, cuda, security=128):
    """A twin artifact beside `cuda`. Where its program, manifest, data and
    options are the same (only the kernel IR or the emitted source differs:
    bench/reemit_cuda.py), it takes `cuda`'s program hash, context and
    device, so `cuda`'s keys and device-resident inputs serve it."""
    twin = ember.load(path, security=security)
    if (
        all(
            twin.meta["sha256"][kind] == cuda.meta["sha256"][kind]
            for kind in ("fhe", "manifest", "data")
        )
        and twin.meta["options"] == cuda.meta["options"]
    ):
        twin.program_hash = cuda.program_hash
        twin._ctx, twin._device = cuda._context(), cuda._gpu()
    return twin


def run_one(folder: Path, name: str, runs: int) -> dict:
    """Every measurement of one program (see the module docstring)."""
    inputs = program_inputs(folder, name)
    step = Step(name)
    t = time.perf_counter()
    # Programs compiled in the named insecure test mode (N = 2^13
    # bootstrapping) load only when the caller names that mode too.
    security = "none" if name in INSECURE else 128
    unpack(folder, name)
    cuda = ember.load(folder / f"{name}-cuda", security=security)
    cpu = ember.load(folder / f"{name}-cpu", security=security)
    keys = cuda.keygen()
    cts = cuda.encrypt(keys, **inputs)
    keygen_s = time.perf_counter() - t
    step("keys and inputs")
    # The CPU reference on the same ciphertexts and keys (same parameters;
    # the programs' hashes differ, so through the runtime).
    ref = cpu._program().run(cuda._context(), keys.evaluation.keys, list(cts), [])
    step("CPU run")
    # Device memory of a run: the pool's growth over the first runs (keys
    # and inputs already there), less the encoded constants (loaded once,
    # like keys) and the outputs handed back.
    device = cuda._gpu()
    cuda._gpu_keys(keys.evaluation)
    on_gpu = cuda.to_device(cts)
    pool0 = device.pool_bytes
    cuda.graphs, cuda.arena = True, True
    first = cuda.run(keys.evaluation, on_gpu)  # eager run + capture
    step("GPU run 1 (captures the graph)")
    second = cuda.run(keys.evaluation, on_gpu)  # graph replay
    step("GPU run 2 (replay)")
    program = cuda._program()
    word_bytes = cuda.word // 8
    out_bytes = sum(
        ct.parts * (ct.level + 1) * (1 << cuda.manifest["params"]["log_n"]) * word_bytes
        for ct in list(first) + list(second)
    )
    run_bytes = device.pool_bytes - pool0 - program.constant_bytes - out_bytes
    arena_bytes = program.arena_bytes
    second_host = cuda.from_device(second)
    upload_t = time.perf_counter()
    cuda.to_device(cts)
    upload = (time.perf_counter() - upload_t) * 1e3
    down_t = time.perf_counter()
    cuda.from_device(second)
    download = (time.perf_counter() - down_t) * 1e3
    cuda.graphs = False
    eager = cuda.run(keys.evaluation, on_gpu)
    step("GPU run, step by step")
    cuda.graphs, cuda.arena = True, False
    # Pool buffers (arena off) are a measurement mode: a failure there is
    # reported in the row, not fatal (seen once: bootstrap16_eval_mod, "ntt
    # launch: a row outside its buffer list").
    try:
        pooled = cuda.run(keys.evaluation, on_gpu)
        pool_error = None
    except ember.EmberError as err:
        pooled, pool_error = None, str(err)
    step("GPU run, pool buffers")
    identical = all(
        same(ref, list(cuda.from_device(x)))
        for x in (first, second, eager, pooled)
        if x is not None
    )
    # In place: the graph reads the inputs and writes the outputs where
    # they are. Another encryption of the inputs (other residues, elsewhere
    # on the GPU): the replay must follow it (the graph's own input buffers
    # still hold the first inputs) and give the residues of the
    # step-by-step run, which copies them; no run may write into an input,
    # and a run's outputs must survive the next runs (each run's are new).
    cuda.graphs, cuda.arena = True, True
    kept = cuda.run(keys.evaluation, on_gpu)
    in_place = bool(cuda.last_run.get("in_place", 0.0))
    copies_because = cuda.copies_because
    other = cuda.to_device(cuda.encrypt(keys, **inputs))
    moved = cuda.run(keys.evaluation, other)
    cuda.run(keys.evaluation, on_gpu)
    cuda.graphs = False
    moved_eager = cuda.run(keys.evaluation, other)
    cuda.graphs = True
    inputs_ok = (
        same(list(cts), list(cuda.from_device(on_gpu)))
        and same(list(cuda.from_device(moved_eager)), list(cuda.from_device(moved)))
        and same(ref, list(cuda.from_device(kept)))
    )
    step("GPU run, other inputs")
    got = cuda.decrypt(keys, second_host)
    err = (
        float("nan")
        if name in PHASES | PHASES32
        else max_error(got, cuda_reference(name, inputs))
    )
    if name in BOOTSTRAPS:  # OpenFHE's and Lattigo's measure: bits per slot
        bits = -np.log2(np.abs(got - inputs["x"]))
        row_bits = {"mean_bits": float(bits.mean()), "min_bits": float(bits.min())}
    else:
        row_bits = {}
    graph_ms = timed(cuda, keys, on_gpu, runs, True)
    kernels = int(cuda.last_run["kernels"])
    path_nodes = int(cuda.last_run.get("path_nodes", 0))
    # The graph as one chain in program order (concurrent=False): its
    # residues and its time.
    cuda.concurrent = False
    chain = cuda.run(keys.evaluation, on_gpu)
    chain_ok = same(ref, list(cuda.from_device(chain)))
    chain_ms = timed(cuda, keys, on_gpu, runs, True)
    chain_path = int(cuda.last_run.get("path_nodes", 0))
    cuda.concurrent = True
    # The DAG in the graph's own order (prioritized=False): its residues
    # and its time.
    cuda.prioritized = False
    flat = cuda.run(keys.evaluation, on_gpu)
    chain_ok = chain_ok and same(ref, list(cuda.from_device(flat)))
    flat_ms = timed(cuda, keys, on_gpu, runs, True)
    cuda.prioritized = True
    cuda.in_place = False
    copied_ms = timed(cuda, keys, on_gpu, runs, True)
    cuda.in_place = True
    eager_ms = timed(cuda, keys, on_gpu, runs, False)
    pool_ms = [float("nan")]
    if pool_error is None:
        try:  # the pool-buffer failure can come in a later run too
            pool_ms = timed(cuda, keys, on_gpu, runs, True, arena=False)
        except ember.EmberError as failure:
            pool_error = str(failure)
    step("timed runs")
    row = dict(row_bits)
    if pool_error is not None:
        row["pool_error"] = pool_error
    # Twins: the same program compiled with fusion=False (-cuda-nofuse)
    # or hoist_siblings=False (-cuda-nohoist), timed the same way; and any
    # other <name>-cuda-<variant> (bench/reemit_cuda.py: the same kernel IR
    # emitted again, e.g. with other lanes), which runs on this program's
    # keys and inputs and whose residues are compared with the CPU's too.
    twins = sorted(p.name[len(name) + 6 :] for p in folder.glob(f"{name}-cuda-*"))
    for twin in twins:
        path = folder / f"{name}-cuda-{twin}"
        plain = load_variant(path, cuda, security)
        if plain.program_hash == cuda.program_hash:
            plain_keys, plain_cts = keys, on_gpu
            out = plain.run(keys.evaluation, on_gpu)
            row[f"{twin}_identical"] = same(ref, list(plain.from_device(out)))
        else:
            plain_keys = plain.keygen()  # its own program hash: its own keys
            plain_cts = plain.to_device(plain.encrypt(plain_keys, **inputs))
        twin_ms = timed(plain, plain_keys, plain_cts, runs, True)
        row[f"{twin}_ms"] = float(np.median(twin_ms))
        row[f"{twin}_min_ms"] = float(min(twin_ms))
        row[f"{twin}_kernels"] = int(plain.last_run["kernels"])
        step(f"twin {twin}")
    baseline = one_by_one(cuda, keys, on_gpu, name, runs)
    if baseline:
        row.update(baseline)
        step("one by one")
    return row | {
        "pool_ms": float(np.median(pool_ms)),
        "run_bytes": int(run_bytes),
        "arena_bytes": int(arena_bytes),
        "program": name,
        "identical": identical and inputs_ok and chain_ok,
        "chain_ms": float(np.median(chain_ms)),
        "chain_min_ms": float(min(chain_ms)),
        "unprioritized_ms": float(np.median(flat_ms)),
        "path_nodes": path_nodes,
        "chain_path_nodes": chain_path,
        "in_place": in_place,
        "copies_because": copies_because,
        "in_place_checks": inputs_ok,
        "copied_ms": float(np.median(copied_ms)),
        "max_error": err,
        "graph_ms": float(np.median(graph_ms)),
        "graph_min_ms": float(min(graph_ms)),
        "eager_ms": float(np.median(eager_ms)),
        "eager_min_ms": float(min(eager_ms)),
        "kernels_per_run": kernels,
        "upload_ms": upload,
        "download_ms": download,
        "pool_bytes": cuda._gpu().pool_bytes,
        "plan_bytes": int(re.search(r"arena (\d+)", cuda.meta["memory"])[1]),
        "keygen_encrypt_s": keygen_s,
    }


def one_by_one(cuda, keys, on_gpu, name: str, runs: int) -> dict | None:
    """The same operations issued one by one through the runtime's
    hand-written API (set_b.one_by_one), on the same device ciphertexts
    and keys: median GPU time (CUDA events around the calls) and the
    decrypted result against the compiled program's."""
    sys.path.insert(0, str(ROOT / "bench" / "programs"))
    import set_b

    if cuda.word == 32:  # CudaEvaluator is 64-bit (gpu_bench times Evaluator32)
        return None
    er = _toolchain.runtime()
    device = cuda._gpu()
    ev = er.CudaEvaluator(device, cuda._gpu_keys(keys.evaluation))
    ctx = cuda._context()
    encoder = er.Encoder(ctx)
    primes = cuda.manifest["params"]["q"]
    cache = {}

    def encode(values, level):
        key = (values.tobytes(), level)
        if key not in cache:  # encoded and uploaded once, like constants
            pt = encoder.encode(
                values, level=level, scale=float(primes[level]), slots=cuda.slots
            )
            cache[key] = ev.upload_plaintext(pt)
        return cache[key]

    cts = list(on_gpu)
    log_n = cuda.manifest["params"]["log_n"]
    out = set_b.one_by_one(name, ev, cts, encode, log_n)
    if out is None:
        return None
    want = cuda.decrypt(keys, cuda.run(keys.evaluation, on_gpu))
    host = Ciphertexts([device.download(out)], on_gpu.program_hash, "outputs")
    got = cuda.decrypt(keys, host)
    ms = [
        er.cuda_time_ms(device, lambda: set_b.one_by_one(name, ev, cts, encode, log_n))
        for _ in range(runs)
    ]
    return {
        "one_by_one_ms": float(np.median(ms)),
        "one_by_one_vs_compiled_max_diff": float(np.max(np.abs(got - want))),
    }


class Step:
    """Prints the phases of a program's run (to find where one fails)."""

    def __init__(self, name: str) -> None:
        self.name, self.start = name, time.perf_counter()

    def __call__(self, what: str) -> None:
        elapsed = time.perf_counter() - self.start
        print(
            f"# {self.name}: {what} done ({elapsed:.1f} s)", file=sys.stderr, flush=True
        )


def main() -> None:
    folder = Path(sys.argv[1])
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 21
    if len(sys.argv) > 3:  # one program, in a process of its own
        print(json.dumps(run_one(folder, sys.argv[3], runs)), flush=True)
        return
    er = _toolchain.runtime()
    print(f"GPU: {er.cuda_device_name()}", flush=True)
    arrays = np.load(folder / "inputs.npz")
    # Programs with inputs and both artifacts here (a folder made by copying
    # some programs next to another folder's inputs.npz holds fewer).
    present = {
        n
        for n in {k.split("/")[0] for k in arrays.files}
        if (folder / f"{n}-cuda" / "ember.json").exists()
        and (folder / f"{n}-cpu" / "ember.json").exists()
    }
    # GPU_PYTHON_ONLY=a,b: only those programs of the folder.
    only = os.environ.get("GPU_PYTHON_ONLY")
    if only:
        present &= set(only.split(","))
    rows, failed = [], []
    # ORDER first, then any other program of the folder (none is skipped).
    names = [n for n in ORDER if n in present] + sorted(present - set(ORDER))
    for name in names:
        # A crash in one program (a segfault in the runtime) loses only it.
        run = subprocess.run(
            [
                sys.executable,
                "-X",
                "faulthandler",
                __file__,
                str(folder),
                str(runs),
                name,
            ],
            capture_output=True,
            text=True,
        )
        sys.stderr.write(run.stderr)
        if run.returncode != 0:
            print(f"{name}: FAILED (exit {run.returncode})", flush=True)
            failed.append(name)
            continue
        row = json.loads(run.stdout.strip().splitlines()[-1])
        print(json.dumps(row), flush=True)
        rows.append(row)
    print()
    print(
        "| program | residues identical to CPU | max error vs numpy"
        " | everything on ms (median / min) | graphs off ms | arena off ms"
        " | kernels per run | upload / download ms"
        " | run memory / planned arena (bytes, ratio)"
        " | fusion off ms (kernels) | one by one ms (everything on / it) |"
        " hoisting off ms (kernels) | in place / copies ms |"
        " one chain ms (nodes on the longest path: concurrent / chain) |"
        " unprioritized ms |"
    )
    print(
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
        " --- | --- | --- |"
    )
    for r in rows:
        same_cpu = "yes" if r["identical"] else "NO"
        print(
            f"| {r['program']} | {same_cpu} | {r['max_error']:.2e} |"
            f" {r['graph_ms']:.3f} / {r['graph_min_ms']:.3f} |"
            f" {r['eager_ms']:.3f} | {r['pool_ms']:.3f} |"
            f" {r['kernels_per_run']} |"
            f" {r['upload_ms']:.2f} / {r['download_ms']:.2f} |"
            f" {r['run_bytes']} / {r['plan_bytes']}"
            f" ({r['run_bytes'] / r['plan_bytes']:.3f}) |"
            + (
                f" {r['nofuse_ms']:.3f} ({r['nofuse_kernels']}) |"
                if "nofuse_ms" in r
                else " - |"
            )
            + (
                f" {r['one_by_one_ms']:.3f}"
                f" ({r['graph_ms'] / r['one_by_one_ms']:.2f}x) |"
                if "one_by_one_ms" in r
                else " - |"
            )
            + (
                f" {r['nohoist_ms']:.3f} ({r['nohoist_kernels']}) |"
                if "nohoist_ms" in r
                else " - |"
            )
            + (
                f" {'yes' if r['in_place'] else 'no'} /" f" {r['copied_ms']:.3f} |"
                if "in_place" in r
                else " - |"
            )
            + (
                f" {r['chain_ms']:.3f} ({r['path_nodes']} / {r['chain_path_nodes']}) |"
                if "chain_ms" in r
                else " - |"
            )
            + (f" {r['unprioritized_ms']:.3f} |" if "unprioritized_ms" in r else " - |")
        )
    ms = {r["program"]: r["graph_ms"] for r in rows}
    for whole in ("bootstrap16", "bootstrap16_dh_off", "bootstrap16_w32"):
        if not {whole, f"{whole}_coeff_to_slot", f"{whole}_eval_mod"} <= ms.keys():
            continue
        cts = ms[f"{whole}_coeff_to_slot"]
        evalmod = ms[f"{whole}_eval_mod"] - cts
        stc = ms[whole] - ms[f"{whole}_eval_mod"]
        print(
            f"\n{whole} phases (CUDA graph medians, differences): ModRaise +"
            f" CoeffToSlot {cts:.2f} ms, EvalMod {evalmod:.2f} ms, SlotToCoeff"
            f" {stc:.2f} ms, total {ms[whole]:.2f} ms"
        )
    if failed or not all(r["identical"] for r in rows):
        sys.exit(1)


def cuda_reference(name: str, inputs: dict[str, np.ndarray]):
    """The program run on plain numpy (its Python function)."""
    sys.path.insert(0, str(ROOT / "bench" / "programs"))
    sys.path.insert(0, str(ROOT / "examples"))
    import set_b

    name = name.removesuffix("_lift_off")  # lift_addends=False: the same
    if name in BOOTSTRAPS:  # x.bootstrap(): the identity on plain values
        return inputs["x"]
    # A 32-bit twin, one at another scale or another key-switching method
    # (<name>_k1_klss / _k1_hybrid): the same function.
    name = re.sub(r"_k1_(klss|hybrid)$", "", name)
    name = name.removesuffix("_w32").removesuffix("_dh_off")
    name = re.sub(r"_s\d+$", "", name.removesuffix("_norescale"))
    if name in set_b.PROGRAMS:
        prog = set_b.PROGRAMS[name]
    elif isinstance(getattr(set_b, name.lower(), None), ember.tracing.Program):
        prog = getattr(set_b, name.lower())  # dense1024_B (issue 18's)
    else:
        # A twin compiled with other options shares its program's module.
        module = __import__(name.removesuffix("_off"))
        prog = next(
            v for v in vars(module).values() if isinstance(v, ember.tracing.Program)
        )
    return prog(**inputs)


def max_error(got, want) -> float:
    got_t = got if isinstance(got, tuple) else (got,)
    want_t = want if isinstance(want, tuple) else (want,)
    return max(
        float(np.max(np.abs(g - np.real(w))))
        for g, w in zip(got_t, want_t, strict=True)
    )


if __name__ == "__main__":
    main()
