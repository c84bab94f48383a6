"""Plaintext inputs (values the server is given when the program runs),
complex slot values and inputs of different slot counts (issue 12), each
decrypted and compared with the same function on numpy, on fresh inputs,
and what is refused, at the user's line."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
import ember  # noqa: E402
from frontend_helpers import line_of  # noqa: E402

S = 16
# One multiplication at a 2^40 scale, inputs in [-1, 1]: the CKKS error is
# about 2^-30 (bench/RESULTS.md); 2^-20 leaves a wide margin.
TOL = 2**-20


@ember.program(slots=S)
def weighted(x, w: ember.Plain, b: ember.Plain):
    """A plaintext weight vector and bias, given at run time."""
    return x * w + b, (w - x) * x


def test_plaintext_inputs_take_new_values_without_recompiling(compiled, rng):
    c = compiled(weighted)
    assert c.plain_inputs == ("w", "b") and c.encrypted_inputs == ("x",)
    assert [bool(s.get("plain")) for s in c.manifest["inputs"]] == [False, True, True]
    keys = c.keygen()
    x = rng.uniform(-1, 1, S)
    cts = c.encrypt(keys, x=x)
    for _ in range(2):  # new weights: the same compiled program
        w, b = rng.uniform(-1, 1, S), rng.uniform(-1, 1, 5)  # b zero-padded
        got = c.decrypt(keys, c.run(keys.evaluation, cts, w=w, b=b))
        want = weighted(x=x, w=w, b=b)
        for g, v in zip(got, want, strict=True):
            np.testing.assert_allclose(g, v, rtol=0, atol=TOL)
    # the convenience call splits encrypted and plaintext inputs
    w = rng.uniform(-1, 1, S)
    np.testing.assert_allclose(
        c(x=x, w=w, b=w)[0], weighted(x=x, w=w, b=w)[0], rtol=0, atol=TOL
    )


def test_plaintext_inputs_are_checked(compiled, rng):
    c = compiled(weighted)
    keys = c.keygen()
    cts = c.encrypt(keys, x=rng.uniform(-1, 1, S))
    with pytest.raises(ember.ArgumentNameError, match="missing input 'b'"):
        c.run(keys.evaluation, cts, w=np.zeros(S))
    with pytest.raises(ember.InputError, match="17 values, more than"):
        c.run(keys.evaluation, cts, w=np.zeros(S + 1), b=np.zeros(S))
    # A plaintext input has a range too ([-1, 1] unless declared): the
    # scale was chosen for it.
    with pytest.raises(ember.InputError, match="input 'w' = 2.0 .* outside its range"):
        c.run(keys.evaluation, cts, w=np.full(S, 2.0), b=np.zeros(S))
    with pytest.raises(ember.ArgumentNameError, match="no input named 'x'"):
        c.run(keys.evaluation, cts, x=np.zeros(S), w=np.zeros(S), b=np.zeros(S))
    # The runtime refuses a missing or short plaintext input itself.
    program = c._program()
    with pytest.raises(Exception, match="plaintext input 'w' is missing"):
        program.run(c._context(), keys.evaluation.keys, list(cts), [])


def test_plaintext_inputs_combine_with_encrypted_values_only():
    @ember.program(slots=S)
    def doubled(x, w: ember.Plain):
        return x * (w * 2)  # this line

    line = line_of(doubled.fn, "# this " + "line")
    with pytest.raises(ember.TraceError, match=r"combines with encrypted values") as e:
        ember.compile(doubled)
    assert e.value.lineno == line

    with pytest.raises(ember.TraceError, match="no encrypted input"):

        @ember.program(slots=S)
        def only_plain(w: ember.Plain):
            return w

    # Slot moves of a plaintext input would run on the server's plaintext.
    def moved_by(move):
        @ember.program(slots=S)
        def moved(x, w: ember.Plain):
            return x * move(w)

        return moved

    for move, what in [
        (lambda w: w.tile(2 * S), r"tile\(32\) of a plaintext input"),
        (lambda w: w.rotate(1), r"rotate\(1\) of a plaintext input"),
        (lambda w: w.conjugate(), r"conjugate\(\) of a plaintext input"),
    ]:
        with pytest.raises(ember.TraceError, match=what):
            ember.compile(moved_by(move))


@ember.program(slots=S, dtype=complex)
def rotated_phase(z, w: ember.Plain):
    """Complex slots: a complex constant, conjugation, a complex plaintext."""
    return z * (0.5 - 0.25j) + z.conjugate() * w, (z * z).rotate(3)


def test_complex_inputs_constants_and_outputs(compiled, rng):
    c = compiled(rotated_phase)
    assert c.is_complex
    z = rng.uniform(-1, 1, S) + 1j * rng.uniform(-1, 1, S)
    w = rng.uniform(-1, 1, S) + 1j * rng.uniform(-1, 1, S)
    got = c(z=z, w=w)
    want = rotated_phase(z=z, w=w)
    for g, v in zip(got, want, strict=True):
        assert g.dtype == np.complex128 and np.iscomplexobj(v)
        np.testing.assert_allclose(g, v, rtol=0, atol=TOL)


def test_complex_values_need_a_complex_program(compiled):
    @ember.program(slots=S)
    def rotate_phase(x):
        return x * 1j  # this line

    line = line_of(rotate_phase.fn, "# this " + "line")
    with pytest.raises(ember.TraceError, match="dtype=complex") as e:
        ember.compile(rotate_phase)
    assert e.value.lineno == line
    c = compiled(weighted)
    with pytest.raises(ember.InputError, match="complex values, in a real program"):
        c.encrypt(c.keygen(), x=np.ones(S, dtype=complex))


@ember.program(slots=S)
def mixed_slots(a: ember.Encrypted[4], b, v: ember.Plain[4]):
    """A 4-slot and a 16-slot input: a.tile(16) repeats a to 16 slots."""
    return a.tile(S) * b, (a * v).rotate(1), ember.sum(a)


def test_inputs_of_different_slot_counts(compiled, rng):
    c = compiled(mixed_slots)
    assert [s["slots"] for s in c.manifest["inputs"]] == [4, S, 4]
    assert [s["slots"] for s in c.manifest["outputs"]] == [S, 4, 4]
    a, b, v = rng.uniform(-1, 1, 4), rng.uniform(-1, 1, S), rng.uniform(-1, 1, 4)
    got = c(a=a, b=b, v=v)
    want = mixed_slots(a=a, b=b, v=v)
    np.testing.assert_allclose(want[0], np.tile(a, 4) * b)
    for g, w in zip(got, want, strict=True):
        assert g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=0, atol=TOL)


def test_different_slot_counts_meet_only_through_tile():
    @ember.program(slots=S)
    def untiled(a: ember.Encrypted[4], b):
        return a * b  # this line

    line = line_of(untiled.fn, "# this " + "line")
    with pytest.raises(ember.TraceError, match=r"x.tile\(16\)") as e:
        ember.compile(untiled)
    assert e.value.lineno == line

    @ember.program(slots=S)
    def bad_tile(a: ember.Encrypted[4]):
        return a.tile(6)

    with pytest.raises(ember.TraceError, match="power of two"):
        ember.compile(bad_tile)
