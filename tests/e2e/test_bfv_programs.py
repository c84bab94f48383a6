"""@ember.program(scheme="bfv"): the integer programs of test_bgv_programs.py
in the scale-invariant scheme, compiled through fhe-to-bgv's BFV variant
(every ciphertext at the full modulus Q, scaled by Delta = Q / t; products
by BEHZ (or HPS), one rns.bfv_tensor each; keys with error factor 1), run
on the CPU on fresh encryptions and decrypted: exactly numpy's modular
arithmetic for depths 1 to 10, plaintext inputs and a matrix-vector
product; the compiler's worst-case noise budget never above the one
measured on the decryptions."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import ember
import numpy as np
import pytest
from ember.errors import EmberError, InputError, OptionError

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "programs"))
from bgv_chain import T, affine, chain  # noqa: E402
from test_bgv_programs import check_budgets, numpy_chain  # noqa: E402


def delta(q: list[int]) -> float:
    """Q / t as the compiler and the runtime compute it (bgv::bfvDelta)."""
    return 2.0 ** (sum(math.log2(p) for p in q) - math.log2(T))


@pytest.mark.parametrize("depth", range(1, 11))
def test_depth(depth, build_dir, rng):
    c = ember.compile(chain(depth, scheme="bfv"))
    assert c.scheme == "bfv" and c.plain_modulus == T
    x = rng.integers(0, T, 16)
    y = rng.integers(-(2**40), 2**40, 16)  # any integers: taken mod t
    keys = c.keygen()
    outs = c.run(keys.evaluation, c.encrypt(keys, x, y))
    for g, w in zip(c.decrypt(keys, outs), numpy_chain(depth, x, y), strict=True):
        assert g.dtype == np.int64
        np.testing.assert_array_equal(g, w)
    check_budgets(c, keys, outs)


def test_parameters(build_dir):
    """BFV's chain: 60-bit primes (no congruence to 2N t, nothing is ever
    switched), more of them and a larger ring for a deeper program; every
    input and output at the top level with the scale Delta = Q / t."""
    shallow = ember.compile(chain(1, scheme="bfv"))
    deep = ember.compile(chain(10, scheme="bfv"))
    p1, p10 = shallow.manifest["params"], deep.manifest["params"]
    assert p1["scheme"] == p10["scheme"] == "bfv"
    assert p1["plaintext_modulus"] == p10["plaintext_modulus"] == T
    assert len(p10["q"]) > len(p1["q"]) and p10["log_n"] > p1["log_n"]
    for c in (shallow, deep):
        p = c.manifest["params"]
        assert all(60 <= q.bit_length() <= 61 for q in p["q"])
        top = len(p["q"]) - 1
        for spec in c.manifest["inputs"] + c.manifest["outputs"]:
            assert spec["level"] == top
            assert spec["scale"] == pytest.approx(delta(p["q"]), rel=1e-12)
    # BGV at the same depth: a level prime per product instead.
    bgv = ember.compile(chain(10)).manifest["params"]
    assert len(bgv["q"]) == 11


def test_plaintext_inputs(build_dir, rng):
    """ember.Plain inputs encoded on the server at run time: w multiplies
    (encoded as m) and is subtracted (encoded as Delta m), b is added."""
    c = ember.compile(affine(scheme="bfv"))
    x, b = rng.integers(0, T, 16), rng.integers(0, T, 16)
    w = rng.integers(-(2**40), 2**40, 16)
    keys = c.keygen()
    outs = c.run(keys.evaluation, c.encrypt(keys, x), w=w, b=b)
    xo, wo, bo = (v.astype(object) for v in (x, w, b))
    want = (((xo * wo + bo) * xo - wo) % T).astype(np.int64)
    np.testing.assert_array_equal(c.decrypt(keys, outs), want)
    check_budgets(c, keys, outs)


def test_matvec_and_sums(build_dir, rng):
    """ember.matvec (baby-step giant-step rotations, products with integer
    diagonals) and ember.sum: exact."""
    w = rng.integers(-100, 100, (64, 48))

    @ember.program(slots=64, scheme="bfv", plaintext_modulus=T)
    def mv(x, y):
        return ember.matvec(w, x) + 7, ember.sum(x * y)

    c = ember.compile(mv)
    x, y = rng.integers(0, T, 64), rng.integers(0, T, 64)
    keys = c.keygen()
    outs = c.run(keys.evaluation, c.encrypt(keys, x, y))
    got_mv, got_sum = c.decrypt(keys, outs)
    padded = np.zeros((64, 64), dtype=object)
    padded[:, :48] = w
    xo, yo = x.astype(object), y.astype(object)
    np.testing.assert_array_equal(got_mv, (((padded @ xo) + 7) % T).astype(np.int64))
    np.testing.assert_array_equal(
        got_sum, np.full(64, (xo * yo).sum() % T).astype(np.int64)
    )
    check_budgets(c, keys, outs)


def test_bfv_mult_reaches_the_runtime(build_dir, rng):
    """bfv_mult: each product is one rns.bfv_tensor, BEHZ's by default
    ({behz}, the plan step's imm[0] = 1), HPS's with bfv_mult="hps"; both
    decrypt exactly (they round differently: their ciphertexts differ)."""
    prog = chain(3, scheme="bfv")
    behz = ember.compile(prog)
    hps = ember.compile(prog, bfv_mult="hps")
    assert "rns.bfv_tensor" in behz.ir("rns") and "{behz}" in behz.ir("rns")
    assert "rns.bfv_tensor" in hps.ir("rns") and "{behz}" not in hps.ir("rns")
    assert hps.meta["options"]["bfv_mult"] == "hps"
    x, y = rng.integers(0, T, 16), rng.integers(0, T, 16)
    for c in (behz, hps):
        keys = c.keygen()
        outs = c.run(keys.evaluation, c.encrypt(keys, x, y))
        for g, w in zip(c.decrypt(keys, outs), numpy_chain(3, x, y), strict=True):
            np.testing.assert_array_equal(g, w)
        check_budgets(c, keys, outs)
    with pytest.raises(OptionError, match="bfv_mult"):
        ember.compile(prog, bfv_mult="fv")


def test_example_through_ember_run(build_dir, capsys):
    """examples/integer_powers.py by `ember run`: integers drawn mod t, a
    depth-3 polynomial and a sum of products, every output equal to
    numpy's arithmetic mod t."""
    from ember import cli

    path = Path(__file__).resolve().parents[2] / "examples" / "integer_powers.py"
    assert cli.main(["run", str(path), "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "exact: every output equals numpy's arithmetic mod 65537" in out


def test_errors(build_dir, rng):
    @ember.program(slots=8, scheme="bfv")
    def square(x):
        return x * x

    with pytest.raises(OptionError, match="CKKS options, not for scheme='bfv'"):
        ember.compile(square, scale_bits=30)
    c = ember.compile(square)
    keys = c.keygen()
    with pytest.raises(EmberError, match="input 'x'"):
        c.encrypt(keys, np.array([0.5, 1.0]))
    with pytest.raises(InputError, match="flooding_bits is for CKKS outputs"):
        c.decrypt(keys, c.run(keys.evaluation, c.encrypt(keys, [1])), flooding_bits=20)
