"""The Python frontend end to end: trace -> compile -> keygen -> encrypt ->
run (evaluation keys only) -> decrypt, against the same function on numpy.

Fresh random inputs each run (EMBER_TEST_SEED replays one). Each program is
compiled once per session (small slot counts: N = 2^13 or 2^14). The bound
is explained in frontend_helpers.py.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "frontend"))
sys.path.insert(0, str(Path(__file__).parent))
import ember  # noqa: E402
from ember import _toolchain, cli  # noqa: E402
from frontend_helpers import BOUND, close, inputs, line_of  # noqa: E402

S = 16  # slots of the test programs
W = np.linspace(-1.0, 1.0, S)
V = np.cos(np.arange(S))


# --- programs ----------------------------------------------------------------


@ember.program(slots=S)
def linear(x, y):
    """Every depth-0 operation, every operand kind, both sides."""
    return (
        x + y,
        x - y,
        W + x,
        x - W,
        W - x,
        2.5 + x,
        x - 0.5,
        3 - x,
        -x,
        x.rotate(3),
        x.rotate(-5),
        y.conjugate(),
        ember.sum(x),
        x.rotate(S + 1) + y.rotate(-1),
    )


@ember.program(slots=S)
def aliases(x, y):
    """Outputs that are an input, or share polynomials with each other."""
    return x, x, -y, 3 - y


@ember.program(slots=S)
def products(x, y):
    """Multiplications: ct x ct, pt x ct, scalar x ct, both sides, depth 2."""
    return (
        x * y,
        W * x,
        x * V,
        0.5 * x,
        x * -2.0,
        (x + y) * (x - y),
        x**3,
        ember.sum(x * y),
    )


@ember.program(slots=S)
def api_example(x, y):
    """The issue's example, at 16 slots."""
    w = np.linspace(-1, 1, S)
    z = x * w + y.rotate(3) - 0.5
    return z * z, x.rotate(-1)


@ember.program(slots=S)
def single(x):
    """One output; Python control flow at trace time."""
    acc = x
    for k in range(1, 4):
        acc = acc + x.rotate(k) * (1.0 / (k + 1))
    return acc


@ember.program(slots=S)
def rotations(x):
    """Several rotations of one input: what hoisting shares."""
    return x.rotate(1) + x.rotate(2) + x.rotate(3) + x.rotate(5)


# --- numpy semantics -------------------------------------------------------------


def test_plain_semantics_mirror_numpy(rng):
    x, y = rng.uniform(-1, 1, S), rng.uniform(-1, 1, S)
    out = linear(x, y=y)
    want = [x + y, x - y, W + x, x - W, W - x, 2.5 + x, x - 0.5, 3 - x, -x]
    want += [np.roll(x, -3), np.roll(x, 5), np.conj(y), np.full(S, x.sum())]
    want += [np.roll(x, -1) + np.roll(y, 1)]
    assert len(out) == len(want)
    for g, w in zip(out, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(ember.sum(x), np.full(S, x.sum()))
    for g, w in zip(aliases(x, y), [x, x, -y, 3 - y], strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12)


# --- every operation, compiled -------------------------------------------------------


@pytest.mark.parametrize(
    "prog", [linear, aliases, products, api_example], ids=lambda p: p.name
)
def test_operations(prog, compiled, rng):
    c = compiled(prog)
    keys = c.keygen()
    vals = inputs(rng, prog)
    cts = c.encrypt(keys, **vals)
    out = c.run(keys.evaluation, cts)
    got = c.decrypt(keys, out)
    want = prog(**vals)
    assert isinstance(got, tuple) and len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        close(g, w)


def test_single_output_and_convenience_call(compiled, rng):
    c = compiled(single)
    x = rng.uniform(-1, 1, S)
    got = c(x)  # positional, cached keys
    assert isinstance(got, np.ndarray)
    close(got, single(x))
    x2 = rng.uniform(-1, 1, S)
    close(c(x=x2), single(x2))  # by name, same keys


def test_hoisting_switch_changes_ir_not_results(compiled, rng):
    on, off = compiled(rotations), compiled(rotations, hoisting=False)
    assert "hoisted" in on.ir("ckks") and "hoisted" not in off.ir("ckks")
    x = rng.uniform(-1, 1, S)
    close(on(x=x), rotations(x))
    close(off(x=x), rotations(x))


@pytest.mark.parametrize("prog", [api_example, rotations], ids=lambda p: p.name)
def test_keyswitch_klss_end_to_end(prog, compiled, rng):
    """Forced KLSS: every key switch (relinearization, hoisted and plain
    rotations) goes through the temporary basis T; the manifest asks for the
    KLSS keys only, keygen makes them, and the results match numpy within
    the same bound as hybrid key switching."""
    c = compiled(prog, keyswitch="klss")
    listed = c.manifest["keys"]
    assert c.manifest["params"]["t"] and c.manifest["params"]["gamma"] == 4
    assert not listed["relin"] and not listed["galois"]
    assert listed["klss_galois"]
    assert listed["klss_relin"] == (prog is api_example)
    assert "rns.klss_mod_up" in c.ir("rns") and "rns.mod_up" not in c.ir("rns")
    assert "klss" in c.cost_report
    keys = c.keygen()
    vals = inputs(rng, prog)
    got = c.decrypt(keys, c.run(keys.evaluation, c.encrypt(keys, **vals)))
    want = prog(**vals)
    for g, w in zip(
        got if isinstance(got, tuple) else (got,),
        want if isinstance(want, tuple) else (want,),
        strict=True,
    ):
        close(g, w)


def test_keyswitch_hybrid_keeps_hybrid_keys(compiled):
    c = compiled(api_example, keyswitch="hybrid")
    listed = c.manifest["keys"]
    assert listed["relin"] and listed["galois"]
    assert not listed.get("klss_relin") and not listed.get("klss_galois")
    assert "klss" not in c.ir("rns")


def test_stages_source_manifest_cost(compiled):
    c = compiled(api_example)
    assert "fhe.mul" in c.ir("fhe") and "fhe.rotate" in c.ir("fhe")
    assert __file__ in c.ir("fhe")  # locations carry the user's file
    assert "ckks.params" in c.ir("ckks") and "ckks.mul" in c.ir("ckks")
    assert "rns." in c.ir("rns")
    assert "kernel." in c.ir("kernel")
    assert "ember_program_run" in c.source
    assert c.manifest["keys"]["relin"] and len(c.manifest["inputs"]) == 2
    assert "ntt limb-transforms" in c.cost_report


def test_print_ir_after_all(build_dir, capsys):
    c = ember.compile(single, print_ir_after_all=True)
    err = capsys.readouterr().err
    assert "IR Dump After FHEToCKKS" in err and "kernel-plan-memory" in err
    assert c.ir_after_all == err


def _has_gpu() -> bool:
    er = _toolchain.runtime()
    try:
        return bool(er.cuda_built and er.cuda_device_count())
    except er.EmberError:
        return False


def test_cuda_target_compiles_but_needs_a_gpu(compiled, tmp_path):
    c = compiled(api_example, target="cuda")
    assert "__global__" in c.source
    saved = ember.load(c.save(tmp_path / "cu"))
    assert saved.target == "cuda" and (tmp_path / "cu" / "api_example.cu").exists()
    keys = c.keygen()
    cts = c.encrypt(keys, x=np.zeros(S), y=np.zeros(S))
    # Without a GPU (CI, the development machine) the run says why; the
    # library nvcc built at compile time loads (dlopen, ABI check) anyway.
    if not _has_gpu():
        with pytest.raises(
            ember.NotAvailableError, match="no CUDA device|without the CUDA backend"
        ):
            c.run(keys.evaluation, cts)
    if _toolchain.nvcc_available():
        assert c._program().path.endswith(".cuda.so")
    # CI has no GPU: the emitted .cu must at least compile for sm_90.
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    if Path(nvcc).exists():
        cu, obj = tmp_path / "cu" / "api_example.cu", tmp_path / "api_example.o"
        cmd = [
            nvcc,
            "-arch=sm_90",
            "-std=c++17",
            "-c",
            "-I",
            str(ROOT / "runtime/include"),
        ]
        run = subprocess.run(
            [*cmd, str(cu), "-o", str(obj)], capture_output=True, text=True
        )
        assert run.returncode == 0, run.stdout + run.stderr


# --- save / load -------------------------------------------------------------------


def test_save_load_round_trip(compiled, tmp_path, rng, monkeypatch):
    c = compiled(api_example)
    folder = c.save(tmp_path / "art")

    def no_compiler():
        raise ember.NotAvailableError("no compiler in this test")

    monkeypatch.setattr(ember._toolchain, "bin_dir", no_compiler)  # runtime only
    g = ember.load(folder)
    assert g.program_hash == c.program_hash and g.manifest == c.manifest
    assert g.ir("ckks") == c.ir("ckks") and g.cost_report == c.cost_report
    vals = inputs(rng, api_example)
    keys = c.keygen()  # keys of c work with the loaded g: same program
    got = g.decrypt(keys, g.run(keys.evaluation, c.encrypt(keys, **vals)))
    for a, b in zip(got, api_example(**vals), strict=True):
        close(a, b)
    # The folder holds no library, and one put there is never loaded: the
    # loader builds (or finds cached) the library of the checked source.
    assert not list(folder.glob("*.so"))
    (folder / "api_example.so").write_bytes(b"not a shared library")
    h = ember.load(folder)
    evk = h.load_evaluation_keys(keys.evaluation.serialize())
    close(
        h.decrypt(keys, h.run(evk, h.encrypt(keys, **vals)))[1], np.roll(vals["x"], 1)
    )


# --- errors --------------------------------------------------------------------------


def test_input_errors_name_the_callers_line(compiled):
    c = compiled(api_example)
    keys = c.keygen()
    line = line_of(test_input_errors_name_the_callers_line, "# this " + "line")
    with pytest.raises(
        ember.InputError, match="input 'x' has 17 values, more than the program's 16"
    ) as e:
        c.encrypt(keys, x=np.zeros(S + 1), y=np.zeros(S))  # this line
    assert e.value.filename == __file__ and e.value.lineno == line
    with pytest.raises(ember.InputError, match="complex values, in a real program"):
        c.encrypt(keys, x=np.zeros(S, dtype=complex), y=np.zeros(S))
    with pytest.raises(ember.InputError, match="got str"):
        c.encrypt(keys, x="sixteen", y=np.zeros(S))
    with pytest.raises(ember.InputError, match="NaN"):
        c.encrypt(keys, x=np.full(S, np.nan), y=np.zeros(S))
    with pytest.raises(ember.InputError, match=r"vector of 1 to 16 values.*\(4, 4\)"):
        c(x=np.zeros((4, 4)), y=np.zeros(S))
    with pytest.raises(ember.InputError, match=r"got shape \(0,\)"):
        c(x=[], y=np.zeros(S))


def test_argument_name_errors(compiled):
    c = compiled(api_example)
    keys = c.keygen()
    with pytest.raises(ember.ArgumentNameError, match="no input named 'z'"):
        c.encrypt(keys, x=np.zeros(S), z=np.zeros(S))
    with pytest.raises(ember.ArgumentNameError, match="missing input 'y'") as e:
        c.encrypt(keys, x=np.zeros(S))
    assert e.value.filename == __file__
    with pytest.raises(ember.ArgumentNameError, match="given twice"):
        c(np.zeros(S), x=np.zeros(S))
    with pytest.raises(ember.ArgumentNameError, match="missing"):
        api_example(np.zeros(S))  # the numpy reference checks the same way


def test_too_deep_names_the_users_line(build_dir):
    @ember.program(slots=8)
    def deep(x):
        for _ in range(100):
            x = x * x  # the deepest multiplication
        return x

    with pytest.raises(ember.DepthError, match="multiplicative depth 100") as e:
        ember.compile(deep)
    assert e.value.filename == __file__
    assert e.value.lineno == line_of(deep, "the deepest multiplication")


def test_keys_of_another_program(compiled):
    a, b = compiled(api_example), compiled(products)
    ka, kb = a.keygen(), b.keygen()
    x = {"x": np.zeros(S), "y": np.zeros(S)}
    with pytest.raises(ember.KeyMismatchError, match="another program"):
        a.encrypt(kb, **x)
    cts = a.encrypt(ka, **x)
    with pytest.raises(ember.KeyMismatchError, match="another program"):
        a.run(kb.evaluation, cts)
    with pytest.raises(ember.KeyMismatchError, match="another program"):
        b.run(kb.evaluation, cts)  # ciphertexts of a
    out = a.run(ka.evaluation, cts)
    with pytest.raises(ember.KeyMismatchError, match="another program"):
        a.decrypt(kb, out)
    with pytest.raises(ember.KeyMismatchError, match="not the client's Keys"):
        a.run(ka, cts)


def test_missing_key_is_mapped(compiled):
    c = compiled(rotations)
    keys = c.keygen()
    cts = c.encrypt(keys, x=np.zeros(S))
    empty = type(keys.evaluation.keys)()  # runtime keys without the Galois keys
    with pytest.raises(ember.MissingKeyError, match="Galois"):
        c.run(empty, cts)


def test_trace_errors():
    @ember.program(slots=8)
    def bad_length(x):
        return x * np.ones(9)

    @ember.program(slots=8)
    def branches(x):
        return x if x else -x

    @ember.program(slots=8)
    def plain_output(x):
        return x, np.ones(8)

    line = line_of(bad_length, "np.ones(9)")
    with pytest.raises(
        ember.TraceError, match="9 values, more than the program's"
    ) as e:
        bad_length.trace()
    assert e.value.lineno == line
    with pytest.raises(ember.TraceError, match="9 values") as e:
        bad_length(np.ones(8))  # the numpy reference checks the same way
    assert e.value.lineno == line
    with pytest.raises(ember.TraceError, match="cannot branch"):
        branches.trace()
    with pytest.raises(ember.TraceError, match="output 1"):
        plain_output.trace()
    with pytest.raises(ember.TraceError, match="power of two"):
        ember.program(slots=12)
    with pytest.raises(ember.TraceError, match="int offset"):
        ember.program(slots=8)(lambda x: x.rotate(1.5)).trace()


def test_option_errors(build_dir):
    with pytest.raises(ember.OptionError, match="keyswitch must be one of"):
        ember.compile(single, keyswitch="bv")
    with pytest.raises(ember.OptionError, match="key_memory_mib must be a non-neg"):
        ember.compile(single, key_memory_mib=-1)
    with pytest.raises(ember.OptionError, match="target"):
        ember.compile(single, target="tpu")
    with pytest.raises(ember.OptionError, match="security must be 128 or 'none'"):
        ember.compile(single, security=80)


# --- CLI and examples ---------------------------------------------------------------


def test_cli_compile_and_run(build_dir, tmp_path, capsys):
    prog = tmp_path / "prog.py"
    prog.write_text(
        'import ember\n\n@ember.program(slots=8, ranges={"y": (0, 7)})\ndef f(x, y):\n'
        "    return ember.sum(x * y), x.rotate(2) - 1\n"
    )
    assert (
        cli.main(
            [
                "compile",
                str(prog),
                "--target",
                "cpu",
                "-o",
                str(tmp_path / "o"),
                "--emit",
                "ckks",
            ]
        )
        == 0
    )
    assert "ckks.params" in capsys.readouterr().out
    assert ember.load(tmp_path / "o").inputs == ("x", "y")
    assert cli.main(["run", str(prog), "--seed", "1"]) == 0
    out = capsys.readouterr().out
    err = float(out.split("max error against numpy:")[1])
    assert err < BOUND * 8
    for step in ("compile", "key generation", "encrypt", "run (server)", "decrypt"):
        assert step in out
    np.savez(tmp_path / "in.npz", x=np.ones(8), y=np.arange(8.0))
    assert cli.main(["run", str(prog), "--inputs", str(tmp_path / "in.npz")]) == 0
    # y's declared range is [0, 7]: 8 is refused, naming the input.
    np.savez(tmp_path / "out.npz", x=np.ones(8), y=np.arange(8.0) + 1)
    assert cli.main(["run", str(prog), "--inputs", str(tmp_path / "out.npz")]) == 1
    assert "input 'y' = 8.0 in slot 7 is outside its range [0.0, 7.0]" in (
        capsys.readouterr().err
    )
    assert cli.main(["run", str(prog), "--function", "g"]) == 1
    assert "no @ember.program named 'g'" in capsys.readouterr().err


EXAMPLES = [
    "logistic_regression",
    "dense_layer",
    "variance",
    "polynomial",
    "tanh_layer",
]


@pytest.mark.parametrize("name", EXAMPLES)
def test_examples(name, build_dir, capsys):
    """Each example through `ember run`, and its numpy meaning checked
    independently (the layer is W x + b, the variance np.var...)."""
    path = ROOT / "examples" / f"{name}.py"
    mod = cli._load_module(path)
    prog = cli._find_program(mod, path, None)
    rng = np.random.default_rng(7)
    vals = (
        mod.inputs(rng)
        if hasattr(mod, "inputs")
        else {n: rng.uniform(-1, 1, prog.slots) for n in prog.inputs}
    )
    plain = prog(**vals)
    if name == "dense_layer":
        np.testing.assert_allclose(plain, mod.W @ vals["x"] + mod.B, atol=1e-12)
    elif name == "variance":
        np.testing.assert_allclose(plain[1], np.var(vals["x"]), atol=1e-12)
    elif name == "polynomial":
        want = np.polynomial.polynomial.polyval(vals["x"], mod.COEFFS)
        np.testing.assert_allclose(plain, want, atol=1e-10)
    elif name == "tanh_layer":
        _, fit = ember.chebyshev_fit(np.tanh, mod.INTERVAL, mod.DEGREE)
        z = mod.W @ vals["x"] + mod.B
        assert np.max(np.abs(z)) < mod.INTERVAL[1]
        assert np.max(np.abs(plain - np.tanh(z))) <= fit * (1 + 1e-6)
    elif name == "logistic_regression":
        t = sum(w * vals[k] for k, w in mod.WEIGHTS.items()) + mod.BIAS
        np.testing.assert_allclose(plain, 0.5 + mod.C1 * t + mod.C3 * t**3, atol=1e-12)
    assert cli.main(["run", str(path), "--seed", "3"]) == 0
    out = capsys.readouterr().out
    if name == "tanh_layer":  # ember.approx's error, reported at its line
        assert "tanh_layer.py:" in out and "tanh on [-4, 4] by a degree-27" in out
    assert float(out.split("max error against numpy:")[1]) < BOUND
