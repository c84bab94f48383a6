"""KLSS key switching on the CPU runtime (issue 7).

The exact base conversion is checked against Python big integers; KLSS
relinearization and rotation decrypt to the numpy result within the same
bounds as hybrid key switching (and within a bit of hybrid's precision on
the same inputs) at set B, top and middle levels, and at Athena's
(L+1, K, gamma, r') = (24, 8, 8, 10) shape. Fresh random inputs each run.
"""

from __future__ import annotations

import numpy as np
import pytest
from exact_ref import Crt, random_residues
from runtime_util import er, precision_bits, random_complex

# Same bounds as hybrid key switching at set B (test_ckks.py).
MUL_RESCALE_BITS = 20
ROTATE_BITS = 18
# athena24 has 36-bit scale primes: 4 bits less headroom than set B
# (19.2-19.6 bits measured, hybrid and KLSS alike).
ATHENA_MUL_RESCALE_BITS = 17


def klss_spec(t_primes: int = 6) -> er.ParamSpec:
    """N = 2^12, Q = 60 + 6 x 40, P = 3 x 60, dnum 3, gamma 3, t_primes T
    primes of 61 bits (6 is the fewest the exact products need)."""
    return er.ParamSpec(
        log_n=12,
        q_bits=[60] + [40] * 6,
        p_bits=[60] * 3,
        dnum=3,
        insecure=True,
        klss_gamma=3,
        t_bits=[61] * t_primes,
    )


@pytest.fixture(scope="module")
def ctx_klss_small() -> er.Context:
    return er.Context(klss_spec())


def test_exact_bconv_matches_big_integers(ctx_klss_small, rng):
    ctx = ctx_klss_small
    n = 256  # columns checked against big integers
    for source, target in [
        (ctx.digit_limbs(0, ctx.max_level), ctx.t_basis()),
        (ctx.t_basis(), ctx.klss_group_limbs(0, ctx.max_level)),
        (ctx.t_basis(), ctx.klss_group_limbs(2, ctx.max_level)),
    ]:
        primes = [ctx.primes[i] for i in source]
        x = random_residues(rng, primes, ctx.n)
        out = er.bconv_exact(ctx, x, source, target)
        crt = Crt(primes)
        for k in range(n):
            value = crt.reconstruct_centred([int(r) for r in x[:, k]])
            want = [value % ctx.primes[t] for t in target]
            assert [int(v) for v in out[:, k]] == want, f"coefficient {k}"


def test_context_reports_the_klss_layout(ctx_klss_small):
    ctx = ctx_klss_small
    assert ctx.has_klss and ctx.t_count == 6 and ctx.klss_gamma == 3
    assert ctx.klss_group_count(ctx.max_level) == 4
    assert ctx.klss_t_bits >= ctx.klss_t_bits_needed
    assert "KLSS gamma 3 r' 6" in ctx.describe()
    with pytest.raises(er.InvalidArgument, match="add T primes"):
        er.Context(klss_spec(5))


def test_key_sizes_at_athena40():
    """(L+1, K, gamma, r') = (40, 8, 8, 10): 5 digits x 6 groups x 10 T limbs
    against 5 digits x 48 limbs, both for b and a, at N = 2^16."""
    ctx = er.Context(er.ParamSpec.named("athena40"))
    assert ctx.q_count == 40 and ctx.p_count == 8 and ctx.t_count == 10
    assert ctx.klss_group_count(ctx.max_level) == 6
    limb = (1 << 16) * 8
    assert er.klss_key_bytes(ctx) == 5 * 6 * 2 * 10 * limb
    assert er.hybrid_key_bytes(ctx) == 5 * 2 * 48 * limb
    assert ctx.spec.log_qp <= er.max_log_qp_128(16)


@pytest.fixture(scope="module")
def klss_b(ckks_b):
    """KLSS relinearization and Galois keys of set B from the same secret."""
    elements = [
        er.galois_element_for_rotation(ckks_b.ctx, 5, ckks_b.slots),
        er.galois_element_for_conjugation(ckks_b.ctx),
    ]
    return ckks_b.keygen.klss_relin_key(), ckks_b.keygen.klss_galois_keys(elements)


def _encrypt(ck, values, level):
    pt = ck.encoder.encode(values, level=level, scale=2.0**40, slots=ck.slots)
    return ck.encryptor.encrypt_symmetric(pt, ck.sk)


def _decrypt(ck, ct):
    return ck.encoder.decode(ck.decryptor.decrypt(ct))


@pytest.mark.parametrize("level", [23, 11])
def test_set_b_klss_matches_hybrid(ckks_b, klss_b, rng, level):
    ev = ckks_b.evaluator
    krelin, kgalois = klss_b
    x, y = random_complex(rng, ckks_b.slots), random_complex(rng, ckks_b.slots)
    cx, cy = _encrypt(ckks_b, x, level), _encrypt(ckks_b, y, level)
    hybrid = ev.rescale(ev.multiply_relin(cx, cy, ckks_b.relin))
    klss = ev.rescale(ev.multiply_relin(cx, cy, krelin))
    hybrid_bits = precision_bits(_decrypt(ckks_b, hybrid), x * y)
    klss_bits = precision_bits(_decrypt(ckks_b, klss), x * y)
    assert klss_bits >= MUL_RESCALE_BITS, f"KLSS multiply: {klss_bits:.1f} bits"
    assert klss_bits >= hybrid_bits - 1, (klss_bits, hybrid_bits)

    rot = ev.rotate(cx, 5, kgalois)
    assert precision_bits(_decrypt(ckks_b, rot), np.roll(x, -5)) >= ROTATE_BITS
    conj = ev.conjugate(cx, kgalois)
    assert precision_bits(_decrypt(ckks_b, conj), np.conj(x)) >= ROTATE_BITS


def test_missing_klss_key_is_named(ckks_b, klss_b, rng):
    _, kgalois = klss_b
    cx = _encrypt(ckks_b, random_complex(rng, ckks_b.slots), 23)
    with pytest.raises(er.MissingKey, match="rotation by 1"):
        ckks_b.evaluator.rotate(cx, 1, kgalois)


def test_athena24_klss_multiply(rng):
    ctx = er.Context(er.ParamSpec.named("athena24"))
    kg = er.KeyGenerator(ctx)
    krelin = kg.klss_relin_key()
    enc, dec, ev = er.Encoder(ctx), er.Decryptor(ctx, kg.secret_key()), None
    ev = er.Evaluator(ctx)
    encr = er.Encryptor(ctx)
    slots = ctx.slots_max
    x, y = random_complex(rng, slots), random_complex(rng, slots)
    scale = 2.0**36
    cx = encr.encrypt_symmetric(
        enc.encode(x, level=23, scale=scale, slots=slots), kg.secret_key()
    )
    cy = encr.encrypt_symmetric(
        enc.encode(y, level=23, scale=scale, slots=slots), kg.secret_key()
    )
    out = ev.rescale(ev.multiply_relin(cx, cy, krelin))
    bits = precision_bits(enc.decode(dec.decrypt(out)), x * y)
    assert bits >= ATHENA_MUL_RESCALE_BITS, f"{bits:.1f} bits"


def test_klss_keys_serialize_and_check_their_parameters(ctx_klss_small, tmp_path):
    ctx = ctx_klss_small
    kg = er.KeyGenerator(ctx)
    g = er.galois_element_for_rotation(ctx, 1, ctx.slots_max)
    keys = er.EvaluationKeys(
        klss_relin=kg.klss_relin_key(), klss_galois=kg.klss_galois_keys([g])
    )
    path = str(tmp_path / "keys.bin")
    er.save(path, ctx, keys)
    back = er.load_evaluation_keys(ctx, path)
    assert back.has_klss_relin and not back.has_relin
    assert back.klss_galois.elements == [g]
    np.testing.assert_array_equal(
        back.klss_relin.key.residues(2, 3), keys.klss_relin.key.residues(2, 3)
    )
    # The same keys under parameters without T are refused by name.
    spec = klss_spec()
    spec.klss_gamma, spec.t_bits = 0, []
    plain = er.Context(spec)
    with pytest.raises(er.SerializationError, match="other parameters"):
        er.load_evaluation_keys(plain, path)
