"""The ``ember`` command.

  ember compile FILE.py [--function NAME] --target cpu|cuda -o DIR
                [--print-ir-after-all] [--emit fhe|ckks|rns|kernel|source]
                [compiler options]
  ember run FILE.py [--function NAME] [--target cpu|cuda] [--inputs FILE.npz]
                [--seed N] [--repeat N] [--no-graphs] [--no-arena]
                [--no-in-place] [--no-concurrent] [--no-prioritized]
                [compiler options]

Compiler options (both commands; each is a field of ember.CompileOptions):
--security 128|none, --params NAME, --log-n N, --scale-bits N, --dnum N,
--extra-levels N, --rescale lazy|eager, --[no-]rescale-outputs,
--[no-]lazy-relin, --[no-]hoisting, --[no-]double-hoisting,
--[no-]merge-moddown, --[no-]fusion, --[no-]expand-modswitch, --[no-]lazy-sums,
--[no-]lift-rotation, --[no-]lift-addends, --[no-]hoist-siblings,
--lanes 0|1|2|4, --concurrency N, --[no-]ks-overlap,
--keyswitch auto|hybrid|klss, --key-memory-mib N, --klss-gamma N, --klss-t N.

``run`` compiles, generates keys, encrypts random inputs (uniform in each
input's declared range, [-1, 1] by default, or the file's ``inputs(rng)``
function, or the arrays of ``--inputs``),
runs, decrypts and prints the largest error against the same function run
on plain numpy, with the time of each step.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

import ember
from ember.compiled import STAGES, Compiled
from ember.errors import EmberError
from ember.options import CompileOptions, cli_flags
from ember.ranges import DEFAULT_RANGE
from ember.tfhe import TfheProgram
from ember.tracing import Program


def _load_module(path: Path) -> ModuleType:
    if not path.exists():
        raise EmberError(f"{path}: no such file", str(path), 0)
    spec = importlib.util.spec_from_file_location(f"ember_user_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise EmberError(f"{path}: not a Python file", str(path), 0)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.resolve().parent))
    spec.loader.exec_module(module)
    return module


def _find_program(module: ModuleType, path: Path, name: str | None) -> Program:
    programs = {
        k: v for k, v in vars(module).items() if isinstance(v, Program | TfheProgram)
    }
    if name is not None:
        if name not in programs:
            raise EmberError(
                f"{path} has no @ember.program named '{name}' (it has: "
                f"{', '.join(programs) or 'none'})",
                str(path),
                0,
            )
        return programs[name]
    if len(programs) != 1:
        raise EmberError(
            f"{path} defines {len(programs)} @ember.program functions "
            f"({', '.join(programs) or 'none'}): choose one with --function",
            str(path),
            0,
        )
    return next(iter(programs.values()))


class _Steps:
    """Prints each step with its time; a step that runs long shows that it
    is alive (elapsed seconds, or done/total from a progress callback)."""

    def __init__(self) -> None:
        self.times: dict[str, float] = {}
        self._tty = sys.stderr.isatty()

    @contextmanager
    def step(self, label: str) -> Iterator[Callable[[int, int], None]]:
        state = {"text": ""}
        done = threading.Event()
        start = time.perf_counter()

        def progress(k: int, n: int) -> None:
            state["text"] = f" {k}/{n}"

        def ticker() -> None:
            last = 0.0
            while not done.wait(0.5):
                t = time.perf_counter() - start
                if self._tty:
                    sys.stderr.write(f"\r  {label} ...{state['text']} {t:5.1f} s")
                    sys.stderr.flush()
                elif t - last >= (10 if last else 2):  # at 2 s, then every 10 s
                    sys.stderr.write(
                        f"  {label}: still running{state['text']}, {t:.0f} s\n"
                    )
                    last = t

        thread = threading.Thread(target=ticker, daemon=True)
        thread.start()
        try:
            yield progress
        finally:
            done.set()
            thread.join()
            t = time.perf_counter() - start
            self.times[label] = t
            if self._tty:
                sys.stderr.write("\r\033[K")
            print(f"  {label:<22} {t * 1e3:10.1f} ms", flush=True)


def _options(args: argparse.Namespace) -> CompileOptions:
    """The compiler options given as flags (the others at their defaults)."""
    given = {
        f.name: getattr(args, f.name)
        for f in dataclasses.fields(CompileOptions)
        if getattr(args, f.name) is not None
    }
    return CompileOptions.from_kwargs(**given)


def _describe(c: Compiled) -> str:
    p = c.manifest["params"]
    keys = c.manifest["keys"]
    return (
        f"{c.name}: N = 2^{p['log_n']}, {len(p['q'])} Q + {len(p['p'])} P primes, "
        f"dnum {p['dnum']}, {c.slots} slots; keys: "
        f"{'relin + ' if keys['relin'] else ''}{len(keys['galois'])} Galois"
        + (
            f"; KLSS: {'relin + ' if keys.get('klss_relin') else ''}"
            f"{len(keys.get('klss_galois', []))} Galois"
            if keys.get("klss_relin") or keys.get("klss_galois")
            else ""
        )
        + _describe_devices(c.manifest.get("devices"))
    )


def _describe_devices(dev: dict | None) -> str:
    """The partition over GPUs (``devices=k``): the prediction, or why the
    program stayed on one GPU; with whole operations per GPU, the model's
    estimate of a limb split beside it (``partition="limbs"``)."""
    if not dev:
        return ""
    one = dev.get("one_device_predicted_us", 0.0) / 1e3
    split = dev.get("limb_split_predicted_us")
    limbs = dev.get("partition") == "limbs"
    estimate = (
        f"\n  limbs split over {dev.get('requested', dev['count'])} GPUs "
        f"(model, partition='limbs'): {split[0] / 1e3:.2f}-{split[1] / 1e3:.2f} ms"
        if split and not limbs
        else ""
    )
    if dev["count"] == 1:
        return (
            f"\n  devices={dev.get('requested', 1)}: kept on one GPU (predicted "
            f"{one:.2f} ms there, no gain from more)" + estimate
        )
    many = max(dev.get("predicted_us", [0.0])) / 1e3
    asked = dev.get("requested")
    fewer = f" (of {asked} asked: more gain nothing)" if asked else ""
    how = ", limbs split" if limbs else ""
    return (
        f"\n  devices={dev['count']}{fewer}{how}: predicted {many:.2f} ms "
        f"(one GPU {one:.2f} ms), {dev.get('transfer_bytes', 0) / 1e6:.0f} MB "
        "moved between GPUs" + estimate
    )


def cmd_compile(args: argparse.Namespace) -> int:
    path = Path(args.file)
    prog = _find_program(_load_module(path), path, args.function)
    c = ember.compile(
        prog,
        args.target,
        _options(args),
        print_ir_after_all=args.print_ir_after_all,
    )
    out = c.save(args.output)
    if args.emit == "source":
        sys.stdout.write(c.source)
    elif args.emit:
        sys.stdout.write(c.ir(args.emit))
    print(f"{_describe(c)}\nwrote {out}/", file=sys.stderr)
    return 0


def _inputs(
    module: ModuleType, prog: Program, npz: str | None, rng: np.random.Generator
) -> dict[str, Any]:
    if npz:
        with np.load(npz) as data:
            return {k: data[k] for k in data.files}
    sampler = getattr(module, "inputs", None)
    if callable(sampler):
        return dict(sampler(rng))
    out = {}
    for name, spec in zip(prog.inputs, prog.specs, strict=True):
        if prog.plaintext_modulus:  # scheme="bgv"/"bfv": integers mod t
            out[name] = rng.integers(0, prog.plaintext_modulus, spec.slots)
            continue
        lo, hi = prog.ranges.get(name, DEFAULT_RANGE)
        v = rng.uniform(lo, hi, spec.slots)
        if prog.dtype is complex:
            v = v + 1j * rng.uniform(lo, hi, spec.slots)
        out[name] = v
    return out


def _run_tfhe(prog: TfheProgram, args: argparse.Namespace, rng) -> int:
    """ember run for scheme="tfhe": random integers of each input's type,
    the program run encrypted and in Python (wrapped to the output types)."""
    inputs = {k: int(rng.integers(s.lo, s.hi)) for k, s in prog.inputs.items()}
    steps = _Steps()
    print(f"ember run {args.file} ({prog.name}, scheme tfhe, target {args.target})")
    with steps.step("compile"):
        c = ember.compile(prog, args.target, _options(args))
    print(f"  {c!r}; log2 failure per gate {c.stats['log2_gate_failure']:.1f}")
    with steps.step("key generation"):
        keys = c.keygen()
    with steps.step("encrypt"):
        cts = c.encrypt(keys, **inputs)
    times = []
    for _ in range(max(1, args.repeat)):
        t = time.perf_counter()
        out = c.run(keys.evaluation, cts)
        times.append(time.perf_counter() - t)
    print(f"  run (server) x{len(times)}: median {np.median(times) * 1e3:.1f} ms")
    with steps.step("decrypt"):
        got = c.decrypt(keys, out)
    want = prog.fn(**inputs)
    got_t = got if isinstance(got, tuple) else (got,)
    want_t = want if isinstance(want, tuple) else (want,)
    want_t = tuple(s.wrap(int(w)) for s, w in zip(c.outputs, want_t, strict=True))
    print(f"  inputs {inputs}")
    print(f"  decrypted {got_t}, Python {want_t}")
    if got_t != want_t:
        print("MISMATCH")
        return 1
    print("exact: every output equals Python's")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    path = Path(args.file)
    module = _load_module(path)
    prog = _find_program(module, path, args.function)
    rng = np.random.default_rng(args.seed)
    if isinstance(prog, TfheProgram):
        return _run_tfhe(prog, args, rng)
    inputs = _inputs(module, prog, args.inputs, rng)
    steps = _Steps()
    print(f"ember run {path} ({prog.name}, target {args.target})")
    with steps.step("compile"):
        c = ember.compile(prog, args.target, _options(args))
    print(f"  {_describe(c)}")
    for a in c.approximations:
        lo, hi = a["interval"]
        print(
            f"  {Path(a['file']).name}:{a['line']}: {a['function']} on"
            f" [{lo:g}, {hi:g}] by a degree-{a['degree']} polynomial,"
            f" max error {a['max_error']:.2e} (the numpy reference is the"
            " polynomial)"
        )
    with steps.step("key generation") as progress:
        keys = c.keygen(progress)
    plain = {k: v for k, v in inputs.items() if k in c.plain_inputs}
    with steps.step("encrypt"):
        cts = c.encrypt(keys, **{k: v for k, v in inputs.items() if k not in plain})
    gpu = args.target == "cuda"
    if gpu:
        c.graphs = not args.no_graphs
        c.arena = not args.no_arena
        c.in_place = not args.no_in_place
        c.concurrent = not args.no_concurrent
        c.prioritized = not args.no_prioritized
    with steps.step("run (server)"):
        out = c.run(keys.evaluation, cts, **plain)
    if gpu:
        t = c.last_run
        print(
            f"  on the GPU: upload {t['upload']:.2f} ms, run {t['run']:.3f} ms,"
            f" download {t['download']:.2f} ms"
        )
    if args.repeat > 1:
        # On the GPU the inputs stay there: the runs chain without copies.
        run_cts = c.to_device(cts) if gpu else cts
        times, gpu_ms = [], []
        for _ in range(args.repeat):
            t = time.perf_counter()
            c.run(keys.evaluation, run_cts, **plain)
            times.append(time.perf_counter() - t)
            if gpu:
                gpu_ms.append(c.last_run["run"])
        print(
            f"  run x{args.repeat}: median {np.median(times) * 1e3:.1f} ms,"
            f" min {min(times) * 1e3:.1f} ms"
        )
        if gpu:
            mode = "one CUDA Graph" if c.graphs else "step by step"
            kernels = f", {c.last_run['kernels']:.0f} kernels" if c.graphs else ""
            print(
                f"  GPU time x{args.repeat} ({mode}{kernels}): median"
                f" {np.median(gpu_ms):.3f} ms, min {min(gpu_ms):.3f} ms"
            )
    with steps.step("decrypt"):
        got = c.decrypt(keys, out)
    with steps.step("numpy reference"):
        want = prog(**inputs)
    got_t = got if isinstance(got, tuple) else (got,)
    want_t = want if isinstance(want, tuple) else (want,)
    if c.plain_modulus:  # BGV or BFV: exact
        budgets = c.measure_noise_budgets(keys, out)
        print(
            f"  noise budget (bits) estimated {c.noise_budgets}," f" measured {budgets}"
        )
        if not all(np.array_equal(g, w) for g, w in zip(got_t, want_t, strict=True)):
            print("MISMATCH")
            return 1
        print(f"exact: every output equals numpy's arithmetic mod {c.plain_modulus}")
        return 0
    worst = 0.0
    for i, (g, w) in enumerate(zip(got_t, want_t, strict=True)):
        err = float(np.max(np.abs(g - (w if c.is_complex else np.real(w)))))
        scale = float(np.max(np.abs(w)))
        worst = max(worst, err)
        bits = np.log2(max(err, 1e-300))
        print(
            f"  output {i}: max |error| = {err:.3e} (2^{bits:.1f}),"
            f" max |value| = {scale:.3g}"
        )
    print(f"max error against numpy: {worst:.3e}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="ember",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = ap.add_subparsers(dest="command", required=True)
    comp = sub.add_parser("compile", help="compile a program into an artifact folder")
    run = sub.add_parser(
        "run", help="compile, encrypt, run, decrypt, compare with numpy"
    )
    for p in (comp, run):
        p.add_argument("file", help="a Python file defining an @ember.program")
        p.add_argument("--function", help="which program, when the file has several")
        group = p.add_argument_group("compiler options (ember.CompileOptions)")
        for flag, kwargs in cli_flags():
            group.add_argument(flag, **kwargs)
    comp.add_argument("--target", choices=["cpu", "cuda"], required=True)
    comp.add_argument("-o", "--output", required=True, help="artifact folder")
    comp.add_argument("--print-ir-after-all", action="store_true")
    comp.add_argument("--emit", choices=[*STAGES, "source"], help="print this stage")
    run.add_argument("--target", choices=["cpu", "cuda"], default="cpu")
    run.add_argument("--inputs", help="an .npz file with one array per input name")
    run.add_argument("--seed", type=int, help="seed of the random inputs")
    run.add_argument(
        "--repeat", type=int, default=1, help="time the run step this many more times"
    )
    run.add_argument(
        "--no-graphs",
        action="store_true",
        help="target cuda: enqueue the steps one by one instead of one CUDA Graph",
    )
    run.add_argument(
        "--no-arena",
        action="store_true",
        help="target cuda: take each buffer from the device's pool instead of "
        "the planned arena",
    )
    run.add_argument(
        "--no-in-place",
        action="store_true",
        help="target cuda: copy the inputs into the graph's buffers and the "
        "outputs out of them instead of pointing the graph at them",
    )
    run.add_argument(
        "--no-concurrent",
        action="store_true",
        help="target cuda: capture the graph as one chain in program order "
        "instead of letting independent steps run side by side",
    )
    run.add_argument(
        "--no-prioritized",
        action="store_true",
        help="target cuda: leave the order of independent kernels to the "
        "graph instead of running those on its longest chain first",
    )
    args = ap.parse_args(argv)
    try:
        return cmd_compile(args) if args.command == "compile" else cmd_run(args)
    except EmberError as err:
        print(f"ember: error: {_where(err)}{err.message}", file=sys.stderr)
        return 1


def _where(err: EmberError) -> str:
    """The "file:line: " of an error, unless it is the command itself (an error
    about a flag is located at the caller of ember.compile, which is the
    `ember` launcher or runpy here)."""
    if not err.filename or not Path(err.filename).is_file():
        return ""
    path = Path(err.filename).resolve()
    for prefix in {sys.prefix, sys.base_prefix}:
        if path.is_relative_to(Path(prefix).resolve()):
            return ""
    return f"{err.filename}:{err.lineno}: "


if __name__ == "__main__":
    sys.exit(main())
