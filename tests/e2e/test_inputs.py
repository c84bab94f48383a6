"""Inputs as users have them (issue 12): division by plaintexts, vectors
shorter than ``slots`` (zero-padded), and what is refused at the user's
line.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
import ember  # noqa: E402
from frontend_helpers import close, inputs, line_of  # noqa: E402

S = 16
D = np.array([1.0, -2.0, 4.0, 0.5, 3.0, -0.25, 8.0, 1.5] * 2)


def pad(a, n: int = S) -> np.ndarray:
    return np.concatenate([a, np.zeros(n - len(a))])


@ember.program(slots=S)
def divided(x, y):
    return x / 2.0, x / D, (x * y) / 3, x / -1, y / 1, x / [4.0, -8.0]


def test_division_by_plaintexts(compiled, rng):
    c = compiled(divided)
    fhe = c.ir("fhe")
    assert "dense<0.5>" in fhe  # x / 2.0 is x * 0.5
    assert fhe.count("fhe.mul") == 5  # x / -1 is a negation, y / 1 is y
    vals = inputs(rng, divided)
    x, y = vals["x"], vals["y"]
    want = (x / 2, x / D, x * y / 3, -x, y, x * pad([0.25, -0.125]))
    plain = divided(**vals)
    for p, w in zip(plain, want, strict=True):
        np.testing.assert_allclose(p, w, rtol=1e-15)
    for g, w in zip(c(**vals), want, strict=True):
        close(g, w)


def test_division_errors():
    @ember.program(slots=8)
    def by_encrypted(x, y):
        return x / y

    @ember.program(slots=8)
    def of_a_plaintext(x):
        return 1.0 / x

    @ember.program(slots=8)
    def by_zero(x):
        return x / 0

    @ember.program(slots=8)
    def by_a_zero_slot(x):
        return x / np.array([1.0, 0.0, 2.0])

    @ember.program(slots=8)
    def by_a_subnormal(x):
        return x / 5e-324

    for prog, match, text in [
        (by_encrypted, "division by an encrypted value", "x / y"),
        (of_a_plaintext, "division of a float by an encrypted value", "1.0 / x"),
        (by_zero, r"division by zero$", "x / 0"),
        (by_a_zero_slot, r"division by zero \(in some slots\)", "x / np"),
        (by_a_subnormal, "reciprocal is too large", "x / 5e"),
    ]:
        with pytest.raises(ember.TraceError, match=match) as e:
            prog.trace()
        assert e.value.filename == __file__
        assert e.value.lineno == line_of(prog, text)
        with pytest.raises(ember.TraceError, match=match):  # numpy: the same
            prog(*[np.ones(8)] * len(prog.inputs))


@ember.program(slots=S)
def padded(x, y):
    w = np.array([1.0, 2.0, 3.0])
    return x * w + y, x.rotate(1), x + 1.0


def test_short_vectors_are_zero_padded(compiled, rng):
    c = compiled(padded)
    x, y, w = rng.uniform(-1, 1, 5), rng.uniform(-1, 1, S), pad([1.0, 2.0, 3.0])
    xp = pad(x)
    want = (xp * w + y, np.roll(xp, -1), xp + 1.0)
    for p, v in zip(padded(x, y), want, strict=True):
        np.testing.assert_array_equal(p, v)
    got = c(x=x, y=y)
    for g, v in zip(got, want, strict=True):
        close(g, v)
    # The rotation moves the padding in: x[0] wraps to the last slot.
    assert abs(got[1][S - 1] - x[0]) < 2**-13 and np.all(
        abs(got[1][4 : S - 1]) < 2**-13
    )
    assert np.all(abs(got[2][5:] - 1.0) < 2**-13)  # the padding plus 1


def test_longer_vectors_are_refused(compiled):
    c = compiled(padded)
    keys = c.keygen()
    with pytest.raises(ember.InputError, match="input 'x' has 17 values, more than"):
        c.encrypt(keys, x=np.zeros(S + 1), y=np.zeros(S))
    with pytest.raises(ember.InputError, match="input 'y' has 20 values"):
        padded(np.zeros(3), np.zeros(20))
