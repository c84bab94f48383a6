"""Declared input ranges (issue 12, "No silent overflow").

`x * x` at x = 3000 decrypted to -437182 with no error: 9e6 at the 2^40
scale is 2^63.1, past the 60-bit first prime. Inputs now declare their
range (`ranges=` or `inputset=`), the compiler bounds every value and
chooses a scale at which all of them fit q_0 / 2 with one bit of margin,
and the client refuses inputs outside the range.

Error bounds. A fresh encryption's slot error has standard deviation about
2^9.9 sqrt(slots) / S (README, "Shared decryptions": 9.9 bits measured);
with 16 slots that is 2^-(s - 11.9) at scale 2^s, so 2^-(s - 16) is over
16 standard deviations. A product x y then errs by at most
|x| d_y + |y| d_x + d_x d_y plus the rescale's rounding (below d), so
(2 B + 1) 2^-(s - 16) for factors bounded by B. Deeper programs: each level
adds such terms relative to the magnitude of the value it multiplies, so
a term c x^k of a polynomial errs by at most 2^-(s - 20) |c| max|x^k| over
four levels. A plaintext constant c is encoded at the scale too, rounded
to a multiple of 2^-s: c x then errs by up to 2^-(s+1) max|x| more, which
is what a lowered scale costs in precision.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
import ember  # noqa: E402
from ember import cli  # noqa: E402
from frontend_helpers import close, line_of  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
S = 16


@ember.program(slots=S, ranges={"x": (-3000, 3000)})
def square(x):
    return x * x  # the square


@ember.program(slots=S)
def square_undeclared(x):
    return x * x


@ember.program(slots=S, ranges={"x": (-10, 10)})
def deep(x):
    """x^8 reaches 1e8 = 2^26.6 at |x| = 10; the output stays below 2.01."""
    x2 = x * x
    x4 = x2 * x2
    x8 = x4 * x4  # the largest value
    return (x8 - 3 * x4) * 1e-8 + x2 * 1e-2


@ember.program(slots=S)
def affine(x, y):
    return x * 0.5 + y


@ember.program(slots=S)
def huge(x):
    y = x * 1e6
    return y * y * y  # 1e18 = 2^59.8: no scale fits


def params(c: ember.Compiled) -> dict:
    return c.manifest["params"]


def test_square_of_3000(compiled, rng):
    """The issue's case: x * x on |x| <= 3000 decrypts to x^2 (within the
    bound of the module docstring) at the extremes and on fresh random
    inputs; the scale is 2^34, the largest at which 9e6 fits."""
    c = compiled(square)
    p = params(c)
    s = p["log_scale"]
    assert s == 34 and math.log2(p["q"][0]) > 59.99
    assert c.manifest["inputs"][0]["range"] == [-3000, 3000]
    assert "fhe.range = [-3000.0, 3000.0]}" in c.ir("fhe")
    x = rng.uniform(-3000, 3000, S)
    x[:3] = [3000.0, -3000.0, 0.0]
    got = c(x=x)
    err = np.max(np.abs(got - x * x))
    bound = (2 * 3000 + 1) * 2.0 ** -(s - 16)
    print(f"x*x at |x| <= 3000, scale 2^{s}: max error {err:.3g} (bound {bound:.3g})")
    assert err < bound, (got, x * x)
    assert abs(got[0] - 9e6) < bound


def test_fixed_scale_that_overflows_is_refused(build_dir):
    """scale_bits=40 is kept: 9e6 at 2^40 needs 65.1 bits of q_0, refused
    at the user's call, naming the value's line, its bound and the fix."""
    with pytest.raises(ember.CompileError, match=r"needs q_0 > 2\^65.1") as e:
        ember.compile(square, "cuda", scale_bits=40)
    msg = e.value.message
    assert f"test_ranges.py:{line_of(square, 'the square')}" in msg
    assert "9e+06 (2^23.10)" in msg and "use scale_bits <= 34" in msg
    assert e.value.lineno == line_of(
        test_fixed_scale_that_overflows_is_refused, "scale_bits=40)"
    )
    c = ember.compile(square, "cuda", scale_bits=34)
    assert params(c)["log_scale"] == 34


def test_value_too_large_for_any_scale(build_dir):
    with pytest.raises(ember.CompileError, match="even at the smallest scale") as e:
        ember.compile(huge, "cuda")
    assert e.value.lineno == line_of(huge, "no scale fits")
    assert "1e+18 (2^59.79)" in e.value.message
    assert "declare smaller input ranges" in e.value.message


def test_outside_the_range_is_refused(compiled, tmp_path):
    """Encrypting a value outside the declared range, or outside [-1, 1]
    when none is declared, is an InputError naming the input, the value,
    the slot, the range and how to declare a wider one; a loaded artifact
    refuses it too (the range is in its manifest)."""
    c = compiled(square)
    keys = c.keygen()
    x = np.zeros(S)
    x[5] = 3000.5
    with pytest.raises(ember.InputError) as e:
        c.encrypt(keys, x=x)
    assert "input 'x' = 3000.5 in slot 5 is outside its range [-3000.0, 3000.0]" in (
        e.value.message
    )
    assert "ranges={'x': (lo, hi)}" in e.value.message
    c.save(tmp_path / "sq")
    loaded = ember.load(tmp_path / "sq")
    with pytest.raises(ember.InputError, match="outside its range"):
        loaded.encrypt(loaded.keygen(), x=x)
    u = compiled(square_undeclared)
    assert u.manifest["inputs"][0]["range"] == [-1, 1]
    with pytest.raises(ember.InputError, match=r"\[-1.0, 1.0\] \(the default"):
        u(x=np.full(S, 1.5))
    # The silent overflow, now refused: 3000 is not in [-1, 1].
    with pytest.raises(ember.InputError, match="input 'x' = 3000.0 in slot 0"):
        u(x=np.full(S, 3000.0))


def test_deep_polynomial_with_large_intermediates(compiled, rng):
    """x^8 reaches 2^26.6: the scale comes down to 2^31 and the result
    matches numpy; at the default 2^40 the program is refused."""
    c = compiled(deep)
    s = params(c)["log_scale"]
    assert s == 31
    x = rng.uniform(-10, 10, S)
    x[:2] = [10.0, -10.0]
    want = (x**8 - 3 * x**4) * 1e-8 + x**2 * 1e-2
    # The constants are encoded at the scale: 1e-8 * 2^31 = 21.47 rounds to
    # 21, so (x^8 - 3 x^4) * 1e-8 errs by up to 2^-(s+1) * 1e8 = 0.023 (the
    # precision a 2^31 scale allows for values of 1e8), 1e-2 x^2 by
    # 2^-(s+1) * 100; the ciphertext errors add 2^-(s-20) relative to each
    # term's magnitude (1 + 3e-4 + 1) and the last rescale's 2^-(s-20).
    bound = 2.0 ** -(s + 1) * (1e8 + 3e4 + 1e2) + 2.0 ** -(s - 20) * 3
    err = np.max(np.abs(c(x=x) - want))
    print(f"deep polynomial, scale 2^{s}: max error {err:.3g} (bound {bound:.3g})")
    assert err < bound
    with pytest.raises(ember.CompileError, match="at the scale 2\\^40") as e:
        ember.compile(deep, "cuda", scale_bits=40)
    assert f"test_ranges.py:{line_of(deep, 'the largest value')}" in e.value.message


def test_inputset(build_dir, rng):
    """An inputset gives each undeclared input the hull of its samples
    widened by a tenth of its largest magnitude; a value outside is
    refused; a sample outside a declared range is an InputError."""
    samples = [
        {"x": rng.uniform(-40, 50, S), "y": rng.uniform(0, 2, S)} for _ in range(5)
    ]
    samples[0]["x"][0], samples[1]["y"][0] = 50.0, 2.0
    xs = np.concatenate([s["x"] for s in samples])
    ys = np.concatenate([s["y"] for s in samples])
    c = ember.compile(affine, inputset=samples)
    rx, ry = (spec["range"] for spec in c.manifest["inputs"])
    assert rx == pytest.approx([xs.min() - 5.0, 55.0])
    assert ry == pytest.approx([ys.min() - 0.2, 2.2])
    assert "fhe.range" in c.ir("fhe") and params(c)["log_scale"] == 40
    x, y = rng.uniform(*rx, S), rng.uniform(*ry, S)
    x[0] = 54.9  # beyond the samples, within the margin
    close(c(x=x, y=y), x * 0.5 + y)
    with pytest.raises(ember.InputError, match="input 'x' = 56.0"):
        c(x=np.full(S, 56.0), y=y)
    # Positional samples; a declared range wins and must hold the samples.
    c2 = ember.compile(square, "cuda", inputset=[(np.full(S, 2000.0),)])
    assert c2.manifest["inputs"][0]["range"] == [-3000, 3000]
    with pytest.raises(ember.InputError, match="inputset sample 1: input 'x'"):
        ember.compile(square, "cuda", inputset=[[np.ones(S)], [np.full(S, 4000.0)]])
    with pytest.raises(ember.OptionError, match="inputset is empty"):
        ember.compile(affine, "cuda", inputset=[])
    with pytest.raises(ember.ArgumentNameError, match="missing input 'y'"):
        ember.compile(affine, "cuda", inputset=[{"x": np.ones(S)}])


def test_declared_ranges_are_checked(build_dir):
    here = line_of(test_declared_ranges_are_checked, "ranges=ranges" + ")")
    for ranges, match in (
        ({"z": (0, 1)}, "ranges names 'z', which is not an input"),
        ({"x": (1, 0)}, r"must be \(lo, hi\) with finite lo <= hi, got \(1, 0\)"),
        ({"x": (0, math.inf)}, "finite lo <= hi"),
        ({"x": 3}, "got 3"),
        ([("x", (0, 1))], "ranges must be a dict"),
    ):
        with pytest.raises(ember.TraceError, match=match) as e:

            @ember.program(slots=S, ranges=ranges)
            def g(x):
                return x

        assert e.value.lineno == here


@pytest.mark.parametrize(
    "name, log_scale",
    [
        ("logistic_regression", 40),
        ("dense_layer", 40),
        ("variance", 40),
        ("polynomial", 40),
        ("mlp", 36),
    ],
)
def test_examples_parameters(name, log_scale, build_dir):
    """The examples keep the 2^40 scale (logistic regression declares its
    features in [-3, 3]); the MLP's pixels in [0, 1] bound its layers at
    2^21.2 in the worst case, which needs 2^36."""
    path = ROOT / "examples" / f"{name}.py"
    prog = cli._find_program(cli._load_module(path), path, None)
    c = ember.compile(prog, "cuda")
    assert params(c)["log_scale"] == log_scale
    assert math.log2(params(c)["q"][0]) > 59.99
