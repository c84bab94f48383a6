"""Security bounds of the runtime: the 128-bit bound of a sparse
(fixed-Hamming-weight) secret and the one bit count (ember/security.h)."""

from __future__ import annotations

import math

import ember_runtime as er
import pytest

# --- Sparse secrets ----------------------------------------------------------------


def test_sparse_secret_needs_its_own_bound():
    """Set B (log QP 1460 at N = 2^16) is 128-bit secure with a uniform
    ternary secret and with h = 192 (1553 bits estimated at 134 bits), not
    with h = 64 (the h = 32 figure, 117 bits)."""
    spec = er.ParamSpec.named("B")
    er.check_security(spec)
    spec.hamming_weight = 192
    er.check_security(spec)
    spec.hamming_weight = 64
    with pytest.raises(er.SecurityError) as err:
        er.check_security(spec)
    for part in ["h = 64", "N = 2^16", "log2(QP) = 1460", "exceeds 117"]:
        assert part in str(err.value)
    with pytest.raises(er.SecurityError):
        er.Context(spec)
    spec.hamming_weight = 8
    with pytest.raises(er.SecurityError, match="no published 128-bit bound"):
        er.check_security(spec)
    spec.insecure = True  # the test mode, by name, still skips the check
    er.check_security(spec)


def test_sparse_bound_table():
    assert er.max_log_qp_sparse_128(16, 192) == 1553
    assert er.max_log_qp_sparse_128(15, 192) == 767
    assert er.max_log_qp_sparse_128(16, 32) == 117
    assert er.max_log_qp_sparse_128(16, 100) == 117  # the next smaller weight
    assert er.max_log_qp_sparse_128(16, 31) == 0  # nothing published
    for log_n in range(10, 18):
        bounds = [er.max_log_qp_sparse_128(log_n, h) for h in range(0, 2000, 7)]
        assert bounds == sorted(bounds)
        assert max(bounds) <= er.max_log_qp_128(log_n)


# --- One bit count -----------------------------------------------------------------


def primes_above(log_n: int, bits: int, count: int) -> list[int]:
    out, c = [], 2**bits + 1
    while len(out) < count:
        if er.is_prime(c):
            out.append(c)
        c += 2 ** (log_n + 1)
    return out


def test_bit_count_at_the_bound():
    """Three primes just above 2^54 and one below 2^56 at N = 2^13 (218
    bits allowed): rounding log2 counted 218, but QP lies just above 2^218:
    the bit length of the product, 219 bits, is refused."""
    q = primes_above(13, 54, 3)
    p = er.generate_ntt_primes(13, [56])
    assert sum(round(math.log2(x)) for x in q + p) == 218
    spec = er.ParamSpec(log_n=13, q_bits=[55] * 3, p_bits=[56], dnum=3)
    with pytest.raises(er.SecurityError, match=r"log2\(QP\) = 219"):
        er.Context(spec, q, p)
    assert [er.prime_bits(x) for x in q] == [x.bit_length() for x in q] == [55] * 3
    assert er.log_qp(q, p) == math.prod(q + p).bit_length() == 219
