"""BGV through the runtime module: encrypted programs of depth 1 to 10 on
fresh random inputs decrypt to numpy's modular arithmetic, exactly.

The parameters are real: N = 2^15, Q = 60 + 10 x 40 bits, P = 2 x 60 (580
bits of the 881 that 128-bit security allows at N = 2^15), t = 65537, the
largest N at which 65537 batches (t = 1 mod 2N). Each multiplication is a
tensor product, a relinearization and a modulus switch, so the chain holds
ten.
"""

from __future__ import annotations

import ember_runtime as er
import numpy as np
import pytest

T = 65537


@pytest.fixture(scope="module")
def bgv():
    spec = er.ParamSpec(log_n=15, q_bits=[60] + [40] * 10, p_bits=[60, 60], dnum=6)
    ctx = er.Context(spec)
    prng = er.Prng()
    keygen = er.KeyGenerator(ctx, prng, error_factor=T)

    class Bgv:
        pass

    b = Bgv()
    b.ctx = ctx
    b.encoder = er.BgvEncoder(ctx, T)
    b.eval = er.BgvEvaluator(ctx, T)
    b.encryptor = er.Encryptor(ctx, prng, error_factor=T)
    b.decryptor = er.Decryptor(ctx, keygen.secret_key())
    b.pk = keygen.public_key()
    b.rk = keygen.relin_key()
    b.keygen = keygen
    b.encrypt = lambda v, slots=None: b.encryptor.encrypt(
        b.encoder.encode(v, slots=slots), b.pk
    )
    b.decrypt = lambda ct: b.encoder.decode(b.decryptor.decrypt(ct))
    b.budget = lambda ct: b.encoder.noise_budget(b.decryptor.decrypt(ct))
    return b


def test_parameters_are_secure(bgv):
    assert bgv.ctx.spec.log_qp <= er.max_log_qp_128(15)
    assert bgv.ctx.max_level == 10


def test_squarings_depth_1_to_10(bgv):
    rng = np.random.default_rng()
    slots = 1 << 14
    x = rng.integers(0, T, slots, dtype=np.int64)
    ct = bgv.encrypt(x)
    want = x.copy()
    budgets = [bgv.budget(ct)]
    for depth in range(1, 11):
        ct = bgv.eval.multiply_relin(ct, ct, bgv.rk)
        want = want * want % T
        assert ct.level == 10 - depth
        np.testing.assert_array_equal(bgv.decrypt(ct), want, err_msg=f"depth {depth}")
        budgets.append(bgv.budget(ct))
    assert all(b > 0 for b in budgets), budgets
    assert budgets == sorted(budgets, reverse=True), budgets


def test_mixed_program(bgv):
    """(a b + 3) c_plain + rot(a, 5) - 7 b, then a product of four inputs:
    every operand kind, factors and levels aligned by the evaluator."""
    rng = np.random.default_rng()
    slots = 4096
    a, b, c, d = (rng.integers(0, T, slots, dtype=np.int64) for _ in range(4))
    gk = bgv.keygen.galois_keys([er.galois_element_for_rotation(bgv.ctx, 5, slots)])
    ca, cb, cd = bgv.encrypt(a), bgv.encrypt(b), bgv.encrypt(d)
    ab = bgv.eval.add_int(bgv.eval.multiply_relin(ca, cb, bgv.rk), 3)
    term = bgv.eval.mul_plain(ab, bgv.encoder.encode(c, level=ab.level))
    out = bgv.eval.sub(
        bgv.eval.add(term, bgv.eval.rotate(ca, 5, gk)), bgv.eval.mul_int(cb, 7)
    )
    want = ((a * b + 3) % T * c + np.roll(a, -5) - 7 * b) % T
    np.testing.assert_array_equal(bgv.decrypt(out), want)
    # a b d a: levels 10, 9 and 8 meet.
    abd = bgv.eval.multiply_relin(bgv.eval.multiply_relin(ca, cb, bgv.rk), cd, bgv.rk)
    abda = bgv.eval.multiply_relin(abd, ca, bgv.rk)
    np.testing.assert_array_equal(bgv.decrypt(abda), a * b % T * d % T * a % T)
    # Negative and oversized Python integers are taken mod t.
    big = [-1, T + 2, 2**70, -(2**65)]
    np.testing.assert_array_equal(bgv.decrypt(bgv.encrypt(big)), [v % T for v in big])


def test_bgv_errors(bgv):
    with pytest.raises(er.InvalidArgument, match="1 \\(mod 2N"):
        er.BgvEncoder(bgv.ctx, 65537 + 2 * 65536 - 2)
    with pytest.raises(er.InvalidArgument, match="integers"):
        bgv.encoder.encode([0.5, 1.5])
    ct = bgv.eval.multiply_relin(bgv.encrypt([1, 2]), bgv.encrypt([3, 4]), bgv.rk)
    with pytest.raises(er.ScaleMismatch, match="factor"):
        bgv.eval.add_plain(ct, bgv.encoder.encode([1, 1], level=ct.level))
    fixed = bgv.eval.add_plain(
        ct, bgv.encoder.encode([1, 1], level=ct.level, factor=int(ct.scale))
    )
    np.testing.assert_array_equal(bgv.decrypt(fixed), [4, 9])
    with pytest.raises(er.MissingKey):
        bgv.eval.rotate(ct, 1, er.GaloisKeys())


@pytest.fixture(scope="module")
def bfv():
    """BFV at N = 2^15: Q = 8 x 60 bits, P = 2 x 60 (600 of 881 bits)."""
    spec = er.ParamSpec(log_n=15, q_bits=[60] * 8, p_bits=[60, 60], dnum=4)
    ctx = er.Context(spec)
    prng = er.Prng()
    keygen = er.KeyGenerator(ctx, prng)  # BFV keys carry the plain error

    class Bfv:
        pass

    b = Bfv()
    b.ctx = ctx
    b.encoder = er.BfvEncoder(ctx, T)
    b.eval = er.BfvEvaluator(ctx, T)
    b.encryptor = er.Encryptor(ctx, prng)
    b.decryptor = er.Decryptor(ctx, keygen.secret_key())
    b.pk = keygen.public_key()
    b.rk = keygen.relin_key()
    b.keygen = keygen
    b.encrypt = lambda v: b.encryptor.encrypt(b.encoder.encode(v), b.pk)
    b.decrypt = lambda ct: b.encoder.decode(b.decryptor.decrypt(ct))
    b.budget = lambda ct: b.encoder.noise_budget(b.decryptor.decrypt(ct))
    return b


def test_bfv_squarings_depth_1_to_10(bfv):
    rng = np.random.default_rng()
    x = rng.integers(0, T, 1 << 14, dtype=np.int64)
    ct = bfv.encrypt(x)
    want = x.copy()
    budgets = [bfv.budget(ct)]
    for depth in range(1, 11):
        ct = bfv.eval.multiply_relin(ct, ct, bfv.rk)
        want = want * want % T
        np.testing.assert_array_equal(bfv.decrypt(ct), want, err_msg=f"depth {depth}")
        budgets.append(bfv.budget(ct))
    assert all(b > 0 for b in budgets), budgets
    assert budgets == sorted(budgets, reverse=True), budgets


def test_bfv_behz_decrypts_like_hps(bfv):
    """BEHZ's tensor product (multiply_behz): the exact product mod t with
    and without relinearization, within two bits of HPS's budget, other
    residues (a floor, not a rounding)."""
    rng = np.random.default_rng()
    x, y = (rng.integers(0, T, 1 << 14, dtype=np.int64) for _ in range(2))
    ca, cb = bfv.encrypt(x), bfv.encrypt(y)
    want = x * y % T
    behz = bfv.eval.multiply_relin_behz(ca, cb, bfv.rk)
    hps = bfv.eval.multiply_relin(ca, cb, bfv.rk)
    np.testing.assert_array_equal(bfv.decrypt(bfv.eval.multiply_behz(ca, cb)), want)
    np.testing.assert_array_equal(bfv.decrypt(behz), want)
    assert abs(bfv.budget(behz) - bfv.budget(hps)) <= 2
    assert not np.array_equal(behz.residues(), hps.residues())


def test_bfv_mixed_program(bfv):
    rng = np.random.default_rng()
    slots = 2048
    a, b, c = (rng.integers(0, T, slots, dtype=np.int64) for _ in range(3))
    gk = bfv.keygen.galois_keys([er.galois_element_for_rotation(bfv.ctx, -2, slots)])
    ca, cb = bfv.encrypt(a), bfv.encrypt(b)
    ab = bfv.eval.add_int(bfv.eval.multiply_relin(ca, cb, bfv.rk), -3)
    term = bfv.eval.mul_plain(ab, bfv.encoder.encode_multiplier(c))
    out = bfv.eval.add_plain(
        bfv.eval.sub(term, bfv.eval.rotate(ca, -2, gk)), bfv.encoder.encode(b)
    )
    want = ((a * b - 3) % T * c - np.roll(a, 2) + b) % T
    np.testing.assert_array_equal(bfv.decrypt(out), want)
    with pytest.raises(er.ScaleMismatch):
        bfv.eval.add_plain(ca, bfv.encoder.encode_multiplier(c))


def test_bgv_and_bfv_ciphertexts_serialize(bgv, bfv):
    """A BGV ciphertext keeps its factor mu (its scale) and a BFV one its
    Delta through serialization; the loaded ones decrypt the same."""
    rng = np.random.default_rng()
    x = rng.integers(0, T, 256, dtype=np.int64)
    for s, ct in [
        (bgv, bgv.eval.multiply_relin(bgv.encrypt(x), bgv.encrypt(x), bgv.rk)),
        (bfv, bfv.eval.multiply_relin(bfv.encrypt(x), bfv.encrypt(x), bfv.rk)),
    ]:
        loaded = er.deserialize_ciphertext(s.ctx, er.serialize(s.ctx, ct))
        assert (loaded.level, loaded.scale, loaded.slots) == (
            ct.level,
            ct.scale,
            ct.slots,
        )
        np.testing.assert_array_equal(s.decrypt(loaded), x * x % T)


@pytest.mark.parametrize("scheme", ["bgv", "bfv"])
def test_chosen_parameters_hold_their_depth(scheme):
    """choose_bgv_params's worst-case noise bounds: a chain of squarings as
    deep as asked decrypts exactly with budget left, at 128-bit security."""
    rng = np.random.default_rng()
    for depth in (1, 4, 8):
        spec = er.choose_bgv_params(scheme, depth, T, 64)
        ctx = er.Context(spec)  # checks the 128-bit bound on the primes
        assert ctx.spec.log_qp <= er.max_log_qp_128(spec.log_n)
        bgv = scheme == "bgv"
        if bgv:
            assert len(spec.q_bits) == depth + 1
        prng = er.Prng()
        kg = er.KeyGenerator(ctx, prng, error_factor=T if bgv else 1)
        enc = (er.BgvEncoder if bgv else er.BfvEncoder)(ctx, T)
        ev = (er.BgvEvaluator if bgv else er.BfvEvaluator)(ctx, T)
        encryptor = er.Encryptor(ctx, prng, error_factor=T if bgv else 1)
        dec = er.Decryptor(ctx, kg.secret_key())
        rk = kg.relin_key()
        x = rng.integers(0, T, 64, dtype=np.int64)
        ct = encryptor.encrypt(enc.encode(x), kg.public_key())
        want = x.copy()
        for _ in range(depth):
            ct = ev.multiply_relin(ct, ct, rk)
            want = want * want % T
        pt = dec.decrypt(ct)
        np.testing.assert_array_equal(enc.decode(pt), want, err_msg=f"{depth}")
        assert enc.noise_budget(pt) > 0, (scheme, depth)


def test_chosen_parameters_refuse_what_cannot_be_secure():
    with pytest.raises(er.InvalidArgument, match="not 1 mod 2N"):
        er.choose_bgv_params("bgv", 2, 65539, 64)
    with pytest.raises(er.InvalidArgument, match="128-bit bound"):
        er.choose_bgv_params("bfv", 60, 65537, 64)
    with pytest.raises(er.InvalidArgument, match="'bgv' or 'bfv'"):
        er.choose_bgv_params("ckks", 2, 65537, 64)


def _gpu() -> bool:
    if not getattr(er, "cuda_built", False):
        return False
    try:
        return er.cuda_device_count() > 0
    except er.DeviceUnavailable:  # no driver (CI, this machine)
        return False


@pytest.mark.skipif(not _gpu(), reason="needs a CUDA device (bench/gpu_run.sh BGV=1)")
def test_gpu_matches_the_cpu(bgv, bfv):
    """The GPU evaluators from Python: residue for residue the CPU's, and the
    results decrypt to numpy's modular arithmetic."""
    rng = np.random.default_rng()
    slots = 256
    for s, cls in ((bgv, er.CudaBgvEvaluator), (bfv, er.CudaBfvEvaluator)):
        dev = er.CudaDevice(s.ctx)
        gk = s.keygen.galois_keys([er.galois_element_for_rotation(s.ctx, 3, slots)])
        keys = er.CudaEvaluationKeys(dev, er.EvaluationKeys(relin=s.rk, galois=gk))
        gev = cls(dev, keys, T)
        x, y = (rng.integers(0, T, slots, dtype=np.int64) for _ in range(2))
        ca, cb = s.encrypt(x), s.encrypt(y)
        cpu = s.eval.rotate(
            s.eval.add_int(s.eval.multiply_relin(ca, cb, s.rk), 5), 3, gk
        )
        prod = gev.multiply_relin(dev.upload(ca), dev.upload(cb))
        gpu = dev.download(gev.rotate(gev.add_int(prod, 5), 3))
        np.testing.assert_array_equal(gpu.residues(), cpu.residues())
        np.testing.assert_array_equal(s.decrypt(gpu), np.roll((x * y + 5) % T, -3))
        if s is bfv:  # and BEHZ's product
            behz = gev.multiply_relin_behz(dev.upload(ca), dev.upload(cb))
            np.testing.assert_array_equal(
                dev.download(behz).residues(),
                s.eval.multiply_relin_behz(ca, cb, s.rk).residues(),
            )
