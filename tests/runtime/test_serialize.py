"""Round trips of parameters, keys, plaintexts and ciphertexts: what is
loaded is bit-identical to what was saved, and works the same."""

from __future__ import annotations

import os
import stat

import ember_runtime as er
import numpy as np
import pytest
from runtime_util import precision_bits, random_complex


@pytest.mark.parametrize("name", ["B", "C"])
def test_params_round_trip(name, tmp_path):
    ctx = er.Context(er.ParamSpec.named(name))
    data = er.serialize(ctx)
    assert er.peek_kind(data) == er.ObjectKind.PARAMS
    assert data == er.serialize_params(ctx)
    loaded = er.deserialize_params(data)
    assert loaded.hash == ctx.hash
    assert loaded.primes == ctx.primes
    assert loaded.describe() == ctx.describe()
    assert (loaded.q_count, loaded.p_count, loaded.n) == (
        ctx.q_count,
        ctx.p_count,
        ctx.n,
    )
    assert [
        loaded.digit_limbs(d, ctx.max_level)
        for d in range(ctx.digit_count(ctx.max_level))
    ] == [
        ctx.digit_limbs(d, ctx.max_level) for d in range(ctx.digit_count(ctx.max_level))
    ]
    path = tmp_path / "params.bin"
    er.save(str(path), ctx)
    assert er.load_params(str(path)).hash == ctx.hash
    assert er.read_file(str(path)) == data


def test_insecure_params_round_trip(ctx_small):
    loaded = er.deserialize_params(er.serialize(ctx_small))
    assert loaded.spec.insecure and loaded.hash == ctx_small.hash


def test_secret_and_public_key_round_trip(ckks_b, rng, tmp_path):
    ctx = ckks_b.ctx
    sk = er.deserialize_secret_key(ctx, er.serialize(ctx, ckks_b.sk))
    assert np.array_equal(sk.residues(), ckks_b.sk.residues())
    path = tmp_path / "public.key"
    er.save(str(path), ctx, ckks_b.pk)
    assert er.peek_kind(path.read_bytes()) == er.ObjectKind.PUBLIC_KEY
    pk = er.load_public_key(ctx, str(path))
    assert np.array_equal(pk.residues(), ckks_b.pk.residues())
    # The loaded keys work: encrypt with the loaded pk, decrypt with the loaded sk.
    x = random_complex(rng, ckks_b.slots)
    ct = ckks_b.encryptor.encrypt(ckks_b.encoder.encode(x), pk)
    got = ckks_b.encoder.decode(er.Decryptor(ctx, sk).decrypt(ct))
    assert precision_bits(got, x) >= 18


def test_ciphertext_round_trip(ckks_b, rng, tmp_path):
    ctx, ev = ckks_b.ctx, ckks_b.evaluator
    x = random_complex(rng, ckks_b.slots)
    fresh = ckks_b.encryptor.encrypt(ckks_b.encoder.encode(x), ckks_b.pk)
    for ct in [fresh, ev.mod_drop_to(fresh, 3), ev.multiply(fresh, fresh)]:
        data = er.serialize(ctx, ct)
        assert er.peek_kind(data) == er.ObjectKind.CIPHERTEXT
        loaded = er.deserialize_ciphertext(ctx, data)
        assert (loaded.level, loaded.scale, loaded.slots, loaded.degree) == (
            ct.level,
            ct.scale,
            ct.slots,
            ct.degree,
        )
        assert np.array_equal(loaded.residues(), ct.residues())
        before = ckks_b.encoder.decode(ckks_b.decryptor.decrypt(ct))
        after = ckks_b.encoder.decode(ckks_b.decryptor.decrypt(loaded))
        assert np.array_equal(before, after)
        assert er.serialize(ctx, loaded) == data
    path = tmp_path / "x.ct"
    er.save(str(path), ctx, fresh)
    assert np.array_equal(
        er.load_ciphertext(ctx, str(path)).residues(), fresh.residues()
    )


def test_sparse_ciphertext_round_trip(ckks_small, rng):
    x = random_complex(rng, 16)
    ct = ckks_small.encryptor.encrypt(
        ckks_small.encoder.encode(x, scale=2.0**35), ckks_small.pk
    )
    loaded = er.deserialize_ciphertext(ckks_small.ctx, er.serialize(ckks_small.ctx, ct))
    assert (loaded.slots, loaded.scale) == (16, 2.0**35)
    assert np.array_equal(loaded.residues(), ct.residues())


def test_plaintext_round_trip(ckks_small, rng):
    x = random_complex(rng, ckks_small.slots)
    pt = ckks_small.encoder.encode(x, level=2)
    data = er.serialize(ckks_small.ctx, pt)
    assert er.peek_kind(data) == er.ObjectKind.PLAINTEXT
    loaded = er.deserialize_plaintext(ckks_small.ctx, data)
    assert (loaded.level, loaded.scale, loaded.slots) == (pt.level, pt.scale, pt.slots)
    assert np.array_equal(loaded.residues(), pt.residues())
    assert np.array_equal(
        ckks_small.encoder.decode(loaded), ckks_small.encoder.decode(pt)
    )


def test_evaluation_keys_round_trip_small(ckks_small, rng, tmp_path):
    ctx = ckks_small.ctx
    path = tmp_path / "eval.keys"
    er.save(str(path), ctx, ckks_small.keys)
    assert er.peek_kind(path.read_bytes()) == er.ObjectKind.EVALUATION_KEYS
    keys = er.load_evaluation_keys(ctx, str(path))
    assert keys.has_relin
    assert keys.galois.elements == ckks_small.galois.elements
    for g in keys.galois.elements:
        for d in range(keys.galois[g].digits):
            assert np.array_equal(
                keys.galois[g].residues(d), ckks_small.galois[g].residues(d)
            )
    for d in range(keys.relin.key.digits):
        assert np.array_equal(
            keys.relin.key.residues(d), ckks_small.relin.key.residues(d)
        )
    # The loaded keys compute the same bits.
    ev = ckks_small.evaluator
    ct = ckks_small.encryptor.encrypt(
        ckks_small.encoder.encode(random_complex(rng, ckks_small.slots)), ckks_small.pk
    )
    assert np.array_equal(
        ev.rotate(ct, 1, keys).residues(),
        ev.rotate(ct, 1, ckks_small.galois).residues(),
    )
    assert np.array_equal(
        ev.multiply_relin(ct, ct, keys).residues(),
        ev.multiply_relin(ct, ct, ckks_small.relin).residues(),
    )


def test_evaluation_keys_round_trip_set_b(ckks_b):
    """Set B: relinearization key and one Galois key (each 3 digits x 2 x 32
    limbs x 2^16 words, about 100 MB)."""
    ctx = ckks_b.ctx
    g = ckks_b.galois.elements[0]
    partial = er.GaloisKeys()
    partial.add(g, ckks_b.galois[g])
    keys = er.EvaluationKeys(relin=ckks_b.relin, galois=partial)
    loaded = er.deserialize_evaluation_keys(ctx, er.serialize(ctx, keys))
    assert loaded.galois.elements == [g]
    assert np.array_equal(loaded.galois[g].residues(2), ckks_b.galois[g].residues(2))
    assert np.array_equal(loaded.relin.key.residues(0), ckks_b.relin.key.residues(0))


def test_evaluation_keys_without_relin(ckks_small):
    keys = er.EvaluationKeys(galois=ckks_small.galois)
    loaded = er.deserialize_evaluation_keys(
        ckks_small.ctx, er.serialize(ckks_small.ctx, keys)
    )
    assert not loaded.has_relin
    assert loaded.galois.elements == ckks_small.galois.elements


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_secret_key_files_are_owner_only(ckks_small, tmp_path, umask_022):
    ctx, sk = ckks_small.ctx, ckks_small.sk
    path = tmp_path / "secret.key"
    er.save(str(path), ctx, sk)
    assert mode(path) == 0o600
    # Over an existing world-readable file, and through write_file.
    path.write_bytes(b"old")
    path.chmod(0o644)
    er.write_file(str(path), er.serialize(ctx, sk))
    assert mode(path) == 0o600
    loaded = er.load_secret_key(ctx, str(path))
    assert np.array_equal(loaded.residues(), sk.residues())
    assert not [p for p in os.listdir(tmp_path) if p != "secret.key"]  # no temp
    public = tmp_path / "public.key"
    er.save(str(public), ctx, ckks_small.pk)
    assert mode(public) == 0o644  # public material keeps the umask's mode
