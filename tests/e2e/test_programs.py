"""Compile -> build -> run -> decrypt -> compare with numpy, for the
programs in tests/e2e/programs. Bound: every slot within 2^-16 of numpy,
relative to max(1, |value|) (the depth-8 chain x^256 reaches about 13).
Measured: 2^-20.7 (depth8, N = 2^15) to 2^-31 (dot product); a wrong
program is off by far more than the bound."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import ember_runtime as er
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from client import Client  # noqa: E402

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
BOUND = 2.0**-16
W = np.array([0.5, -1.0, 0.25, 2.0, -0.75, 1.5, 0.125, -0.5])


def poly(x):
    return 0.5 * x**3 - 1.5 * x**2 + 0.25 * x + 1


PROGRAMS = {
    "poly_eval": (lambda r: [r.uniform(-1, 1, 8)], lambda x: [poly(x)]),
    "rotation_sum": (lambda r: [r.uniform(-1, 1, 8)], lambda x: [np.full(8, x.sum())]),
    "dot_product": (lambda r: [r.uniform(-1, 1, 8)], lambda x: [np.full(8, x @ W)]),
    "depth8": (lambda r: [r.uniform(0.99, 1.01, 8)], lambda x: [x**256]),
    "two_in_two_out": (
        lambda r: [r.uniform(-1, 1, 8), r.uniform(-1, 1, 8)],
        lambda x, y: [x * y + x, np.roll(x - y, -1)],
    ),
    # Outputs that share polynomials (x twice; -x inside 3 - x).
    "shared_outputs": (lambda r: [r.uniform(-1, 1, 8)], lambda x: [3 - x, -x, x, x]),
}


def ember_compile(
    name: str, build_dir: Path, outdir: Path, options: str = "", target: str = "cpp"
) -> str:
    """Runs compiler/tools/ember-compile; returns its planned-memory line."""
    cmd = [
        sys.executable,
        str(ROOT / "compiler/tools/ember-compile"),
        str(HERE / "programs" / f"{name}.mlir"),
        "-o",
        str(outdir),
        "--target",
        target,
        "--bin-dir",
        str(build_dir / "bin"),
    ]
    if options:
        cmd += ["--options", options]
    run = subprocess.run(cmd, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr + run.stdout
    return run.stdout.splitlines()[0]


def compile_and_build(
    name: str, build_dir: Path, outdir: Path, options: str = ""
) -> Path:
    print(ember_compile(name, build_dir, outdir, options))  # the planned memory
    return Path(
        er.build_program(str(outdir / f"{name}.cpp"), str(outdir / f"{name}.so"))
    )


CASES = [(name, "") for name in sorted(PROGRAMS)] + [
    # ModUp/ModDown expanded by the compiler: BConv, concat and NTTs fused
    # with their prologue/epilogue in generated kernels.
    ("poly_eval", "expand-modswitch=true"),
    ("two_in_two_out", "expand-modswitch=true"),
]


@pytest.mark.parametrize(("name", "options"), CASES)
def test_program(name, options, build_dir, tmp_path, rng):
    make_inputs, reference = PROGRAMS[name]
    library = compile_and_build(name, build_dir, tmp_path, options)
    client = Client(tmp_path / f"{name}.manifest.json")
    inputs = make_inputs(rng)
    cts = client.encrypt(inputs)
    keys = client.evaluation_keys()  # the server gets these, not client.sk
    data = str(tmp_path / f"{name}.data")
    outputs = er.Program(str(library), data).run(client.ctx, keys, cts)
    got = client.decrypt(outputs)
    want = reference(*inputs)
    for g, w in zip(got, want, strict=True):
        err = np.max(np.abs(g - w) / np.maximum(1.0, np.abs(w)))
        assert err < BOUND, f"{name}: max error {err:.3g} (bound {BOUND:.3g})\n{g}\n{w}"


def test_missing_key_is_named(build_dir, tmp_path):
    library = compile_and_build("rotation_sum", build_dir, tmp_path)
    client = Client(tmp_path / "rotation_sum.manifest.json")
    cts = client.encrypt([np.zeros(8)])
    with pytest.raises(Exception, match="Galois key of element"):
        er.Program(str(library)).run(client.ctx, er.EvaluationKeys(), cts)


def test_input_scale_is_checked(build_dir, tmp_path):
    """A 2^30-scale input to a program compiled for 2^40 used to run and
    decrypt 2^10 too small; the program now refuses it by the manifest's
    exact scale, naming the input and both scales."""
    library = compile_and_build("poly_eval", build_dir, tmp_path)
    client = Client(tmp_path / "poly_eval.manifest.json")
    spec = client.manifest["inputs"][0]
    assert spec["scale"] == 2.0**40
    keys = client.evaluation_keys()
    program = er.Program(str(library))

    def encrypt_at(scale: float) -> er.Ciphertext:
        pt = client.encoder.encode(
            np.full(8, 0.5), level=spec["level"], scale=scale, slots=spec["slots"]
        )
        return client.encryptor.encrypt(pt, client.pk)

    name = spec["name"]
    with pytest.raises(
        er.ScaleMismatch,
        match=rf"input '{name}' has scale 2\^30 .*expects exactly 2\^40 ",
    ):
        program.run(client.ctx, keys, [encrypt_at(2.0**30)])
    # One ulp off is another scale too.
    with pytest.raises(er.ScaleMismatch, match=name):
        program.run(client.ctx, keys, [encrypt_at(np.nextafter(2.0**40, 0))])
    (out,) = client.decrypt(program.run(client.ctx, keys, [encrypt_at(2.0**40)]))
    assert np.max(np.abs(out - poly(np.full(8, 0.5)))) < BOUND


def _nvcc() -> str | None:
    found = shutil.which("nvcc")
    if found:
        return found
    default = Path("/usr/local/cuda/bin/nvcc")
    return str(default) if default.exists() else None


@pytest.mark.parametrize(("name", "options"), CASES)
def test_emitted_cuda_compiles(name, options, build_dir, tmp_path):
    """CI has no GPU: every emitted .cu must at least compile for sm_90."""
    nvcc = _nvcc()
    if nvcc is None:
        pytest.skip("nvcc not found")
    ember_compile(name, build_dir, tmp_path, options, target="cuda")
    run = subprocess.run(
        [
            nvcc,
            "-arch=sm_90",
            "-std=c++17",
            "-c",
            "-I",
            str(ROOT / "runtime/include"),
            str(tmp_path / f"{name}.cu"),
            "-o",
            str(tmp_path / f"{name}.o"),
        ],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr
