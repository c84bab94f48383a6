"""Compiler options from Python and the CLI (issue 12): every pipeline option
that changes results or speed reaches the compiler, parameters are chosen
as an OpenFHE user chooses them, and what is insecure or too small is
refused clearly, at the user's line.

Each option is compiled on and off (target "cuda": the IR and the manifest
are what is compared, no library is built) and the difference it must make
is checked in the ckks or rns IR or in the manifest's parameters.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
import ember  # noqa: E402
from ember import _toolchain, cli  # noqa: E402
from frontend_helpers import close, inputs, line_of  # noqa: E402

S = 16


@ember.program(slots=S)
def knobs(x, y):
    """Products summed (lazy relinearization), rotations of one input
    (hoisting), two levels (rescale placement, ModDown merging)."""
    a = x * y + x.rotate(1) * y.rotate(2)
    return a * x + x.rotate(3) + x.rotate(5)


def count(text: str, pattern: str) -> int:
    return len(re.findall(pattern, text))


def params(c: ember.Compiled) -> dict:
    return c.manifest["params"]


def arena(c: ember.Compiled) -> int:
    """The planned arena's bytes (the manifest's memory line)."""
    return int(re.search(r"arena (\d+)", c.meta["memory"])[1])


def more(stage: str, op: str):
    """The changed program has more `op`s in `stage` than the default."""
    return lambda a, b: count(b.ir(stage), op) > count(a.ir(stage), op)


def dropped(stage: str, text: str):
    """`text` is in the default program's `stage`, not in the changed one's."""
    return lambda a, b: text in a.ir(stage) and text not in b.ir(stage)


# option -> the difference it makes: f(default, changed) must hold.
WITNESSES = {
    "rescale": ("eager", more("ckks", r"ckks\.rescale")),
    # knobs returns a sum at scale ~2^80: kept there, not rescaled.
    "rescale_outputs": (
        False,
        lambda a, b: count(b.ir("ckks"), r"ckks\.rescale")
        == count(a.ir("ckks"), r"ckks\.rescale") - 1
        and b.manifest["outputs"][0]["scale"] > 2.0**70
        and a.manifest["outputs"][0]["scale"] < 2.0**50,
    ),
    "lazy_relin": (False, more("ckks", r"ckks\.relinearize")),
    "hoisting": (False, dropped("ckks", "hoisted")),
    "merge_moddown": (False, more("rns", r"rns\.rescale")),
    "fusion": (False, dropped("rns", "rns.fused")),
    "expand_modswitch": (
        True,
        lambda a, b: dropped("rns", "rns.mod_up")(a, b) and "rns.bconv" in b.ir("rns"),
    ),
    # x * y + x.rotate(1) * y.rotate(2), relinearized lazily: the tensor
    # products' sums are a fused kernel's sums of 3+ products.
    "lazy_sums": (
        False,
        lambda a, b: "em_reduce_sum(t" in a.source
        and "em_reduce_sum(t" not in b.source
        and "lazy_sums = false" in b.ir("kernel")
        and "lazy_sums" not in a.ir("kernel"),
    ),
    # Two coefficients per thread of the generated kernels (the default at
    # 32-bit words, here at 64): vector loads and stores, kernel.lanes.
    "lanes": (
        2,
        lambda a, b: "const em_word2 v" in b.source
        and "const em_word2 v" not in a.source
        and "kernel.lanes = 2" in b.ir("kernel")
        and "kernel.lanes" not in a.ir("kernel"),
    ),
    # x.rotate(1) and y.rotate(2): each rotation's sigma(c0) added in its
    # ModDown's epilogue (a permuted lifted addend), not by a kernel.
    "lift_rotation": (
        False,
        lambda a, b: "lifted_galois" in a.ir("rns")
        and "lifted_galois" not in b.ir("rns")
        and "lift-rotation=false" in b.meta["pipeline"],
    ),
    # The independent rotations and products: placed apart, on a larger
    # arena, so that the GPU's graph leaves them unordered.
    "concurrency": (
        0,
        lambda a, b: arena(b) < arena(a) and "concurrency=0" in b.meta["pipeline"],
    ),
    "keyswitch": (
        "klss",
        lambda a, b: b.manifest["keys"]["klss_relin"]
        and not b.manifest["keys"]["relin"]
        and "klss" in b.cost_report,
    ),
    "klss_gamma": (
        2,
        lambda a, b: "gamma" not in params(a) and params(b)["gamma"] == 2,
    ),
    "log_n": (14, lambda a, b: params(a)["log_n"] == 13 and params(b)["log_n"] == 14),
    "scale_bits": (
        45,
        lambda a, b: params(a)["log_scale"] == 40 and params(b)["log_scale"] == 45,
    ),
    "dnum": (2, lambda a, b: params(a)["dnum"] != 2 and params(b)["dnum"] == 2),
    "extra_levels": (
        2,
        lambda a, b: b.manifest["inputs"][0]["level"]
        == a.manifest["inputs"][0]["level"] + 2,
    ),
    "params": (
        "A",
        lambda a, b: params(b)["log_n"] == 16 and len(params(b)["q"]) == 36,
    ),
    "security": (
        "none",
        lambda a, b: params(a)["security"] == 128 and params(b)["security"] == 0,
    ),
}


@pytest.mark.parametrize("option", sorted(WITNESSES))
def test_each_option_reaches_the_pipeline(option, compiled):
    value, differs = WITNESSES[option]
    default = compiled(knobs, target="cuda")
    changed = compiled(knobs, target="cuda", **{option: value})
    assert differs(default, changed)
    assert changed.meta["options"][option] == value  # recorded in ember.json
    assert changed.meta["pipeline"] == _toolchain.pipeline_options(changed.options)


def test_klss_t_and_key_memory_reach_the_pipeline(compiled):
    """klss_t sets the number of T primes; key_memory_mib is a budget the
    pass enforces (7.5 MiB of hybrid keys do not fit in 5)."""
    c = compiled(knobs, target="cuda", klss_gamma=4, klss_t=7)
    assert len(params(c)["t"]) == 7
    with pytest.raises(ember.CompileError, match="key_memory_mib = 5 allows"):
        compiled(knobs, target="cuda", key_memory_mib=5)
    assert compiled(knobs, target="cuda", key_memory_mib=64).options.key_memory_mib


def test_klss_form_where_the_model_predicts_a_win(compiled, rng):
    """klss_form (the default): parameters chosen from the program get the
    KLSS form the cost model prefers (rns-select-keyswitch klss-form). With
    a digit per limb and one special prime (15 limbs, dnum=15, K = 1; the
    insecure test mode at N = 2^13: Athena's small-K regime) that is gamma
    4 with 5 T primes, and the relinearisation and a rotation switch keys
    in KLSS form; the program runs and matches numpy. klss_form=False keeps
    hybrid parameters; the default dnum keeps them too, and so does dnum=8
    (digits of one or two limbs, K = 2: hybrid wins once the hoisted
    rotations' digit automorphisms are counted once each)."""
    kw = {"security": "none", "log_n": 13, "extra_levels": 12, "dnum": 15}
    on = compiled(knobs, target="cpu", **kw)
    assert len(params(on)["p"]) == 1
    assert params(on)["gamma"] == 4 and len(params(on)["t"]) == 5
    assert on.manifest["keys"]["klss_relin"]
    assert on.manifest["keys"]["klss_galois"]
    eight = dict(kw, dnum=8)
    assert "gamma" not in params(compiled(knobs, target="cpu", **eight))
    off = compiled(knobs, target="cuda", klss_form=False, **kw)
    assert "gamma" not in params(off)
    assert not off.manifest["keys"].get("klss_galois")
    assert on.meta["options"]["klss_form"] is True
    assert off.meta["options"]["klss_form"] is False
    assert "gamma" not in params(compiled(knobs, target="cuda"))
    xs = inputs(rng, knobs)
    close(on(**xs), knobs(**xs))


def test_outputs_kept_at_their_scale_decrypt(compiled, rng):
    """rescale_outputs=False: knobs' output stays at level 1 and scale
    ~2^80 (Q_1 / scale is what the rescaled output had at level 0), the
    client decrypts it with the interface's scale, and it matches numpy
    within the default program's bound; so does a lone product."""
    kept = compiled(knobs, target="cpu", rescale_outputs=False)
    out = kept.manifest["outputs"][0]
    assert out["scale"] > 2.0**70 and out["level"] == 1
    vals = inputs(rng, knobs)
    close(kept(**vals), knobs(**vals))
    lone = compiled(product, target="cpu", rescale_outputs=False, params="B")
    assert "ckks.rescale" not in lone.ir("ckks")
    vals = inputs(rng, product)
    close(lone(**vals), product(**vals))


@ember.program(slots=S)
def product(x, y):
    return x * y


def test_lift_addends_of_an_unrescaled_product(compiled, rng):
    """lift_addends (the default): an unrescaled product's d0 and d1 are
    its relinearization's ModDown's lifted addends, computed in d2's kernel
    (one generated kernel, not two) and added in the ModDown's last NTT;
    lift_addends=False adds them in a kernel after the ModDown. (knobs'
    products are rescaled: their addends were lifted already.) Both match
    numpy."""
    kw = {"rescale_outputs": False, "extra_levels": 1}
    on = compiled(product, target="cpu", **kw)
    off = compiled(product, target="cpu", lift_addends=False, **kw)
    assert count(on.ir("rns"), r"lifted\(") == 1
    assert "lifted(" not in off.ir("rns")
    assert count(on.ir("kernel"), r"kernel\.launch") == 1
    assert count(off.ir("kernel"), r"kernel\.launch") == 2
    assert "lift-addends=false" in off.meta["pipeline"]
    vals = inputs(rng, product)
    close(on(**vals), product(**vals))
    close(off(**vals), product(**vals))


def test_ks_overlap_runs_the_pair_as_one_step(compiled, rng):
    """ks_overlap (the default): a lone key switch's ModDown at N = 2^16 is
    marked to overlap its inner product, and the runtime runs the two as
    one step (on the CPU in turn, on the GPU as two branches): a lone
    product and a rotation at set B, their ModDowns not merged with a
    rescale (the output kept at its scale) and merged, match numpy either
    way; the plan is larger with it (the digits live through the ModDown).
    knobs (N = 2^13) is not marked (ks-overlap-min-log-n)."""
    for prog, kw in (
        (product, {"rescale_outputs": False}),
        (product, {}),
        (rotated, {}),
    ):
        on = compiled(prog, target="cpu", params="B", **kw)
        off = compiled(prog, target="cpu", params="B", ks_overlap=False, **kw)
        assert count(on.ir("kernel"), r"[{ ]overlap[,}]") == 1
        assert count(off.ir("kernel"), r"[{ ]overlap[,}]") == 0
        assert "ks-overlap=false" in off.meta["pipeline"]
        assert off.meta["options"]["ks_overlap"] is False
        assert arena(on) > arena(off)
        vals = inputs(rng, prog)
        close(on(**vals), prog(**vals))
        close(off(**vals), prog(**vals))
    small = compiled(knobs, target="cuda")
    assert count(small.ir("kernel"), r"[{ ]overlap[,}]") == 0


@ember.program(slots=S)
def rotated(x):
    return x.rotate(3) * 0.5


def test_every_option_is_tested():
    import dataclasses

    # encapsulate, bootstrap_stop_after and bootstrap_cosine_bits act on
    # bootstrapping programs:
    # tests/e2e/test_bootstrap.py tests them; bootstrap and bootstrap_levels
    # place bootstraps: tests/e2e/test_bootstrap_placement.py; word:
    # tests/e2e/test_word32.py; scheme and plaintext_modulus come from
    # @ember.program(scheme="bgv"): tests/e2e/test_bgv_programs.py;
    # bfv_mult acts on BFV programs: tests/e2e/test_bfv_programs.py;
    # encoding on TFHE programs: tests/e2e/test_tfhe_programs.py (and its
    # refusal on other programs below); devices, link_gbps,
    # link_latency_us, recompute, partial_sums and partition:
    # tests/e2e/test_multi_device.py;
    # double_hoisting and hoist_siblings act on matrix-vector products:
    # tests/e2e/test_matvec.py; lift_addends and ks_overlap: below, on a
    # lone product.
    tested = set(WITNESSES) | {
        "double_hoisting",
        "hoist_siblings",
        "devices",
        "link_gbps",
        "link_latency_us",
        "recompute",
        "partial_sums",
        "partition",
        "encoding",
        "bfv_mult",
        "scheme",
        "plaintext_modulus",
        "word",
        "klss_t",
        "klss_form",
        "lift_addends",
        "ks_overlap",
        "key_memory_mib",
        "encapsulate",
        "bootstrap_stop_after",
        "bootstrap_cosine_bits",
        "bootstrap",
        "bootstrap_levels",
    }
    assert {f.name for f in dataclasses.fields(ember.CompileOptions)} == tested


def test_encoding_is_for_tfhe_programs():
    with pytest.raises(ember.OptionError, match="encoding applies to"):
        ember.compile(knobs, encoding="radix")


def test_parameters_from_python_run(compiled, rng):
    """log_n, scale_bits, dnum and extra_levels chosen by the user: the
    program runs at those parameters and matches numpy."""
    c = compiled(knobs, log_n=14, scale_bits=45, dnum=2, extra_levels=1)
    p = params(c)
    assert (p["log_n"], p["log_scale"], p["dnum"]) == (14, 45, 2)
    vals = inputs(rng, knobs)
    close(c(**vals), knobs(**vals))


def test_options_object_and_keywords():
    base = ember.CompileOptions(hoisting=False, log_n=14)
    merged = ember.CompileOptions.from_kwargs(base, rescale="eager")
    assert (merged.hoisting, merged.log_n, merged.rescale) == (False, 14, "eager")
    pipeline = _toolchain.pipeline_options(merged)
    assert "hoisting=false" in pipeline and "log-n=14" in pipeline
    assert "rescale=eager" in pipeline and "scale-bits" not in pipeline
    assert ember.CompileOptions(security="128").security == 128


# --- refused clearly ----------------------------------------------------------------


@ember.program(slots=S)
def deep(x):
    for _ in range(8):
        x = x * x  # the deepest multiplication
    return x


@ember.program(slots=8192)
def wide(x):
    return x + 1.0


def _call_line(text: str) -> int:
    return line_of(test_parameters_are_refused_at_the_users_line, text)


def test_parameters_are_refused_at_the_users_line(build_dir):
    here = __file__
    with pytest.raises(ember.CompileError, match="log_n = 12 is outside 13..17") as e:
        ember.compile(knobs, "cuda", log_n=12)  # log_n 12
    assert (e.value.filename, e.value.lineno) == (here, _call_line("# log_n 12"))
    with pytest.raises(ember.CompileError, match="scale_bits = 70 is outside") as e:
        ember.compile(knobs, "cuda", scale_bits=70)  # scale 70
    assert e.value.lineno == _call_line("# scale 70")
    with pytest.raises(ember.CompileError, match="do not combine it with log_n") as e:
        ember.compile(knobs, "cuda", params="B", log_n=14)  # B and log_n
    assert e.value.lineno == _call_line("# B and log_n")
    with pytest.raises(ember.CompileError, match="unknown parameter set 'Z'") as e:
        ember.compile(knobs, "cuda", params="Z")  # Z
    assert e.value.lineno == _call_line("# Z")
    with pytest.raises(ember.CompileError, match="8192 slots, more than N/2 = 4096"):
        ember.compile(wide, "cuda", log_n=13)
    with pytest.raises(ember.CompileError, match="klss_t needs klss_gamma"):
        ember.compile(knobs, "cuda", klss_t=3)


def test_insecure_parameters_are_a_security_error(build_dir):
    """Parameters the user fixed that cannot hold the program at 128 bits:
    SecurityError at the deepest multiplication, naming the parameters."""
    deepest = line_of(deep, "the deepest multiplication")
    for kwargs, shape in (
        ({"log_n": 13}, r"N = 2\^13..2\^13, 40-bit scale"),
        ({"log_n": 14, "dnum": 1}, "dnum = 1"),
        ({"scale_bits": 60, "log_n": 14}, "60-bit scale"),
    ):
        with pytest.raises(ember.SecurityError, match=shape) as e:
            ember.compile(deep, "cuda", **kwargs)
        assert e.value.lineno == deepest and "below 128-bit" in e.value.message
    # The same parameters in the insecure test mode, named: compiled.
    c = ember.compile(deep, "cuda", log_n=13, security="none")
    assert params(c)["log_n"] == 13 and params(c)["security"] == 0


def test_too_few_levels_is_a_depth_error(build_dir):
    with pytest.raises(ember.DepthError, match="parameter set athena24 allows depth"):
        ember.compile(deep, "cuda", params="athena24", extra_levels=30)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"log_n": "14"}, "log_n must be an int, got '14'"),
        ({"log_n": 0}, "log_n must be a positive int"),
        ({"dnum": 1.5}, "dnum must be an int"),
        ({"extra_levels": -1}, "extra_levels must be a non-negative int"),
        ({"hoisting": 1}, "hoisting must be True or False"),
        ({"lanes": 3}, "lanes must be one of 0, 1, 2, 4, got 3"),
        ({"rescale": "late"}, "rescale must be one of 'lazy', 'eager'"),
        ({"params": "B; rm"}, "params must be a name"),
        ({"params": 3}, "params must be a name"),
        ({"hosting": False}, "did you mean 'hoisting'"),
        ({"options": {"log_n": 14}}, "must be an ember.CompileOptions"),
    ],
)
def test_option_types_are_checked_in_python(kwargs, match, monkeypatch):
    def no_compiler():
        raise AssertionError("the compiler must not run")

    monkeypatch.setattr(_toolchain, "bin_dir", no_compiler)
    with pytest.raises(ember.OptionError, match=match) as e:
        ember.compile(knobs, "cuda", **kwargs)  # the call
    assert e.value.filename == __file__
    assert e.value.lineno == line_of(test_option_types_are_checked_in_python, "# the")


# --- the CLI ----------------------------------------------------------------------


def test_cli_takes_every_option(build_dir, tmp_path, capsys):
    prog = tmp_path / "prog.py"
    prog.write_text(
        "import ember\n\n@ember.program(slots=8)\ndef f(x, y):\n"
        "    return (x * y).rotate(1) + x.rotate(2)\n"
    )
    flags = [
        "--log-n=14",
        "--scale-bits=45",
        "--dnum=2",
        "--extra-levels=1",
        "--rescale=eager",
        "--no-lazy-relin",
        "--no-hoisting",
        "--no-merge-moddown",
        "--no-fusion",
        "--expand-modswitch",
        "--no-lazy-sums",
        "--lanes=4",
        "--keyswitch=hybrid",
        "--key-memory-mib=512",
        "--klss-gamma=4",
        "--klss-t=7",
        "--security=128",
    ]
    out = tmp_path / "o"
    args = ["compile", str(prog), "--target", "cuda", "-o", str(out), *flags]
    assert cli.main(args) == 0
    meta = json.loads((out / "ember.json").read_text())
    want = ember.CompileOptions(
        log_n=14,
        scale_bits=45,
        dnum=2,
        extra_levels=1,
        rescale="eager",
        lazy_relin=False,
        hoisting=False,
        merge_moddown=False,
        fusion=False,
        expand_modswitch=True,
        lazy_sums=False,
        lanes=4,
        keyswitch="hybrid",
        key_memory_mib=512,
        klss_gamma=4,
        klss_t=7,
    )
    assert meta["options"] == want.to_json()
    assert meta["pipeline"] == _toolchain.pipeline_options(want)
    assert json.loads((out / "f.manifest.json").read_text())["params"]["log_n"] == 14
    # `ember run` takes the same flags, and reports errors about them.
    assert cli.main(["run", str(prog), "--params", "B", "--log-n", "14"]) == 1
    assert "do not combine it with log_n" in capsys.readouterr().err
    assert cli.main(["run", str(prog), "--log-n=14", "--no-hoisting"]) == 0
    assert "N = 2^14" in capsys.readouterr().out
    # The GPU's run switches parse everywhere (a CPU run has no graph).
    run_flags = ["--no-graphs", "--no-arena", "--no-in-place", "--no-concurrent"]
    run_flags += ["--no-prioritized"]
    assert cli.main(["run", str(prog), "--log-n=14", *run_flags]) == 0
    assert "N = 2^14" in capsys.readouterr().out


def test_cli_errors_about_flags_name_no_launcher_line(build_dir, tmp_path):
    """An error about a flag is not located in runpy or the `ember` script."""
    prog = tmp_path / "prog.py"
    prog.write_text(
        "import ember\n\n@ember.program(slots=8)\ndef f(x):\n    return x\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    run = subprocess.run(
        [sys.executable, "-m", "ember", "compile", str(prog), "--target", "cuda"]
        + ["-o", str(tmp_path / "o"), "--log-n", "12"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert run.returncode == 1
    assert run.stderr == "ember: error: log_n = 12 is outside 13..17\n"
