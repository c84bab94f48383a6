"""FHEW/TFHE on the CPU (ember_runtime.tfhe) against exact references in
Python integers: signed gadget digits, modulus switching, the blind
rotation's accumulator decrypted with a schoolbook negacyclic product,
sample extraction, key switching; then every gate's truth table, MUX,
random circuits and lookup tables on encrypted inputs at OpenFHE's STD128,
and the noise model against measured variances; radix blocks (at Q under
the ring key, bootstrapped key switch first) at TOY_4BIT_MR: encryption,
tables, a radix circuit and their files.

Bounds: a decrypted accumulator or key switch may differ from its exact
value by its noise only, checked at 7 standard deviations of the variance
that estimateNoise gives for that step (a Gaussian exceeds that with
probability about 2^-38 per coefficient).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from exact_ref import centred, negacyclic_mul
from runtime_util import er

tfhe = er.tfhe


class Keys:
    def __init__(self, name: str) -> None:
        self.params = tfhe.Params.named(name)
        self.sk = tfhe.SecretKey(self.params)
        self.ek = tfhe.EvaluationKeys(self.sk)
        self.ev = tfhe.Evaluator(self.ek)


@pytest.fixture(scope="module")
def toy() -> Keys:
    return Keys("TOY")


@pytest.fixture(scope="module")
def std128() -> Keys:
    return Keys("STD128")


def lwe_phase(a, b: int, key, modulus: int) -> int:
    """b - <a, s> mod modulus, centred, in Python integers."""
    return centred(
        (int(b) - sum(int(x) * int(s) for x, s in zip(a, key, strict=True))) % modulus,
        modulus,
    )


def test_named_sets() -> None:
    p = tfhe.Params.named("STD128")
    assert (p.n, p.q, p.ring_degree, p.ring_q) == (556, 2048, 1024, 134215681)
    assert (p.base_g, p.digits_g, p.q_ks, p.base_ks, p.digits_ks) == (
        128,
        4,
        2**15,
        32,
        3,
    )
    assert not p.insecure and tfhe.Params.named("TOY").insecure
    # Q is the largest prime below 2^27 that is 1 mod 2N (OpenFHE's LastPrime).
    q = p.ring_q
    assert q % 2048 == 1 and all(q % f for f in range(3, 11586, 2))
    with pytest.raises(er.InvalidArgument, match="unknown FHEW/TFHE parameter set"):
        tfhe.Params.named("STD64")


def test_noise_model_of_std128() -> None:
    noise = tfhe.Params.named("STD128").noise()
    # OpenFHE states 2^-135 for STD128; the issue asks at most 2^-40.
    assert -140 < noise["log2_gate_failure"] < -120
    assert noise["total"] == pytest.approx(
        noise["blind_rotation"] + noise["key_switch"] + noise["mod_switch"]
    )
    assert noise["log2_lut_failure"][4] < -40  # t = 4 with a padding bit
    assert noise["log2_lut_failure"][8] > -40  # t = 8 is too weak here


@pytest.mark.parametrize("name", ["STD128", "STD128Q", "TOY"])
def test_signed_digits(name: str, rng) -> None:
    p = tfhe.Params.named(name)
    q, bg, d = p.ring_q, p.base_g, p.digits_g
    xs = [0, 1, q // 2, q // 2 + 1, q - 1] + [int(x) for x in rng.integers(0, q, 3000)]
    for x in xs:
        # Balanced digits from the bottom, in Python integers; the top digit
        # keeps the rest.
        v, want = centred(x, q), []
        for k in range(d):
            r = v if k == d - 1 else (v + bg // 2) % bg - bg // 2
            v = (v - r) // bg
            want.append(r)
        assert v == 0
        assert tfhe.signed_digits(x, p) == want[1:], x


def test_mod_switch_is_exact_rounding(rng) -> None:
    a = rng.integers(0, 2**27, 64, dtype=np.uint32)
    ct = tfhe.Ciphertext(a, 12345678, 134215681)
    out = tfhe.mod_switch(ct, 2**15)
    want = [(int(x) * 2**15 + 134215681 // 2) // 134215681 % 2**15 for x in a]
    assert out.a.tolist() == want and out.modulus == 2**15
    assert out.b == (12345678 * 2**15 + 134215681 // 2) // 134215681


@pytest.mark.parametrize("which", ["toy", "std128"])
def test_blind_rotation_against_schoolbook(which: str, request, rng) -> None:
    k: Keys = request.getfixturevalue(which)
    p = k.params
    n_ring, big_q = p.ring_degree, p.ring_q
    sigma_q = math.sqrt(p.noise()["blind_rotation"]) * big_q / p.q
    s_ring = np.array([x % big_q for x in k.sk.ring_key.tolist()], dtype=np.uint64)
    for _ in range(2):
        tv = rng.integers(0, big_q, n_ring, dtype=np.uint32)
        ct = k.sk.encrypt(int(rng.integers(0, p.q)), p.q)
        acc = k.ev.blind_rotate(ct, tv)
        a_part, b_part = acc[:n_ring].astype(np.uint64), acc[n_ring:]
        a_s = negacyclic_mul(a_part, s_ring, big_q)
        got = [
            centred((int(b) - int(x)) % big_q, big_q)
            for b, x in zip(b_part, a_s, strict=True)
        ]
        phi = lwe_phase(ct.a, ct.b, k.sk.lwe_key, p.q) % p.q
        e = (-phi * (2 * n_ring // p.q)) % (2 * n_ring)
        for j in range(n_ring):
            src = (j - e) % (2 * n_ring)
            want = int(tv[src]) if src < n_ring else -int(tv[src - n_ring])
            assert abs(centred((got[j] - want) % big_q, big_q)) <= 7 * sigma_q, j
        # Sample extraction: the LWE phase under s' is the constant coefficient.
        ext = k.ev.sample_extract(acc)
        assert ext.modulus == big_q and ext.dimension == n_ring
        assert lwe_phase(ext.a, ext.b, k.sk.ring_key, big_q) == got[0]


def test_key_switch_keeps_the_phase(std128: Keys, rng) -> None:
    p = std128.params
    sigma = math.sqrt(p.noise()["key_switch"]) * p.q_ks / p.q
    for _ in range(5):
        a = rng.integers(0, p.q_ks, p.ring_degree, dtype=np.uint32)
        ct = tfhe.Ciphertext(a, int(rng.integers(0, p.q_ks)), p.q_ks)
        out = std128.ev.key_switch(ct)
        assert out.dimension == p.n and out.modulus == p.q_ks
        want = lwe_phase(ct.a, ct.b, std128.sk.ring_key, p.q_ks)
        got = lwe_phase(out.a, out.b, std128.sk.lwe_key, p.q_ks)
        assert abs(centred((got - want) % p.q_ks, p.q_ks)) <= 7 * sigma


TRUTH = {
    "AND": lambda a, b: a & b,
    "OR": lambda a, b: a | b,
    "NAND": lambda a, b: 1 - (a & b),
    "NOR": lambda a, b: 1 - (a | b),
    "XOR": lambda a, b: a ^ b,
    "XNOR": lambda a, b: 1 - (a ^ b),
}


@pytest.mark.parametrize("which", ["toy", "std128"])
def test_gate_truth_tables(which: str, request) -> None:
    k: Keys = request.getfixturevalue(which)
    for gate, fn in TRUTH.items():
        for a in (0, 1):
            for b in (0, 1):
                out = k.ev.gate(gate, k.sk.encrypt(a), k.sk.encrypt(b))
                assert out.dimension == k.params.n and out.modulus == k.params.q
                assert k.sk.decrypt(out) == fn(a, b), (gate, a, b)
    for a in (0, 1):
        assert k.sk.decrypt(k.ev.not_(k.sk.encrypt(a))) == 1 - a
        for sel in (0, 1):
            for f in (0, 1):
                out = k.ev.mux(k.sk.encrypt(sel), k.sk.encrypt(a), k.sk.encrypt(f))
                assert k.sk.decrypt(out) == (a if sel else f)


def test_random_circuit(std128: Keys, rng) -> None:
    """60 gates over 8 encrypted bits, each gate on earlier outputs: the
    bootstrapped noise does not accumulate."""
    bits = [int(b) for b in rng.integers(0, 2, 8)]
    wires = [std128.sk.encrypt(b) for b in bits]
    names = list(TRUTH)
    for _ in range(60):
        i, j = (int(x) for x in rng.integers(0, len(wires), 2))
        gate = names[int(rng.integers(0, len(names)))]
        wires.append(std128.ev.gate(gate, wires[i], wires[j]))
        bits.append(TRUTH[gate](bits[i], bits[j]))
    assert [std128.sk.decrypt(w) for w in wires] == bits


def test_lookup_tables(std128: Keys, rng) -> None:
    for t in (2, 4):
        for _ in range(2):
            table = [int(x) for x in rng.integers(0, t, t)]
            for m in range(t):
                out = std128.ev.lut(std128.sk.encrypt(m, 2 * t), table)
                assert std128.sk.decrypt(out, 2 * t) == table[m], (table, m)
    with pytest.raises(er.InvalidArgument, match="power of two"):
        std128.ev.lut(std128.sk.encrypt(0, 8), [0, 1, 2])
    with pytest.raises(er.InvalidArgument, match="outside Z_4"):
        std128.ev.lut(std128.sk.encrypt(0, 8), [0, 1, 2, 4])


def chi2_band(count: int, z: float = 4.9) -> tuple[float, float]:
    """Where the mean square of `count` centred Gaussian samples, over their
    variance, lies but with probability about 1e-6 on either side (z
    standard deviations): chi-squared with `count` degrees of freedom over
    `count`, by Wilson and Hilferty's cube-root approximation."""
    mean, spread = 1 - 2 / (9 * count), math.sqrt(2 / (9 * count))
    return (mean - z * spread) ** 3, (mean + z * spread) ** 3


def test_measured_noise_matches_the_model(std128: Keys) -> None:
    """The variance of a bootstrapped phase at q over 300 bootstraps, against
    estimateNoise: within chi2_band (0.65-1.45; the sample variance's own
    spread is sqrt(2/300) = 8%)."""
    p, count = std128.params, 300
    errors = []
    for i in range(count):
        out = std128.ev.bootstrap(std128.sk.encrypt(i % 2))
        errors.append(std128.sk.phase(out) - (i % 2) * p.q // 4)
    measured = float(np.mean(np.square(errors)))
    lo, hi = chi2_band(count)
    assert lo < measured / p.noise()["total"] < hi, measured


@pytest.fixture(scope="module")
def std128_4bit() -> Keys:
    return Keys("STD128_4BIT")


def test_four_bit_set() -> None:
    """STD128_4BIT: N = 2048 and q = 2N = 4096, Q = 2^28 - 2^16 + 1 (the
    largest prime below 2^28 that is 1 mod 2N), q_ks = 2^19 (32-bit key
    words); tables over Z_16 fail below 2^-40 per bootstrap, Z_32 above."""
    p = tfhe.Params.named("STD128_4BIT")
    assert (p.n, p.q, p.ring_degree, p.ring_q) == (740, 4096, 2048, 2**28 - 2**16 + 1)
    assert (p.base_g, p.q_ks, p.base_ks) == (16, 2**19, 4)
    q = p.ring_q
    assert q % 4096 == 1 and all(q % f for f in range(3, 16384, 2))
    assert all(
        c % 4096 != 1 or any(c % f == 0 for f in range(3, 16384, 2))
        for c in range(q + 4096, 2**28, 4096)
    )
    assert not p.insecure
    lut = p.noise()["log2_lut_failure"]
    assert lut[16] < -40 < lut[32]


def test_four_bit_tables(std128_4bit: Keys, rng) -> None:
    """Every entry of random tables over Z_16 (4-bit messages with a padding
    bit) on encrypted inputs; the key switch runs on 32-bit key words."""
    k = std128_4bit
    assert k.ek.key_switch_key_bytes == 2048 * 10 * 3 * 741 * 4
    for _ in range(2):
        table = [int(x) for x in rng.integers(0, 16, 16)]
        for m in range(16):
            out = k.ev.lut(k.sk.encrypt(m, 32), table)
            assert k.sk.decrypt(out, 32) == table[m], (table, m)
    # The 32-bit key words through a file: the same output words.
    again = tfhe.Evaluator(
        tfhe.deserialize_evaluation_keys(tfhe.serialize_evaluation_keys(k.ek))
    )
    ct = k.sk.encrypt(5, 32)
    a, b = k.ev.lut(ct, table), again.lut(ct, table)
    assert (a.a.tolist(), a.b) == (b.a.tolist(), b.b)


def test_four_bit_measured_noise(std128_4bit: Keys) -> None:
    """The phase variance of a table's output at q over 240 bootstraps,
    against estimateNoise: within chi2_band (0.61-1.51; the sample
    variance's spread is sqrt(2/240) = 9%). With 120 samples and a band of
    0.55-1.5 the test failed about once in a few thousand runs by chance
    alone (the upper edge was 3.4 spreads of a chi-squared away)."""
    k, count = std128_4bit, 240
    table = list(range(16))
    errors = []
    for i in range(count):
        out = k.ev.lut(k.sk.encrypt(i % 16, 32), table)
        errors.append(centred((k.sk.phase(out) - (i % 16) * k.params.q // 32), 4096))
    measured = float(np.mean(np.square(errors)))
    lo, hi = chi2_band(count)
    assert lo < measured / k.params.noise()["total"] < hi, measured


def test_modulus_raising_set() -> None:
    """STD128_4BIT_MR: STD128_4BIT's LWE side, the blind rotation's key an
    RLWE sample at P Q with P and Q the two largest primes below 2^27 that
    are 1 mod 2N (log2 P Q < 54, the HE standard's bound at N = 2048); its
    blind-rotation noise is (Q/P)^2 times a product's, far below the
    gadget's."""
    p = tfhe.Params.named("STD128_4BIT_MR")
    g = tfhe.Params.named("STD128_4BIT")
    assert p.raising and not g.raising and p.base_g == 0 and p.digits_g == 0
    assert (p.n, p.q, p.ring_degree, p.q_ks, p.base_ks) == (
        g.n,
        g.q,
        g.ring_degree,
        g.q_ks,
        g.base_ks,
    )
    candidates = range((2**27 - 1) // 4096 * 4096 + 1, 2**26, -4096)
    primes = (c for c in candidates if all(c % f for f in range(3, 11586, 2)))
    assert (p.ring_p, p.ring_q) == (next(primes), next(primes))
    assert math.log2(p.ring_p * p.ring_q) < 54
    n, ng = p.noise(), g.noise()
    assert n["blind_rotation"] < ng["blind_rotation"] / 100
    assert n["log2_lut_failure"][16] < ng["log2_lut_failure"][16] < -40


def test_modulus_raising_tables_and_noise(rng) -> None:
    """Tables over Z_16 by modulus raising: 256 outputs of random tables
    decrypt to their entries, and their phase variance at q matches
    estimateNoise (within chi2_band: 0.63-1.50; the sample variance's spread
    is sqrt(2/256) = 9%). The keys through a file give the same words."""
    k = Keys("STD128_4BIT_MR")
    assert k.ek.bootstrap_key_bytes == 740 * 2 * 2 * 2 * 2048 * 4 * 2
    errors = []
    count = 256
    for i in range(count):
        if i % 16 == 0:
            table = [int(x) for x in rng.integers(0, 16, 16)]
        m = int(rng.integers(0, 16))
        out = k.ev.lut(k.sk.encrypt(m, 32), table)
        assert k.sk.decrypt(out, 32) == table[m], (table, m)
        errors.append(centred(k.sk.phase(out) - table[m] * k.params.q // 32, 4096))
    measured = float(np.mean(np.square(errors)))
    lo, hi = chi2_band(count)
    assert lo < measured / k.params.noise()["total"] < hi, measured
    again = tfhe.Evaluator(
        tfhe.deserialize_evaluation_keys(tfhe.serialize_evaluation_keys(k.ek))
    )
    ct = k.sk.encrypt(5, 32)
    a, b = k.ev.lut(ct, table), again.lut(ct, table)
    assert (a.a.tolist(), a.b) == (b.a.tolist(), b.b)


def test_ap_blind_rotation() -> None:
    """AP/DM (OpenFHE's AP: one product per nonzero digit of a_i in base
    B_r, by RGSW(X^(s_i v B_r^k 2N/q))): every gate's truth table at
    STD128_AP (2.5 GB of bootstrapping key: 556 coefficients x 94 RGSW keys),
    tables over Z_4, the measured noise against the model, and at TOY_AP the
    keys through a file (B_r and the key count travel with the set)."""
    p = tfhe.Params.named("STD128_AP")
    g = tfhe.Params.named("STD128")
    assert (p.n, p.q, p.ring_degree, p.ring_q, p.base_g) == (
        g.n,
        g.q,
        g.ring_degree,
        g.ring_q,
        g.base_g,
    )
    assert p.base_r == 64 and p.digits_r == 2
    assert p.noise()["log2_gate_failure"] < -120
    k = Keys("STD128_AP")
    assert k.ek.bootstrap_key_bytes == 556 * 94 * 6 * 2 * 1024 * 4
    truth = {"AND": [0, 0, 0, 1], "OR": [0, 1, 1, 1], "NAND": [1, 1, 1, 0]}
    truth |= {"NOR": [1, 0, 0, 0], "XOR": [0, 1, 1, 0], "XNOR": [1, 0, 0, 1]}
    for gate, table in truth.items():
        for bits in range(4):
            a, b = k.sk.encrypt(bits >> 1), k.sk.encrypt(bits & 1)
            assert k.sk.decrypt(k.ev.gate(gate, a, b)) == table[bits], (gate, bits)
    for m in range(4):
        out = k.ev.lut(k.sk.encrypt(m, 8), [2, 0, 3, 1])
        assert k.sk.decrypt(out, 8) == [2, 0, 3, 1][m]
    # The phase variance of 240 refreshed bits against estimateNoise
    # (within chi2_band: 0.61-1.51; the sample variance's spread is 9%).
    errors, count = [], 240
    for i in range(count):
        out = k.ev.bootstrap(k.sk.encrypt(i % 2))
        errors.append(k.sk.phase(out) - (i % 2) * p.q // 4)
    measured = float(np.mean(np.square(errors)))
    lo, hi = chi2_band(count)
    assert lo < measured / p.noise()["total"] < hi, measured
    toy = Keys("TOY_AP")
    again = tfhe.Evaluator(
        tfhe.deserialize_evaluation_keys(tfhe.serialize_evaluation_keys(toy.ek))
    )
    a, b = toy.sk.encrypt(1), toy.sk.encrypt(0)
    x, y = toy.ev.gate("OR", a, b), again.gate("OR", a, b)
    assert (x.a.tolist(), x.b) == (y.a.tolist(), y.b) and toy.sk.decrypt(x) == 1


def test_seeded_keys_give_identical_results() -> None:
    """The same Prng seed gives the same keys: the same gate output words
    (what the CUDA backend must reproduce)."""
    seed = bytes(range(32))
    outs = []
    for _ in range(2):
        prng = er.Prng(seed)
        p = tfhe.Params.named("TOY")
        sk = tfhe.SecretKey(p, prng)
        ev = tfhe.Evaluator(tfhe.EvaluationKeys(sk, prng))
        a, b = sk.encrypt(1, 4, prng), sk.encrypt(0, 4, prng)
        out = ev.gate("NAND", a, b)
        outs.append((out.a.tolist(), out.b))
    assert outs[0] == outs[1]


def test_errors_name_the_problem(toy: Keys) -> None:
    ct = toy.sk.encrypt(1)
    short = tfhe.Ciphertext(ct.a[:-1], ct.b, ct.modulus)
    with pytest.raises(er.InvalidArgument, match="dimension 64 at q = 512"):
        toy.ev.gate("AND", short, ct)
    with pytest.raises(er.InvalidArgument, match="unknown gate 'IMPLIES'"):
        toy.ev.gate("IMPLIES", ct, ct)
    with pytest.raises(er.InvalidArgument, match="outside Z_4"):
        toy.sk.encrypt(4)


def test_serialization(toy: Keys, tmp_path) -> None:
    """Keys and ciphertexts round-trip (the loaded keys compute the same
    words); a forged or foreign file is refused, naming why; a secret key
    file is written readable by its owner only."""
    sk_bytes = tfhe.serialize_secret_key(toy.sk)
    ek_bytes = tfhe.serialize_evaluation_keys(toy.ek)
    cts = [toy.sk.encrypt(1), toy.sk.encrypt(1)]
    ct_bytes = tfhe.serialize_ciphertexts(toy.params, cts)
    sk2 = tfhe.deserialize_secret_key(sk_bytes)
    assert np.array_equal(sk2.lwe_key, toy.sk.lwe_key)
    ev2 = tfhe.Evaluator(tfhe.deserialize_evaluation_keys(ek_bytes))
    a, b = tfhe.deserialize_ciphertexts(toy.params, ct_bytes)
    want = toy.ev.gate("XOR", cts[0], cts[1])
    got = ev2.gate("XOR", a, b)
    assert np.array_equal(got.a, want.a) and got.b == want.b
    assert sk2.decrypt(got) == 0
    with pytest.raises(er.SerializationError, match="expected FHEW/TFHE evaluation"):
        tfhe.deserialize_evaluation_keys(sk_bytes)
    with pytest.raises(er.SerializationError, match="made for parameter set 'TOY'"):
        tfhe.deserialize_ciphertexts(tfhe.Params.named("STD128"), ct_bytes)
    bad = bytearray(ek_bytes)
    bad[200] ^= 1
    with pytest.raises(er.SerializationError, match="checksum mismatch"):
        tfhe.deserialize_evaluation_keys(bytes(bad))
    assert er.peek_kind(sk_bytes) == er.ObjectKind.LWE_SECRET_KEY
    er.write_file(str(tmp_path / "sk.bin"), sk_bytes)
    er.write_file(str(tmp_path / "ek.bin"), ek_bytes)
    assert (tmp_path / "sk.bin").stat().st_mode & 0o777 == 0o600
    assert er.read_file(str(tmp_path / "ek.bin")) == ek_bytes


# ---------------------------------------------------------------------------
# Radix blocks: LWE ciphertexts at Q of dimension N under the ring key s',
# bootstrapped in the key-switch-first order (Evaluator.pbs).


@pytest.fixture(scope="module")
def toy4() -> Keys:
    return Keys("TOY_4BIT_MR")


def block_delta(p, t: int = 16) -> int:
    return (p.ring_q + t) // (2 * t)


def test_blocks_encrypt_and_decrypt(toy4: Keys) -> None:
    p = toy4.params
    for m in range(32):
        ct = toy4.sk.encrypt_block(m)
        assert ct.modulus == p.ring_q and ct.dimension == p.ring_degree
        assert toy4.sk.decrypt_block(ct) == m
        # The phase in Python integers: m Delta plus a fresh error.
        phase = lwe_phase(ct.a, ct.b, toy4.sk.ring_key, p.ring_q)
        assert abs(centred((phase - m * block_delta(p)) % p.ring_q, p.ring_q)) < 31
    assert toy4.sk.decrypt_block(toy4.sk.encrypt_block(5, t=4), t=4) == 5
    with pytest.raises(er.InvalidArgument, match="outside Z_32"):
        toy4.sk.encrypt_block(32)
    with pytest.raises(er.InvalidArgument, match="radix block"):
        toy4.sk.decrypt_block(toy4.sk.encrypt(1, 32))


def test_pbs(toy4: Keys, rng) -> None:
    """Every input of a random table over Z_16; the outputs are blocks whose
    phase is table[m] Delta plus the blind rotation's noise only."""
    p = toy4.params
    table = [int(x) for x in rng.integers(0, 16, 16)]
    sigma_q = math.sqrt(p.noise()["blind_rotation"]) * p.ring_q / p.q
    for m in range(16):
        out = toy4.ev.pbs(toy4.sk.encrypt_block(m), table)
        assert out.modulus == p.ring_q and out.dimension == p.ring_degree
        assert toy4.sk.decrypt_block(out) == table[m], (table, m)
        phase = lwe_phase(out.a, out.b, toy4.sk.ring_key, p.ring_q)
        error = centred((phase - table[m] * block_delta(p)) % p.ring_q, p.ring_q)
        assert abs(error) <= 7 * sigma_q
    with pytest.raises(er.InvalidArgument, match="radix block"):
        toy4.ev.pbs(toy4.sk.encrypt(1, 32), table)


def radix_adder() -> tuple[list[list[int]], list[list[int]], list[list[int]]]:
    """A two-block adder of 4-bit integers (blocks of 2 bits, least
    significant first; inputs x0, x1, y0, y1): ops, tables, forms."""
    mod4 = [v % 4 for v in range(16)]
    carry = [int(v >= 4) for v in range(16)]
    ops = [
        [9, 4, 0, 2, 0],  # s0 = x0 + y0
        [9, 5, 1, 3, 0],  # s1 = x1 + y1
        [10, 6, 4, 0, -1],  # s0 % 4
        [10, 7, 4, 1, -1],  # s0 >= 4
        [9, 8, 5, 7, 0],  # s1 + carry
        [10, 9, 8, 0, -1],
        [10, 10, 8, 1, -1],  # the carry out
        [11, 11, 3, -1, -1],  # the known block 3
        [9, 12, 11, 6, 1],  # 3 - (s0 % 4)
    ]
    return ops, [mod4, carry], [[1, 1, 0], [1, -1, 0]]


def test_radix_circuit(toy4: Keys, rng) -> None:
    ops, tables, forms = radix_adder()
    c = tfhe.Circuit(
        4,
        13,
        np.array(ops, dtype=np.int32),
        [6, 9, 10, 12],
        tables=tables,
        forms=forms,
        radix=True,
        block_modulus=16,
    )
    assert c.radix and c.block_modulus == 16 and c.op_count == 9
    assert c.tables == tables and [list(f) for f in c.forms] == forms
    for _ in range(4):
        x, y = (int(v) for v in rng.integers(0, 16, 2))
        inputs = [toy4.sk.encrypt_block(v) for v in (x & 3, x >> 2, y & 3, y >> 2)]
        out = [toy4.sk.decrypt_block(ct) for ct in tfhe.run_circuit(toy4.ev, c, inputs)]
        assert out[0] + 4 * out[1] + 16 * out[2] == x + y, (x, y, out)
        assert out[3] == 3 - (x + y) % 4
    # A bits circuit keeps its positional form; radix codes are refused
    # there, and bit codes in a radix circuit.
    bits = tfhe.Circuit(2, 3, np.array([[0, 2, 0, 1, -1]], dtype=np.int32), [2])
    assert not bits.radix
    with pytest.raises(er.InvalidArgument, match="code 9 is a radix op"):
        tfhe.Circuit(4, 13, np.array(ops, dtype=np.int32), [6], tables, forms)
    with pytest.raises(er.InvalidArgument, match="code 0 is a bit op"):
        tfhe.Circuit(
            2, 3, np.array([[0, 2, 0, 1, -1]], dtype=np.int32), [2], radix=True
        )
    with pytest.raises(er.InvalidArgument, match="table 2 of 2"):
        bad = [list(op) for op in ops]
        bad[2][3] = 2
        tfhe.Circuit(4, 13, np.array(bad, dtype=np.int32), [6], tables, forms, True)
    with pytest.raises(er.InvalidArgument, match="expected t = 16"):
        tfhe.Circuit(4, 13, np.array(ops), [6], [tb[:8] for tb in tables], forms, True)
    with pytest.raises(er.InvalidArgument, match="radix block"):
        tfhe.run_circuit(toy4.ev, c, [toy4.sk.encrypt(0, 32)] * 4)


def test_block_serialization(toy4: Keys) -> None:
    """Blocks round-trip in a file of their own kind; a file of bits is not
    read as blocks (nor blocks as bits) where the kind is asked for, and a
    word at or above Q is refused."""
    p = toy4.params
    blocks = [toy4.sk.encrypt_block(m) for m in (0, 7, 31)]
    data = tfhe.serialize_ciphertexts(p, blocks)
    assert er.peek_kind(data) == er.ObjectKind.LWE_BLOCKS
    for back in (
        tfhe.deserialize_ciphertexts(p, data),
        tfhe.deserialize_ciphertexts(p, data, blocks=True),
    ):
        assert [toy4.sk.decrypt_block(ct) for ct in back] == [0, 7, 31]
        assert all(
            np.array_equal(a.a, b.a) and a.b == b.b and b.modulus == p.ring_q
            for a, b in zip(blocks, back, strict=True)
        )
    bits = tfhe.serialize_ciphertexts(p, [toy4.sk.encrypt(1, 4)])
    assert er.peek_kind(bits) == er.ObjectKind.LWE_CIPHERTEXTS
    assert tfhe.deserialize_ciphertexts(p, bits)[0].modulus == p.q
    with pytest.raises(er.SerializationError, match="expected FHEW/TFHE radix blocks"):
        tfhe.deserialize_ciphertexts(p, bits, blocks=True)
    with pytest.raises(er.SerializationError, match="expected FHEW/TFHE ciphertexts"):
        tfhe.deserialize_ciphertexts(p, data, blocks=False)
    with pytest.raises(er.InvalidArgument, match="radix block"):
        tfhe.serialize_ciphertexts(p, [blocks[0], toy4.sk.encrypt(1, 4)])
    too_big = tfhe.Ciphertext(blocks[0].a, p.ring_q, p.ring_q)
    with pytest.raises(er.InvalidArgument, match="not below"):
        tfhe.serialize_ciphertexts(p, [too_big])
