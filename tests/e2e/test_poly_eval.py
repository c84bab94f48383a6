"""ember.poly and ember.approx (issue 14, polynomial evaluation as a compiler
operation): one fhe.poly_eval at the user's line, expanded by the compiler
(fhe-expand-poly-eval) at the depth Paterson-Stockmeyer reaches, run on
fresh inputs against numpy; the interpolation error ember.approx reports;
and the errors a user can make, each at the user's line."""

from __future__ import annotations

import math

import ember
import numpy as np
import pytest
from frontend_helpers import line_of
from numpy.polynomial import chebyshev as cheb
from numpy.polynomial import polynomial as poly

SLOTS = 256
HERE = __file__

# CKKS at the default 2^40 scale adds ~2^-30 relative error per level; the
# issue-12 bound of tests/e2e/test_polynomials.py, 2^-18 relative, leaves a
# margin of 2^8 over what these depths measure.
REL = 2**-18


def _depth(c: ember.Compiled) -> int:
    return len(c.manifest["params"]["q"]) - 1


TANH = {d: cheb.chebinterpolate(lambda t: np.tanh(3 * t), d) for d in (16, 27)}


@pytest.mark.parametrize("d", sorted(TANH))
def test_chebyshev_series_at_its_depth(build_dir, rng, d):
    c = TANH[d]

    @ember.program(slots=SLOTS)
    def tanh3(x):
        return ember.poly(x, c)

    tanh3.name = f"tanh3_{d}"
    compiled = ember.compile(tanh3)
    assert _depth(compiled) == math.ceil(math.log2(d + 1))
    fhe = compiled.ir("fhe")
    assert fhe.count("fhe.poly_eval") == 1 and "fhe.mul" not in fhe
    assert f"{HERE}\":{line_of(tanh3, 'ember.poly')}:" in fhe  # the user's line
    x = rng.uniform(-1, 1, SLOTS)
    want = cheb.chebval(x, c)
    np.testing.assert_array_equal(tanh3(x=x), want)  # the plain run is numpy's
    err = np.max(np.abs(compiled(x=x) - want)) / np.max(np.abs(want))
    assert err < REL, f"degree {d}: relative error 2^{math.log2(err):.1f}"


def test_power_basis(build_dir, rng):
    d = 16
    c = np.random.default_rng(d).uniform(-1, 1, d + 1) / np.arange(1, d + 2)

    @ember.program(slots=SLOTS)
    def power16(x):
        return ember.poly(x, c, basis="power")

    compiled = ember.compile(power16)
    assert _depth(compiled) == math.ceil(math.log2(d + 1))
    x = rng.uniform(-1, 1, SLOTS)
    want = poly.polyval(x, c)
    err = np.max(np.abs(compiled(x=x) - want)) / np.max(np.abs(want))
    assert err < REL, f"relative error 2^{math.log2(err):.1f}"


def test_approx_on_an_interval_reports_its_error(build_dir, rng):
    """log on [1, 5] at degree 24 (a change of variable that costs a level:
    2 / (5 - 1) is not an integer), beside a polynomial of the same input on
    [-0.5, 0.5] (2 / 1 = 2: free)."""

    @ember.program(slots=SLOTS, ranges={"x": (1, 5), "y": (-0.5, 0.5)})
    def logs(x, y):
        return ember.approx(np.log, x, interval=(1, 5), degree=24), ember.poly(
            y, [0.25, 0.5, 0.125], interval=(-0.5, 0.5)
        )

    compiled = ember.compile(logs)
    assert _depth(compiled) == math.ceil(math.log2(25)) + 1
    (a,) = compiled.approximations
    assert (a["function"], a["interval"], a["degree"]) == ("log", [1.0, 5.0], 24)
    assert (a["file"], a["line"]) == (HERE, line_of(logs, "ember.approx"))
    # The interpolant's own error, measured independently on a finer grid.
    p = cheb.Chebyshev.interpolate(np.log, 24, domain=[1, 5])
    fine = np.linspace(1, 5, 200001)
    true_err = np.max(np.abs(np.log(fine) - p(fine)))
    assert true_err / 2 < a["max_error"] <= true_err * (1 + 1e-9) and true_err < 1e-9
    x, y = rng.uniform(1, 5, SLOTS), rng.uniform(-0.5, 0.5, SLOTS)
    got_log, got_y = compiled(x=x, y=y)
    want_y = cheb.chebval(2 * y, [0.25, 0.5, 0.125])
    plain_log, plain_y = logs(x=x, y=y)
    np.testing.assert_array_equal(plain_y, want_y)
    assert np.max(np.abs(plain_log - np.log(x))) <= a["max_error"] * (1 + 1e-6)
    # CKKS error on top of the interpolation error (|log| <= 1.61 here).
    assert np.max(np.abs(got_log - np.log(x))) < a["max_error"] + 1.61 * REL
    assert np.max(np.abs(got_y - want_y)) < REL


@ember.program(slots=SLOTS)
def _constant(x):
    return ember.poly(x, [2.0, 0.0])


@ember.program(slots=SLOTS)
def _power_interval(x):
    return ember.poly(x, [0.0, 1.0], basis="power", interval=(0, 2))


@ember.program(slots=SLOTS)
def _pole(x):
    return ember.approx(lambda t: 1 / t, x, interval=(-1, 1), degree=8)


@ember.program(slots=SLOTS)
def _basis(x):
    return ember.poly(x, [0.0, 1.0], basis="legendre")


@ember.program(slots=SLOTS)
def _plain(x, w: ember.Plain):
    return x + ember.poly(w, [0.0, 1.0])


@ember.program(slots=SLOTS)
def _reversed(x):
    return ember.approx(np.exp, x, interval=(1, -1), degree=8)


@pytest.mark.parametrize(
    ("prog", "message"),
    [
        (_constant, "the polynomial is a constant"),
        (_power_interval, "the power basis takes no interval"),
        (_pole, "not finite everywhere on [-1.0, 1.0]"),
        (_basis, "basis must be 'chebyshev' or 'power', got 'legendre'"),
        (_plain, "ember.poly of a plaintext input"),
        (_reversed, "interval must have finite lo < hi, got (1.0, -1.0)"),
    ],
)
def test_mistakes_are_named_at_the_users_line(prog, message):
    with pytest.raises(ember.TraceError) as e:
        ember.compile(prog)
    assert message in str(e.value)
    assert (e.value.filename, e.value.lineno) == (HERE, line_of(prog.fn, "return "))


def test_numbers_and_arrays_evaluate_with_numpy():
    x = np.linspace(0, 2, 9)
    np.testing.assert_array_equal(
        ember.poly(x, [1.0, -1.0, 0.5], interval=(0, 2)),
        cheb.chebval(x - 1, [1.0, -1.0, 0.5]),
    )
    c, err = ember.chebyshev_fit(np.cos, (-3, 3), 20)
    assert err < 1e-9 and abs(ember.poly(0.5, c, interval=(-3, 3)) - np.cos(0.5)) < 1e-9


def test_every_degree_at_minimal_depth(build_dir, tmp_path):
    """fhe-expand-poly-eval's baby-step choice: every degree up to 256, in
    both bases, with coefficients that all cost a level, expands to
    ceil(log2(d + 1)) levels (fhe-to-ckks's depth, the input's level).
    Without the choice (k near sqrt(d + 1) always) d = 7, 15, 31, 61-63,
    125-127 and 249-255 took one more."""
    import re
    import subprocess

    modules, want = [], {}
    for basis in ("chebyshev", "power"):
        for d in range(1, 257):
            cs = ", ".join(f"{0.5 + 0.001 * i!r}" for i in range(d + 1))
            modules.append(
                f"func.func @{basis}{d}(%x: !fhe.ct<8>) -> !fhe.ct<8> {{\n"
                f'  %y = fhe.poly_eval %x "{basis}" [{cs}] on [-1.0, 1.0] '
                ": !fhe.ct<8>\n  return %y : !fhe.ct<8>\n}"
            )
            want[f"{basis}{d}"] = math.ceil(math.log2(d + 1))
    source = tmp_path / "degrees.mlir"
    source.write_text("\n// -----\n".join(modules))
    run = subprocess.run(
        [
            str(build_dir / "bin/ember-opt"),
            "--split-input-file",
            "--fhe-expand-poly-eval",
            "--canonicalize",
            "--fhe-to-ckks",
            str(source),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    got = {
        name: int(level)
        for name, level in re.findall(
            r"func.func @(\w+)\(%arg0: !ckks.ct<[^>]*level = (\d+)", run.stdout
        )
    }
    assert got == want
