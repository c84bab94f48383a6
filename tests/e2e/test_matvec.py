"""ember.matvec (issue 14, linear transforms as a compiler operation): one
fhe.linear_transform at the user's line, lowered by baby-step giant-step
(fhe-expand-linear-transform) with the split from its cost model or forced,
run on fresh inputs against numpy; and the mistakes a user can make."""

from __future__ import annotations

import re

import ember
import numpy as np
import pytest
from frontend_helpers import line_of

HERE = __file__

# One plaintext product at a 2^40 scale and up to 64 key-switched terms:
# each term's error is ~2^-30 of the scale, so the sum stays under 2^-24;
# 2^-20 leaves a margin of 16 (measured: 7e-9, about 2^-27).
TOL = 2**-20


def _galois(c: ember.Compiled) -> int:
    return len(c.manifest["keys"]["galois"])


@pytest.mark.parametrize(
    ("baby", "double_hoisting", "keys", "dots"),
    [(None, True, 15 + 3, 4), (None, False, 7 + 7, 0), (4, True, 3 + 15, 0)],
)
def test_square_matrix(build_dir, rng, baby, double_hoisting, keys, dots):
    """64 x 64: the cost model's split, 16 x 4 with double hoisting (15 + 3
    Galois keys; each giant step's inner sum one ckks.hoisted_dot, products
    over Q_l u P) or 8 x 8 without (7 + 7); or a forced 4 x 16 one (3 + 15:
    16 inner sums over 3 rotations, so no hoisted_dot); one level each."""
    w = np.random.default_rng(7).normal(0, 1 / 8, (64, 64))

    @ember.program(slots=64)
    def layer(x):
        return ember.matvec(w, x, baby=baby)

    layer.name = f"layer_{baby}_{double_hoisting}"
    compiled = ember.compile(layer, double_hoisting=double_hoisting)
    assert len(compiled.manifest["params"]["q"]) - 1 == 1
    assert _galois(compiled) == keys
    assert compiled.ir("ckks").count("ckks.hoisted_dot") == dots
    fhe = compiled.ir("fhe")
    assert fhe.count("fhe.linear_transform") == 1
    assert f'{HERE}":{line_of(layer, "ember.matvec")}:' in fhe
    x = rng.uniform(-1, 1, 64)
    np.testing.assert_array_equal(layer(x=x), w @ x)  # the plain run
    assert np.max(np.abs(compiled(x=x) - w @ x)) < TOL


def test_rectangular_matrix_with_a_bias_and_complex_slots(build_dir, rng):
    """10 x 40 in 64 slots (zero rows past 10), plus a bias; and a complex
    matrix in a complex program."""
    w = np.random.default_rng(8).normal(0, 0.2, (10, 40))
    b = np.linspace(-0.5, 0.5, 10)
    z = np.random.default_rng(9).normal(0, 0.1, (16, 16)) * (1 + 1j)

    @ember.program(slots=64)
    def rect(x):
        return ember.matvec(w, x) + b

    @ember.program(slots=16, dtype=complex)
    def cplx(x):
        return ember.matvec(z, x)

    x = rng.uniform(-1, 1, 64)
    want = np.concatenate([w @ x[:40] + b, np.zeros(54)])
    got = ember.compile(rect)(x=x)
    assert np.max(np.abs(got - want)) < TOL
    v = rng.uniform(-1, 1, 16) + 1j * rng.uniform(-1, 1, 16)
    got = ember.compile(cplx)(x=v)
    assert np.max(np.abs(got - z @ v)) < TOL


def test_prepare_encodes_the_constants_before_the_first_run(build_dir, rng):
    """Compiled.prepare() encodes every plaintext constant (the diagonals
    and the bias) so that the first run encodes none; the outputs are the
    ones of a program that encodes them in its run, bit for bit."""
    w = np.random.default_rng(10).normal(0, 0.2, (32, 32))

    @ember.program(slots=32)
    def prepared(x):
        return ember.matvec(w, x) + 0.5

    first, second = ember.compile(prepared), ember.compile(prepared)
    program = first._program()
    assert program.constant_count == 0
    first.prepare()
    encoded = program.constant_count
    assert encoded > 0
    keys = first.keygen()
    x = rng.uniform(-1, 1, 32)
    cts = first.encrypt(keys, x=x)
    out = first.run(keys.evaluation, cts)
    assert program.constant_count == encoded  # nothing left for the run
    want = second.run(keys.evaluation, cts)  # encodes its constants itself
    got = np.asarray(first.decrypt(keys, out))
    np.testing.assert_array_equal(got, np.asarray(second.decrypt(keys, want)))
    assert np.max(np.abs(got - (w @ x + 0.5))) < TOL


@ember.program(slots=16)
def _too_big(x):
    return ember.matvec(np.ones((17, 4)), x)


@ember.program(slots=16)
def _zero(x):
    return ember.matvec(np.zeros((4, 4)), x)


@ember.program(slots=16)
def _vector(x):
    return ember.matvec(np.ones(16), x)


@ember.program(slots=16)
def _complex_in_real(x):
    return ember.matvec(np.eye(4) * 1j, x)


@ember.program(slots=16)
def _bad_baby(x):
    return ember.matvec(np.eye(4), x, baby=32)


@pytest.mark.parametrize(
    ("prog", "message"),
    [
        (_too_big, "a 17 x 4 matrix does not fit 16 slots"),
        (_zero, "the matrix is zero"),
        (_vector, "matvec takes a 2-d numeric matrix, got shape (16,)"),
        (_complex_in_real, "a complex matrix in a real program"),
        (_bad_baby, "baby must be an int in [1, 16], got 32"),
    ],
)
def test_mistakes_are_named_at_the_users_line(prog, message):
    with pytest.raises(ember.TraceError) as e:
        ember.compile(prog)
    assert message in str(e.value)
    assert (e.value.filename, e.value.lineno) == (HERE, line_of(prog.fn, "return "))


def test_hoisted_giant_steps(build_dir, rng):
    """A forced 4 x 16 split: each giant step sums plaintexts times the same
    four baby steps, and its sum feeds its rotation at once. With
    hoist_siblings (the default) horizontal fusion hoists a giant step's
    sum up to the one before, so pairs of giant steps share their loads:
    fewer generated kernels (12 against 19), none hoisted with more than
    four results, and the same w @ x."""
    w = np.random.default_rng(7).normal(0, 1 / 8, (64, 64))

    @ember.program(slots=64)
    def giant(x):
        return ember.matvec(w, x, baby=4)

    on = ember.compile(giant)
    off = ember.compile(giant, hoist_siblings=False)
    assert on.meta["options"]["hoist_siblings"] is True
    assert off.meta["options"]["hoist_siblings"] is False
    k_on, k_off = on.ir("kernel"), off.ir("kernel")
    assert k_on.count("kernel.launch") < k_off.count("kernel.launch")

    # "%7:4 = kernel.launch": a launch's result count after the colon. A
    # hoisted merge makes no kernel of more than four results.
    def results(kernel_ir):
        found = re.findall(r"%\w+(?::(\d+))? = kernel\.launch", kernel_ir)
        return [int(n or 1) for n in found]

    assert max(results(k_on)) <= max(4, *results(k_off))
    x = rng.uniform(-1, 1, 64)
    for c in (on, off):
        assert np.max(np.abs(c(x=x) - w @ x)) < TOL
