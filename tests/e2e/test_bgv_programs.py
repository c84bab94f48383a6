"""@ember.program(scheme="bgv"): integer vectors modulo t compiled through
fhe-to-bgv, bgv-to-rns and the rns passes into a plan, run on the CPU on
fresh encryptions and decrypted: the results equal numpy's modular
arithmetic exactly, for programs of depth 1 to 10 (bench/programs/bgv_chain.py:
adds, subtractions, products with ciphertexts, vectors and integers,
negations, rotations, ember.sum). The compiler's noise
budget estimate (worst case) is checked against the one measured on the
decryptions (it must not promise more than there is)."""

from __future__ import annotations

import sys
from pathlib import Path

import ember
import numpy as np
import pytest
from ember.errors import EmberError, OptionError, TraceError

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "programs"))
from bgv_chain import T, chain  # noqa: E402


def numpy_chain(depth: int, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, ...]:
    """bgv_chain.chain(depth) in numpy's modular arithmetic (exact Python
    integers, % t after every step)."""
    x, y = x.astype(object) % T, y.astype(object) % T
    acc = (x * y + 3) % T
    w = np.arange(1, 17) * 1000
    for i in range(depth - 1):
        if i % 3 == 0:
            acc = (acc * w - y) % T
        elif i % 3 == 1:
            acc = (np.roll(acc * x, -i) + 40000 * x) % T
        else:
            acc = (-(acc * acc) + 7 * np.roll(acc, 1)) % T
    total = np.full(16, (x - 5).sum() % T, dtype=object)
    return acc.astype(np.int64), total.astype(np.int64)


def check_budgets(c, keys, outs):
    """The compiler's worst-case noise budget of every output is positive
    and never above the one measured on the decryption."""
    estimated = c.noise_budgets
    measured = c.measure_noise_budgets(keys, outs)
    assert all(e > 0 for e in estimated), estimated
    assert all(m >= e for m, e in zip(measured, estimated, strict=True)), (
        measured,
        estimated,
    )


@pytest.mark.parametrize("depth", range(1, 11))
def test_depth(depth, build_dir, rng):
    prog = chain(depth)
    c = ember.compile(prog)
    assert c.scheme == "bgv" and c.plain_modulus == T
    x = rng.integers(0, T, 16)
    y = rng.integers(-(2**40), 2**40, 16)  # any integers: taken mod t
    want = numpy_chain(depth, x, y)
    # The frontend's own reference (@ember.program called on numpy) agrees.
    for r, w in zip(prog(x, y), want, strict=True):
        np.testing.assert_array_equal(r, w)
    keys = c.keygen()
    outs = c.run(keys.evaluation, c.encrypt(keys, x, y))
    got = c.decrypt(keys, outs)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == np.int64
        np.testing.assert_array_equal(g, w)
    check_budgets(c, keys, outs)


def test_parameters_grow_with_depth(build_dir):
    shallow = ember.compile(chain(1))
    deep = ember.compile(chain(10))
    p1, p10 = shallow.manifest["params"], deep.manifest["params"]
    assert p1["scheme"] == p10["scheme"] == "bgv"
    assert p1["plaintext_modulus"] == T
    assert len(p10["q"]) == 11 and len(p1["q"]) == 2
    assert p10["log_n"] > p1["log_n"]
    # level primes = 1 mod 2N t: every modulus switch keeps the factor 1
    for p in (p1, p10):
        two_n_t = (2 << p["log_n"]) * T
        assert all(q % two_n_t == 1 for q in p["q"][1:])
        assert all(o["scale"] == 1 for o in deep.manifest["outputs"])


def test_frontend_errors(build_dir):
    with pytest.raises(TraceError, match="BGV slots are integers"):

        @ember.program(slots=8, scheme="bgv")
        def half(x):
            return x * 0.5

        half.trace()
    with pytest.raises(TraceError, match="division has no meaning"):

        @ember.program(slots=8, scheme="bgv")
        def div(x):
            return x / 3

        div.trace()
    with pytest.raises(TraceError, match="expected 'ckks', 'bgv', 'bfv' or 'tfhe'"):
        ember.program(slots=8, scheme="bgw")
    with pytest.raises(TraceError, match="plaintext_modulus"):
        ember.program(slots=8, scheme="bgv", plaintext_modulus=1.5)

    @ember.program(slots=8, scheme="bgv")
    def square(x):
        return x * x

    with pytest.raises(OptionError, match="scale_bits: CKKS options"):
        ember.compile(square, scale_bits=30)

    # t = 65539 is prime but batches at no N (3 mod 2^14).
    @ember.program(slots=8, scheme="bgv", plaintext_modulus=65539)
    def odd(x):
        return x * x

    with pytest.raises(EmberError, match="not 1 mod 2N"):
        ember.compile(odd)


def test_inputs_must_be_integers(build_dir):
    @ember.program(slots=8, scheme="bgv")
    def inc(x):
        return x + 1

    c = ember.compile(inc)
    keys = c.keygen()
    with pytest.raises(EmberError, match="input 'x'"):
        c.encrypt(keys, np.array([0.5, 1.0]))
    got = c.decrypt(keys, c.run(keys.evaluation, c.encrypt(keys, [T - 1, 2, -3])))
    np.testing.assert_array_equal(got, [0, 3, T - 2, 1, 1, 1, 1, 1])


def test_noise_of_sums_sizes_the_chain(build_dir, rng):
    """A dot product over 4096 slots: 12 rotations and additions after the
    product, whose noise the depth alone does not budget; fhe-to-bgv grows
    q_0 until its worst-case bound fits, and the result is exact."""

    @ember.program(slots=4096, scheme="bgv", plaintext_modulus=T)
    def dot(x, y):
        return ember.sum(x * y) - 2 * x

    c = ember.compile(dot)
    x, y = rng.integers(0, T, 4096), rng.integers(0, T, 4096)
    keys = c.keygen()
    outs = c.run(keys.evaluation, c.encrypt(keys, x, y))
    xo, yo = x.astype(object), y.astype(object)
    want = ((xo * yo).sum() - 2 * xo) % T
    np.testing.assert_array_equal(c.decrypt(keys, outs), want.astype(np.int64))
    assert c.measure_noise_budgets(keys, outs)[0] >= c.noise_budgets[0] >= 1


def test_klss_key_switching(build_dir, rng):
    """keyswitch="klss": a KLSS form (gamma 4, the fewest 61-bit T primes)
    and every relinearization and rotation through KLSS keys, whose
    coefficient-form ModDown is the t-corrected switch; exact."""
    prog = chain(5)
    c = ember.compile(prog, keyswitch="klss")
    p, k = c.manifest["params"], c.manifest["keys"]
    assert p["gamma"] == 4 and len(p["t"]) > 0
    assert k["klss_relin"] and not k["relin"] and k["klss_galois"] and not k["galois"]
    x, y = rng.integers(0, T, 16), rng.integers(0, T, 16)
    keys = c.keygen()
    outs = c.run(keys.evaluation, c.encrypt(keys, x, y))
    for g, w in zip(c.decrypt(keys, outs), numpy_chain(5, x, y), strict=True):
        np.testing.assert_array_equal(g, w)
    measured = c.measure_noise_budgets(keys, outs)
    assert all(m >= e > 0 for m, e in zip(measured, c.noise_budgets, strict=True))


@pytest.mark.parametrize("scheme", ["bgv", "bfv"])
def test_rotation_added_in_its_moddown(scheme, build_dir, rng):
    """A rotation alone: its c0 side is a permuted lifted addend of the
    ModDown (lift_rotation; BGV's ModDown is t-corrected, BFV's is not);
    exact either way, and the same without the fold."""

    @ember.program(slots=16, scheme=scheme, plaintext_modulus=T)
    def rot(x):
        return x.rotate(5)

    x = rng.integers(0, T, 16)
    for lift in (True, False):
        c = ember.compile(rot, lift_rotation=lift)
        assert ("lifted_galois" in c.ir("rns")) == lift
        keys = c.keygen()
        out = c.decrypt(keys, c.run(keys.evaluation, c.encrypt(keys, x)))
        np.testing.assert_array_equal(out, np.roll(x, -5))


@pytest.mark.parametrize("scheme", ["bgv", "bfv"])
def test_ks_overlap_at_n_2_16(scheme, build_dir, rng):
    """ks_overlap marks a lone key switch at N = 2^16 (t = 786433 batches
    there): a product's relinearization and a rotation, whose ModDowns the
    runtime runs with their inner products as one step (t-corrected for
    BGV); exact either way."""
    t = 786433  # prime, 1 mod 2^18

    @ember.program(slots=16, scheme=scheme, plaintext_modulus=t)
    def prod_rot(x, y):
        return (x * y).rotate(3)

    x, y = rng.integers(0, t, 16), rng.integers(0, t, 16)
    want = np.roll((x.astype(object) * y) % t, -3).astype(np.int64)
    for overlap in (True, False):
        c = ember.compile(prod_rot, log_n=16, ks_overlap=overlap)
        assert c.manifest["params"]["log_n"] == 16
        marks = c.ir("kernel").count(", overlap,")
        assert marks == (2 if overlap else 0), marks
        keys = c.keygen()
        out = c.decrypt(keys, c.run(keys.evaluation, c.encrypt(keys, x, y)))
        np.testing.assert_array_equal(out, want)


def test_plaintext_inputs(build_dir, rng):
    """ember.Plain inputs of a BGV program: integer vectors the server
    encodes when the program runs (bgv.encode_values), at each use's level
    and factor; a product with one takes a level."""

    @ember.program(slots=16, scheme="bgv", plaintext_modulus=T)
    def affine(x, w: ember.Plain, b: ember.Plain):
        return (x * w + b) * x - w

    c = ember.compile(affine)
    assert [s.get("plain", False) for s in c.manifest["inputs"]] == [False, True, True]
    x, b = rng.integers(0, T, 16), rng.integers(0, T, 16)
    w = rng.integers(-(2**40), 2**40, 16)  # taken mod t
    keys = c.keygen()
    outs = c.run(keys.evaluation, c.encrypt(keys, x), w=w, b=b)
    xo, wo, bo = (v.astype(object) for v in (x, w, b))
    want = (((xo * wo + bo) * xo - wo) % T).astype(np.int64)
    np.testing.assert_array_equal(c.decrypt(keys, outs), want)
    np.testing.assert_array_equal(affine(x, w, b), want)
    with pytest.raises(EmberError, match="input 'w'"):
        c.run(keys.evaluation, c.encrypt(keys, x), w=np.full(16, 0.5), b=b)


def test_matvec(build_dir, rng):
    """ember.matvec with an integer matrix in a BGV program: the
    baby-step giant-step expansion (fhe-expand-linear-transform) runs before
    fhe-to-bgv; one level; exact."""
    w = rng.integers(-100, 100, (64, 48))

    @ember.program(slots=64, scheme="bgv", plaintext_modulus=T)
    def mv(x):
        return ember.matvec(w, x) + 7

    c = ember.compile(mv)
    assert len(c.manifest["params"]["q"]) == 2  # q_0 and one level
    x = rng.integers(0, T, 64)
    keys = c.keygen()
    got = c.decrypt(keys, c.run(keys.evaluation, c.encrypt(keys, x)))
    padded = np.zeros((64, 64), dtype=object)
    padded[:, :48] = w
    want = ((padded @ x.astype(object)) + 7) % T
    np.testing.assert_array_equal(got, want.astype(np.int64))
    with pytest.raises(TraceError, match="holds integers"):

        @ember.program(slots=8, scheme="bgv")
        def frac(x):
            return ember.matvec(np.full((8, 8), 0.5), x)

        frac.trace()


def test_example_through_ember_run(build_dir, capsys):
    """examples/integer_vectors.py by `ember run`: integers drawn mod t,
    every output equal to numpy's arithmetic mod t."""
    from ember import cli

    path = Path(__file__).resolve().parents[2] / "examples" / "integer_vectors.py"
    assert cli.main(["run", str(path), "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "exact: every output equals numpy's arithmetic mod 65537" in out
