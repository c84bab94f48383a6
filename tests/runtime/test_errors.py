"""Bad input raises the named error (ember/errors.h), never a crash or a
wrong answer.

Most cases use the small insecure context (fast); level, scale and key errors
are also checked at set B, where the keys already exist.
"""

from __future__ import annotations

import hashlib
import struct

import ember_runtime as er
import numpy as np
import pytest
from runtime_util import random_complex

HEADER = 4 + 4 + 4 + 32 + 8  # magic, version, kind, parameter hash, payload length


def reseal(data: bytearray) -> bytes:
    """Recomputes the trailing SHA-256, so that a test reaches the check
    behind the checksum (version, kind, parameters, residues)."""
    body = bytes(data[:-32])
    return body + hashlib.sha256(body).digest()


def test_error_hierarchy():
    for name in [
        "InvalidArgument",
        "SecurityError",
        "LevelMismatch",
        "ScaleMismatch",
        "MissingKey",
        "SerializationError",
    ]:
        assert issubclass(getattr(er, name), er.EmberError)
    assert issubclass(er.EmberError, RuntimeError)
    assert issubclass(er.InvalidArgument, ValueError)


# --- Encoding -----------------------------------------------------------------------


def test_wrong_length_vector(ckks_small):
    enc = ckks_small.encoder
    with pytest.raises(er.InvalidArgument):
        enc.encode(np.ones(5), slots=8)
    with pytest.raises(er.InvalidArgument):
        enc.encode(np.ones(2 * ckks_small.ctx.slots_max))  # more than N/2 slots
    with pytest.raises(er.InvalidArgument):
        enc.encode(np.ones((4, 4)))  # not a vector


def test_slots_not_a_power_of_two(ckks_small):
    with pytest.raises(er.InvalidArgument):
        ckks_small.encoder.encode(np.ones(6))
    with pytest.raises(er.InvalidArgument):
        ckks_small.encoder.encode(np.ones(0))


def test_value_too_large_for_the_modulus(ckks_small):
    # 2^30 at scale 2^40 needs 70 bits; level 0 has one 50-bit prime.
    with pytest.raises(er.InvalidArgument):
        ckks_small.encoder.encode(np.full(8, 2.0**30), level=0)


def test_encode_level_out_of_range(ckks_small):
    with pytest.raises(er.EmberError):
        ckks_small.encoder.encode(np.ones(8), level=ckks_small.ctx.max_level + 1)


# --- Levels and scales -------------------------------------------------------------


def test_level_mismatch(ckks_b, rng):
    ev = ckks_b.evaluator
    x = random_complex(rng, ckks_b.slots)
    a = ckks_b.encryptor.encrypt(ckks_b.encoder.encode(x), ckks_b.pk)
    b = ev.mod_drop_to(a, a.level - 1)
    with pytest.raises(er.LevelMismatch, match="level"):
        ev.add(a, b)
    with pytest.raises(er.LevelMismatch):
        ev.multiply(a, b)
    with pytest.raises(er.LevelMismatch):
        ev.add_plain(a, ckks_b.encoder.encode(x, level=a.level - 1))
    with pytest.raises(er.LevelMismatch):
        ev.mod_drop_to(b, a.level)  # upwards


def test_scale_mismatch(ckks_b, rng):
    ev = ckks_b.evaluator
    x = random_complex(rng, ckks_b.slots)
    a = ckks_b.encryptor.encrypt(ckks_b.encoder.encode(x), ckks_b.pk)
    b = ckks_b.encryptor.encrypt(ckks_b.encoder.encode(x, scale=2.0**41), ckks_b.pk)
    with pytest.raises(er.ScaleMismatch, match="scale"):
        ev.add(a, b)
    with pytest.raises(er.ScaleMismatch):
        ev.sub(a, b)
    with pytest.raises(er.ScaleMismatch):
        ev.add_plain(a, ckks_b.encoder.encode(x, scale=2.0**41))


def test_rescale_at_level_0(ckks_small, rng):
    ev = ckks_small.evaluator
    ct = ckks_small.encryptor.encrypt(
        ckks_small.encoder.encode(random_complex(rng, 8)), ckks_small.pk
    )
    bottom = ev.mod_drop_to(ct, 0)
    with pytest.raises(er.LevelMismatch):
        ev.rescale(bottom)
    with pytest.raises(er.LevelMismatch):
        er.rescale(ckks_small.ctx, bottom.residues()[0], 0)


# --- Keys ---------------------------------------------------------------------------


def test_missing_galois_key(ckks_b, rng):
    ev = ckks_b.evaluator
    ct = ckks_b.encryptor.encrypt(
        ckks_b.encoder.encode(random_complex(rng, ckks_b.slots)), ckks_b.pk
    )
    with pytest.raises(er.MissingKey, match="2"):
        ev.rotate(ct, 2, ckks_b.galois)  # keys exist for 1, 5, -1, -7, slots/2+3
    with pytest.raises(er.MissingKey):
        ev.conjugate(ct, er.GaloisKeys())
    with pytest.raises(er.MissingKey):
        ckks_b.galois[3]


def test_missing_relin_key(ckks_small, rng):
    ev = ckks_small.evaluator
    ct = ckks_small.encryptor.encrypt(
        ckks_small.encoder.encode(random_complex(rng, 8)), ckks_small.pk
    )
    no_relin = er.EvaluationKeys(galois=ckks_small.galois)
    assert not no_relin.has_relin
    with pytest.raises(er.MissingKey):
        ev.multiply_relin(ct, ct, no_relin)
    with pytest.raises(er.MissingKey):
        ev.relinearize(ev.multiply(ct, ct), no_relin)
    with pytest.raises(er.MissingKey):
        _ = no_relin.relin


def test_keys_of_other_parameters(ckks_small, ckks_b, rng):
    """A ciphertext of one context handed to keys or evaluators of another."""
    ct = ckks_small.encryptor.encrypt(
        ckks_small.encoder.encode(random_complex(rng, 8)), ckks_small.pk
    )
    with pytest.raises(er.EmberError):
        ckks_b.decryptor.decrypt(ct)


# --- Parameters ---------------------------------------------------------------------


def test_insecure_parameters():
    # log N = 13 allows 218 bits of QP; 5 x 60 = 300 bits of Q alone.
    args = dict(log_n=13, q_bits=[60] * 5, p_bits=[60], dnum=5)
    spec = er.ParamSpec(**args)
    with pytest.raises(er.SecurityError, match="218"):
        er.Context(spec)
    with pytest.raises(er.SecurityError):
        er.check_security(spec)
    ctx = er.Context(er.ParamSpec(**args, insecure=True))
    assert ctx.spec.insecure and "INSECURE" in ctx.describe()
    assert er.max_log_qp_128(13) == 218 and er.max_log_qp_128(16) == 1747


def test_named_sets_are_secure():
    for name in "ABC":
        spec = er.ParamSpec.named(name)
        assert spec.log_qp <= er.max_log_qp_128(16), name
        er.check_security(spec)
    with pytest.raises(er.InvalidArgument):
        er.ParamSpec.named("D")


def test_bad_shapes():
    with pytest.raises(er.InvalidArgument):
        er.generate_ntt_primes(16, [17])  # below log N + 2
    with pytest.raises(er.InvalidArgument):
        er.generate_ntt_primes(10, [62])
    with pytest.raises(er.InvalidArgument):  # dnum above the number of Q primes
        er.Context(
            er.ParamSpec(log_n=10, q_bits=[40, 40], p_bits=[60], dnum=3, insecure=True)
        )
    with pytest.raises(er.InvalidArgument):  # not prime
        spec = er.ParamSpec(log_n=4, q_bits=[30], p_bits=[], insecure=True)
        er.Context(spec, [2**30 - 31], [])
    with pytest.raises(er.InvalidArgument):  # a 61-bit prime in 32-bit words
        primes = er.generate_ntt_primes(4, [61])
        er.Context32(
            er.ParamSpec(log_n=4, q_bits=[61], p_bits=[], insecure=True), primes, []
        )


def test_primitive_argument_checks(ckks_small):
    ctx = ckks_small.ctx
    n = ctx.n
    with pytest.raises(er.InvalidArgument):
        er.ntt(ctx, np.zeros((2, n), dtype=np.uint64), [0])  # shape vs basis
    with pytest.raises(er.InvalidArgument):
        er.ntt(ctx, np.zeros((1, n // 2), dtype=np.uint64), [0])  # wrong N
    with pytest.raises(er.InvalidArgument):
        er.ntt(ctx, np.full((1, n), ctx.primes[0], dtype=np.uint64), [0])  # not reduced
    with pytest.raises(er.InvalidArgument):
        er.ntt(ctx, np.zeros((1, n), dtype=np.uint64), [99])  # no such modulus
    with pytest.raises(er.InvalidArgument):
        er.bconv(ctx, np.zeros((2, n), dtype=np.uint64), [0, 1], [1, 2])  # overlap
    with pytest.raises(er.InvalidArgument):
        er.automorphism(ctx, np.zeros((1, n), dtype=np.uint64), [0], True, 4)  # even
    with pytest.raises(er.InvalidArgument):
        er.Prng(b"short seed")


# --- Serialized files ---------------------------------------------------------------


@pytest.fixture(scope="module")
def small_files(ckks_small):
    x = np.linspace(-1, 1, 8)
    ct = ckks_small.encryptor.encrypt(ckks_small.encoder.encode(x), ckks_small.pk)
    return {
        "ct": ct,
        "ct_bytes": er.serialize(ckks_small.ctx, ct),
        "pk_bytes": er.serialize(ckks_small.ctx, ckks_small.pk),
    }


def test_truncated_file(ckks_small, small_files, tmp_path):
    data = small_files["ct_bytes"]
    for cut in [0, 3, HEADER - 1, HEADER + 10, len(data) // 2, len(data) - 1]:
        with pytest.raises(er.SerializationError):
            er.deserialize_ciphertext(ckks_small.ctx, data[:cut])
    path = tmp_path / "truncated.ct"
    path.write_bytes(data[:-100])
    with pytest.raises(er.SerializationError, match="truncated"):
        er.load_ciphertext(ckks_small.ctx, str(path))
    with pytest.raises(er.SerializationError):
        er.load_ciphertext(ckks_small.ctx, str(tmp_path / "missing.ct"))


@pytest.mark.parametrize(
    "where", ["magic", "version", "kind", "hash", "length", "payload", "checksum"]
)
def test_corrupted_byte(ckks_small, small_files, rng, where):
    data = bytearray(small_files["ct_bytes"])
    offset = {
        "magic": 1,
        "version": 4,
        "kind": 8,
        "hash": 20,
        "length": HEADER - 3,
        "payload": int(rng.integers(HEADER, len(data) - 32)),
        "checksum": len(data) - 5,
    }[where]
    data[offset] ^= 1 << int(rng.integers(0, 8))
    with pytest.raises(er.SerializationError):
        er.deserialize_ciphertext(ckks_small.ctx, bytes(data))
    with pytest.raises(er.SerializationError):
        er.peek_kind(bytes(data))


def test_appended_bytes(ckks_small, small_files):
    with pytest.raises(er.SerializationError):
        er.deserialize_ciphertext(ckks_small.ctx, small_files["ct_bytes"] + b"\0")


def test_checks_behind_the_checksum(ckks_small, small_files):
    """Fields that a valid checksum does not make right."""
    ctx, ct, data = ckks_small.ctx, small_files["ct"], small_files["ct_bytes"]
    future = bytearray(data)
    future[4:8] = struct.pack("<I", er.FORMAT_VERSION + 1)
    with pytest.raises(er.SerializationError, match="version"):
        er.deserialize_ciphertext(ctx, reseal(future))
    unknown = bytearray(data)
    unknown[8:12] = struct.pack("<I", 99)
    with pytest.raises(er.SerializationError, match="kind"):
        er.deserialize_ciphertext(ctx, reseal(unknown))
    # A residue above its modulus: find the last residue in the payload.
    last = struct.pack("<Q", int(ct.residues()[-1, -1, -1]))
    at = bytes(data).rfind(last)
    assert at >= HEADER
    bad = bytearray(data)
    bad[at : at + 8] = struct.pack("<Q", 2**64 - 1)
    with pytest.raises(er.SerializationError, match="reduced"):
        er.deserialize_ciphertext(ctx, reseal(bad))


def test_forged_scale_is_refused(ckks_small, small_files, tmp_path):
    """The issue's case: a ciphertext file re-sealed with a scale of 1e300
    (the checksum is unkeyed) decrypted to nonsense; now the load names the
    scale. Payload: level i32, scale f64, slots u64, ..."""
    ctx, data = ckks_small.ctx, small_files["ct_bytes"]
    forged = bytearray(data)
    assert struct.unpack_from("<d", forged, HEADER + 4)[0] == small_files["ct"].scale
    struct.pack_into("<d", forged, HEADER + 4, 1e300)
    with pytest.raises(er.SerializationError, match=r"scale 1\.0+1e\+300"):
        er.deserialize_ciphertext(ctx, reseal(forged))
    path = tmp_path / "forged.ct"
    path.write_bytes(reseal(forged))
    with pytest.raises(er.SerializationError, match="scale"):
        er.load_ciphertext(ctx, str(path))
    for fmt, at, value, field in [
        ("<i", HEADER, -1, "level -1"),
        ("<i", HEADER, ctx.max_level + 1, f"level {ctx.max_level + 1}"),
        ("<d", HEADER + 4, 0.5, "scale"),
        ("<Q", HEADER + 12, 3, "slot count 3"),
        ("<Q", HEADER + 12, ctx.n, f"slot count {ctx.n}"),
        ("<I", HEADER + 20, 4, "4 polynomials"),
    ]:
        bad = bytearray(data)
        struct.pack_into(fmt, bad, at, value)
        with pytest.raises(er.SerializationError, match=field):
            er.deserialize_ciphertext(ctx, reseal(bad))


def test_key_file_loaded_as_a_ciphertext(ckks_small, small_files, tmp_path):
    path = tmp_path / "public.key"
    er.save(str(path), ckks_small.ctx, ckks_small.pk)
    assert er.peek_kind(path.read_bytes()) == er.ObjectKind.PUBLIC_KEY
    with pytest.raises(er.SerializationError, match="public key"):
        er.load_ciphertext(ckks_small.ctx, str(path))
    with pytest.raises(er.SerializationError):
        er.deserialize_secret_key(ckks_small.ctx, small_files["pk_bytes"])
    with pytest.raises(er.SerializationError):
        er.deserialize_params(small_files["pk_bytes"])


def test_ciphertext_for_other_parameters(ckks_small, small_files):
    """Other primes (a 51-bit q_0), or the same primes with another default
    scale: the parameter hash differs either way."""
    base = dict(
        q_bits=[50, 40, 40, 40], p_bits=[50, 50], dnum=2, log_scale=40, insecure=True
    )
    others = [
        er.Context(er.ParamSpec(log_n=12, **{**base, "q_bits": [51, 40, 40, 40]})),
        er.Context(er.ParamSpec(log_n=12, **{**base, "log_scale": 39})),
    ]
    for other in others:
        assert other.hash != ckks_small.ctx.hash
        with pytest.raises(er.SerializationError, match="other parameters"):
            er.deserialize_ciphertext(other, small_files["ct_bytes"])
        with pytest.raises(er.SerializationError, match="other parameters"):
            er.deserialize_public_key(other, small_files["pk_bytes"])


def test_forged_insecure_flag_is_rechecked(ckks_small):
    """A parameter file whose insecure flag is cleared still fails the
    security check on load (the flag is not trusted)."""
    data = bytearray(er.serialize(ckks_small.ctx))
    # Payload: name (u32 length + bytes), log_n, dnum, log_scale, h, insecure u8.
    name_len = struct.unpack_from("<I", data, HEADER)[0]
    flag = HEADER + 4 + name_len + 4 + 4 + 8 + 4
    assert data[flag] == 1
    data[flag] = 0
    with pytest.raises((er.SecurityError, er.SerializationError)):
        er.deserialize_params(reseal(data))
